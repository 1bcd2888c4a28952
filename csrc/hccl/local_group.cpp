#include "hccl/local_group.h"

#include <cstring>

#include "common/error.h"
#include "hccl/algorithms/algorithms.h"
#include "hccl/collective_watchdog.h"
#include "hccl/local_arrival.h"
#include "hccl/reduce_ops.h"
#include "runtime/stream.h"

namespace acl_sim::hccl {

LocalGroup::LocalGroup(uint32_t n) : n_(n) {
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
  if (++g.arrived < n_) {  // parked; the last rank (or the watchdog) resumes the stream
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
  std::vector<const OpDesc*> descs(n_);
  for (uint32_t r = 0; r < n_; ++r) descs[r] = &g.ranks[r]->desc();
  int code = 0;
  std::string why;
  try {
    validate_descs(descs.data(), n_);
    run_all_ranks(RankRequests{descs.data(), n_});
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
  for (uint32_t r = 0; r < n_; ++r)
    if (g.ranks[r]) g.ranks[r]->finish(HCCL_E_TIMEOUT, why);
  for (uint32_t r = 0; r < n_; ++r)
    if (g.streams[r]) g.streams[r]->resume();
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
