#include "hccl/rendezvous.h"

#include <condition_variable>
#include <map>
#include <mutex>
#include <vector>

#include "common/error.h"

namespace acl_sim::hccl {
namespace {

struct Pending {
  uint32_t n = 0;
  std::vector<bool> joined;
  uint32_t count = 0;
  std::shared_ptr<LocalGroup> group;
};

std::mutex g_mu;
std::condition_variable g_cv;
std::map<std::string, Pending> g_pending;

}  // namespace

std::shared_ptr<LocalGroup> rendezvous_local(const std::string& key, uint32_t n, uint32_t rank,
                                             const Deadline& deadline) {
  ACL_SIM_REQUIRE(n >= 1, HCCL_E_PARA, "nRanks must be at least 1");
  ACL_SIM_REQUIRE(rank < n, HCCL_E_PARA, "rank ", rank, " is out of range for nRanks ", n);
  std::unique_lock<std::mutex> lock(g_mu);
  auto it = g_pending.find(key);
  if (it == g_pending.end()) {
    Pending p;
    p.n = n;
    p.joined.assign(n, false);
    p.group = std::make_shared<LocalGroup>(n);
    it = g_pending.emplace(key, std::move(p)).first;
  }
  Pending& p = it->second;
  ACL_SIM_REQUIRE(p.n == n, HCCL_E_PARA, "nRanks ", n, " disagrees with ", p.n,
                  " passed by the ranks that joined this root info earlier");
  ACL_SIM_REQUIRE(!p.joined[rank], HCCL_E_PARA, "rank ", rank, " joined this root info twice");
  p.joined[rank] = true;
  std::shared_ptr<LocalGroup> group = p.group;
  if (++p.count == n) {
    g_pending.erase(it);  // complete: later joiners with this key start a new group
    g_cv.notify_all();
    return group;
  }
  while (true) {
    auto cur = g_pending.find(key);
    if (cur == g_pending.end() || cur->second.group != group) return group;  // completed by the last joiner
    if (deadline.passed()) {
      Pending& q = cur->second;
      std::string missing;
      for (uint32_t r = 0; r < q.n; ++r)
        if (!q.joined[r]) missing += (missing.empty() ? "" : ", ") + std::to_string(r);
      q.joined[rank] = false;
      if (--q.count == 0) g_pending.erase(cur);
      fail(HCCL_E_TIMEOUT, "timed out after ", deadline.seconds(), " s waiting for ranks [", missing,
           "] to join (HCCL_CONNECT_TIMEOUT)");
    }
    g_cv.wait_for(lock, std::chrono::nanoseconds(std::min<int64_t>(deadline.remaining_ns(), 50000000)));
  }
}

}  // namespace acl_sim::hccl
