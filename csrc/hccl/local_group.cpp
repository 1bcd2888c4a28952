#include "hccl/local_group.h"

#include <cstring>

#include "common/error.h"
#include "hccl/reduce_ops.h"

namespace acl_sim::hccl {

LocalGroup::LocalGroup(uint32_t n)
    : n_(n), barrier_(n), descs_(2 * size_t(n)), staging_(new char[2 * size_t(n) * kStagingBytes]) {
  channels_.reserve(size_t(n) * n);
  for (size_t i = 0; i < size_t(n) * n; ++i) channels_.push_back(std::make_unique<Channel>());
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
    barrier_.throw_if_broken();
    if (deadline.passed()) {
      std::string why = str("HcclSend: rank ", src, " timed out after ", deadline.seconds(), " s waiting for rank ",
                            dst, " to call the matching HcclRecv (HCCL_EXEC_TIMEOUT)");
      lock.unlock();
      barrier_.poison(HCCL_E_TIMEOUT, why);
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
    barrier_.throw_if_broken();
    if (deadline.passed()) {
      std::string why = str("HcclRecv: rank ", dst, " timed out after ", deadline.seconds(), " s waiting for rank ",
                            src, " to call the matching HcclSend (HCCL_EXEC_TIMEOUT)");
      lock.unlock();
      barrier_.poison(HCCL_E_TIMEOUT, why);
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

void run_local_collective(LocalGroup& group, uint32_t rank, uint64_t seq, const OpDesc& desc,
                          const Deadline& deadline) {
  group.barrier().throw_if_broken();
  group.slot(seq, rank) = desc;
  LocalOp op{group, rank, group.size(), seq, deadline};
  const LocalAlgorithm& algo = choose_local_algorithm(desc, group.size());
  if (algo.stage_in) algo.stage_in(op);
  op.sync(kind_name(desc.kind));
  std::vector<const OpDesc*> all(op.n);
  for (uint32_t r = 0; r < op.n; ++r) all[r] = &op.peer(r);
  validate_descs(all.data(), op.n);
  algo.run(op);
}

}  // namespace acl_sim::hccl
