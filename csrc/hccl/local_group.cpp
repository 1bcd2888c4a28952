#include "hccl/local_group.h"

#include <cstring>

#include "common/error.h"
#include "hccl/algorithms/collective.h"
#include "hccl/collective_watchdog.h"
#include "hccl/local_arrival.h"
#include "hccl/reduce_ops.h"
#include "runtime/stream.h"

namespace acl_sim::hccl {

namespace {
constexpr uint32_t kNoCaller = UINT32_MAX;
}

LocalGroup::LocalGroup(uint32_t n) : n_(n), left_at_(n, UINT64_MAX), left_why_(n) {
  channels_.reserve(size_t(n) * n);
  for (size_t i = 0; i < size_t(n) * n; ++i) channels_.push_back(std::make_unique<Channel>());
}

bool LocalGroup::arrive(uint64_t seq, const std::shared_ptr<LocalArrival>& a, const std::shared_ptr<Stream>& s,
                        double timeout_s) {
  std::unique_lock<std::mutex> lock(mu_);
  if (poison_.broken()) {
    lock.unlock();
    try {
      poison_.throw_if_broken();
    } catch (const Error& e) {
      a->finish(e.code(), e.what());
    }
    return true;
  }
  const std::string abandoned = abandoned_by(seq, a->desc());
  if (!abandoned.empty()) {  // a rank left before this collective: it fails alone, at once
    lock.unlock();
    a->finish(HCCL_E_REMOTE, abandoned);
    return true;
  }
  auto [it, fresh] = open_.try_emplace(seq);
  Gathering& g = it->second;
  if (fresh) {
    g.ranks.resize(n_);
    g.streams.resize(n_);
    g.timeout_s = timeout_s;
    g.watch = watch_collective(shared_from_this(), seq, Deadline::after(timeout_s).at());
  }
  const uint32_t r = a->rank();
  if (g.ranks[r]) {  // only a bug can get here: each rank numbers its own collectives
    lock.unlock();
    a->finish(HCCL_E_INTERNAL, str("rank ", r, " arrived twice at collective ", seq));
    return true;
  }
  g.ranks[r] = a;
  g.streams[r] = s;
  if (++g.arrived < n_) {  // parked; the last rank (or the watchdog, or rank_left) resumes the stream
    a->mark_parked();
    return false;
  }
  Gathering done = std::move(g);
  open_.erase(it);
  lock.unlock();
  cancel_watch(done.watch);
  complete(done, r);
  return true;
}

void LocalGroup::complete(Gathering& g, uint32_t caller) {
  CollectiveRun run;
  run.local.resize(n_);
  for (uint32_t r = 0; r < n_; ++r) run.local[r] = &g.ranks[r]->desc();
  run.nranks = n_;
  int code = 0;
  std::string why;
  try {
    run_collective(run);
  } catch (const Error& e) {
    code = e.code();
    why = e.what();
  } catch (const std::exception& e) {
    code = HCCL_E_INTERNAL;
    why = e.what();
  }
  for (uint32_t r = 0; r < n_; ++r) g.ranks[r]->finish(code, why);
  for (uint32_t r = 0; r < n_; ++r)
    if (r != caller) g.streams[r]->resume();
}

void LocalGroup::fail_gathering(Gathering& g, uint32_t caller, int code, const std::string& why) {
  for (auto& a : g.ranks)
    if (a) a->finish(code, why);
  for (uint32_t r = 0; r < g.streams.size(); ++r)
    if (g.streams[r] && r != caller) g.streams[r]->resume();
}

std::string LocalGroup::abandoned_by(uint64_t seq, const OpDesc& d) const {
  // Every rank fails a collective numbered at or after a leaver's count, the leaver included (should
  // a call of it that was already past aclFinalize's gate still queue one): no rank waits for it.
  for (uint32_t r = 0; r < n_; ++r)
    if (seq >= left_at_[r]) return str(kind_name(d.kind), ": rank ", r, " will not take part: ", left_why_[r]);
  return "";
}

void LocalGroup::rank_left(uint32_t r, uint64_t issued, const std::string& why) {
  std::vector<Gathering> dead;
  std::vector<std::string> whys;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (issued >= left_at_[r]) return;
    left_at_[r] = issued;
    left_why_[r] = why;
    for (auto it = open_.lower_bound(issued); it != open_.end();) {
      const Gathering& g = it->second;
      const OpDesc* any = nullptr;
      for (auto& a : g.ranks)
        if (a) any = &a->desc();
      std::string w = abandoned_by(it->first, *any);
      whys.push_back(std::move(w));
      dead.push_back(std::move(it->second));
      it = open_.erase(it);
    }
  }
  for (size_t i = 0; i < dead.size(); ++i) {
    cancel_watch(dead[i].watch);
    fail_gathering(dead[i], kNoCaller, HCCL_E_REMOTE, whys[i]);
  }
}

void LocalGroup::expire(uint64_t seq) {
  std::unique_lock<std::mutex> lock(mu_);
  auto it = open_.find(seq);
  if (it == open_.end()) return;
  Gathering g = std::move(it->second);
  open_.erase(it);
  std::string missing;
  const OpDesc* any = nullptr;
  for (uint32_t r = 0; r < n_; ++r) {
    if (g.ranks[r]) {
      any = &g.ranks[r]->desc();
    } else {
      missing += (missing.empty() ? "" : ", ") + std::to_string(r);
    }
  }
  const std::string why = str(any ? kind_name(any->kind) : "collective", ": timed out after ", g.timeout_s,
                              " s waiting for the other ranks (HCCL_EXEC_TIMEOUT); rank(s) ", missing,
                              " did not call the matching collective");
  poison_.poison(HCCL_E_TIMEOUT, why);  // before unlocking: later arrivals fail at once
  lock.unlock();
  fail_gathering(g, kNoCaller, HCCL_E_TIMEOUT, why);
}

void LocalGroup::send(uint32_t src, uint32_t dst, const void* buf, uint64_t count, HcclDataType dt,
                      const Deadline& deadline) {
  Channel& ch = channel(src, dst);
  std::unique_lock<std::mutex> lock(ch.mu);
  const uint64_t seq = ++ch.sent_seq;
  // Senders of one pair are serialised by stream order; wait for the previous message to be taken.
  ch.buf = buf;
  ch.count = count;
  ch.dtype = dt;
  ch.error.clear();
  ch.posted = seq;
  ch.cv.notify_all();
  while (ch.taken < seq) {
    poison_.throw_if_broken();
    if (deadline.passed()) {
      std::string why = str("HcclSend: rank ", src, " timed out after ", deadline.seconds(), " s waiting for rank ",
                            dst, " to call the matching HcclRecv (HCCL_EXEC_TIMEOUT)");
      lock.unlock();
      poison_.poison(HCCL_E_TIMEOUT, why);
      fail(HCCL_E_TIMEOUT, why);
    }
    ch.cv.wait_for(lock, std::chrono::milliseconds(20));
  }
  if (!ch.error.empty()) fail(HCCL_E_PARA, ch.error);
}

void LocalGroup::recv(uint32_t src, uint32_t dst, void* buf, uint64_t count, HcclDataType dt,
                      const Deadline& deadline) {
  Channel& ch = channel(src, dst);
  std::unique_lock<std::mutex> lock(ch.mu);
  const uint64_t seq = ++ch.recv_seq;
  while (ch.posted < seq) {
    poison_.throw_if_broken();
    if (deadline.passed()) {
      std::string why = str("HcclRecv: rank ", dst, " timed out after ", deadline.seconds(), " s waiting for rank ",
                            src, " to call the matching HcclSend (HCCL_EXEC_TIMEOUT)");
      lock.unlock();
      poison_.poison(HCCL_E_TIMEOUT, why);
      fail(HCCL_E_TIMEOUT, why);
    }
    ch.cv.wait_for(lock, std::chrono::milliseconds(20));
  }
  std::string error;
  if (ch.count != count || ch.dtype != dt) {
    error = str("send/recv mismatch: rank ", src, " sends ", ch.count, " x ", dtype_name(ch.dtype), ", rank ", dst,
                " receives ", count, " x ", dtype_name(dt));
  } else if (count) {
    std::memcpy(buf, ch.buf, count * dtype_size(dt));
  }
  ch.error = error;
  ch.taken = seq;
  ch.cv.notify_all();
  if (!error.empty()) fail(HCCL_E_PARA, error);
}

}  // namespace acl_sim::hccl
