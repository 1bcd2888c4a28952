// Shared state of the ranks of one in-process communicator (one thread per
// rank, HcclCommInitAll or HcclCommInitRootInfo within a process). The ranks
// read each other's device memory directly: a collective publishes each
// rank's OpDesc, meets at the group barrier, and then every rank moves its
// share of the data in parallel.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "hccl/op_desc.h"
#include "hccl/sync.h"

namespace acl_sim::hccl {

class LocalGroup {
 public:
  /** Bytes of one rank's staging slot (small-message paths copy through it). */
  static constexpr size_t kStagingBytes = size_t(512) << 10;

  explicit LocalGroup(uint32_t n);
  uint32_t size() const { return n_; }
  GroupBarrier& barrier() { return barrier_; }

  /** Rank @p rank's request for collective number @p seq. Two generations are kept: a rank may publish
   *  collective seq+1 while slow peers still read seq; seq+2 cannot start before all finished seq. */
  OpDesc& slot(uint64_t seq, uint32_t rank) { return descs_[(seq & 1) * n_ + rank]; }
  /** Rank @p rank's staging slot for collective @p seq (same two-generation rule). */
  char* staging(uint64_t seq, uint32_t rank) { return staging_.get() + ((seq & 1) * n_ + rank) * kStagingBytes; }

  /** Point-to-point rendezvous (HcclSend/HcclRecv): blocks until the peer's matching call copied the data.
   *  Throws HCCL_E_PARA on a count/type mismatch, HCCL_E_TIMEOUT at @p deadline. */
  void send(uint32_t src, uint32_t dst, const void* buf, uint64_t count, HcclDataType dt, const Deadline& deadline);
  void recv(uint32_t src, uint32_t dst, void* buf, uint64_t count, HcclDataType dt, const Deadline& deadline);

 private:
  struct Channel {  // one direction of one rank pair
    std::mutex mu;
    std::condition_variable cv;
    uint64_t posted = 0, taken = 0, sent_seq = 0, recv_seq = 0;
    const void* buf = nullptr;
    uint64_t count = 0;
    HcclDataType dtype = HCCL_DATA_TYPE_INT8;
    std::string error;  // set by the receiver on a mismatch, for the sender to rethrow
  };
  Channel& channel(uint32_t src, uint32_t dst) { return *channels_[size_t(src) * n_ + dst]; }

  const uint32_t n_;
  GroupBarrier barrier_;
  std::vector<OpDesc> descs_;
  std::unique_ptr<char[]> staging_;
  std::vector<std::unique_ptr<Channel>> channels_;
};

/** One rank's view of one collective, handed to the algorithms. */
struct LocalOp {
  LocalGroup& group;
  uint32_t rank;
  uint32_t n;
  uint64_t seq;
  Deadline deadline;

  const OpDesc& mine() const { return group.slot(seq, rank); }
  const OpDesc& peer(uint32_t r) const { return group.slot(seq, r); }
  char* staging(uint32_t r) const { return group.staging(seq, r); }
  /** Wait for every rank (bounded by the exec timeout). */
  void sync(const char* what) const { group.barrier().arrive_and_wait(deadline, what); }
};

/**
 * An in-process algorithm in two phases around the arrival barrier:
 * stage_in (optional) runs before it, touching only the rank's own staging
 * slot; run follows once every rank's OpDesc is published and validated, and
 * must leave no peer reading this rank's buffers when it returns.
 */
struct LocalAlgorithm {
  const char* name;
  void (*stage_in)(const LocalOp&);
  void (*run)(const LocalOp&);
};

/** Pick the algorithm for @p d (the same choice on every rank that passed the same request). */
const LocalAlgorithm& choose_local_algorithm(const OpDesc& d, uint32_t n);

/** Run one collective as rank @p rank: publish, stage, meet, validate, run. Throws Error(HcclResult). */
void run_local_collective(LocalGroup& group, uint32_t rank, uint64_t seq, const OpDesc& desc, const Deadline& deadline);

}  // namespace acl_sim::hccl
