// Shared state of the ranks of one in-process communicator (thread ranks:
// HcclCommInitAll, or HcclCommInitRootInfo within one process).
//
// Collectives: no rank waits on a thread. When a rank's stream reaches a
// collective it arrives here (LocalArrival, a stream Waitable) and its stream
// is parked; the last rank to arrive runs the whole collective over every
// rank's device memory (algorithms/collective.h with every rank local and no
// transport; on the executor pool for large messages) and resumes the parked
// streams. A collective that is not complete after HCCL_EXEC_TIMEOUT is failed
// by the watchdog (collective_watchdog.h), which also breaks the group. One
// that waits for a rank that left (rank_left: aclFinalize refused its calls)
// fails at once with HCCL_E_REMOTE.
//
// HcclSend/HcclRecv stay a blocking rendezvous of the two stream tasks.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "hccl/collective_watchdog.h"
#include "hccl/op_desc.h"
#include "hccl/sync.h"

namespace acl_sim {
class Stream;
}

namespace acl_sim::hccl {

class LocalArrival;

class LocalGroup : public std::enable_shared_from_this<LocalGroup> {
 public:
  explicit LocalGroup(uint32_t n);
  uint32_t size() const { return n_; }
  GroupPoison& poison() { return poison_; }

  /** Rank @p a's stream @p s reached collective number @p seq (every rank numbers its collectives
   *  alike). Returns true when the collective is over (this was the last rank: it ran the collective
   *  and resumed the others; or the group is broken); false when @p s is parked until it is. A failure
   *  is delivered through LocalArrival::finish on every rank. @p timeout_s bounds the wait. */
  bool arrive(uint64_t seq, const std::shared_ptr<LocalArrival>& a, const std::shared_ptr<Stream>& s,
              double timeout_s);
  /** Watchdog: fail collective @p seq with HCCL_E_TIMEOUT unless it completed. */
  void expire(uint64_t seq);
  /** Rank @p r arrives at no collective numbered @p issued or later (it issued @p issued collectives and
   *  will issue no more): fail those collectives with HCCL_E_REMOTE (@p why) on every rank, the open ones
   *  now and later ones as their ranks arrive. Earlier ones still complete when the rank's stream
   *  reaches them. */
  void rank_left(uint32_t r, uint64_t issued, const std::string& why);

  /** Point-to-point rendezvous (HcclSend/HcclRecv): blocks until the peer's matching call copied the data.
   *  Throws HCCL_E_PARA on a count/type mismatch, HCCL_E_TIMEOUT at @p deadline. */
  void send(uint32_t src, uint32_t dst, const void* buf, uint64_t count, HcclDataType dt, const Deadline& deadline);
  void recv(uint32_t src, uint32_t dst, void* buf, uint64_t count, HcclDataType dt, const Deadline& deadline);

 private:
  struct Gathering {  // one collective while its ranks arrive
    std::vector<std::shared_ptr<LocalArrival>> ranks;
    std::vector<std::shared_ptr<Stream>> streams;
    uint32_t arrived = 0;
    double timeout_s = 0;
    WatchToken watch;
  };
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
  /** Run the gathered collective and wake its ranks (caller: the last arriver, lock not held). */
  void complete(Gathering& g, uint32_t caller);
  /** Fail @p g on every rank that arrived and resume their streams except @p caller's (lock not held). */
  static void fail_gathering(Gathering& g, uint32_t caller, int code, const std::string& why);
  /** Why collective @p seq (@p d: any rank's request) must fail (a rank left before it), or "" (lock held). */
  std::string abandoned_by(uint64_t seq, const OpDesc& d) const;

  const uint32_t n_;
  GroupPoison poison_;
  std::mutex mu_;
  std::map<uint64_t, Gathering> open_;
  std::vector<uint64_t> left_at_;  // per rank: the first collective it never arrives at (UINT64_MAX: none)
  std::vector<std::string> left_why_;
  std::vector<std::unique_ptr<Channel>> channels_;
};

}  // namespace acl_sim::hccl
