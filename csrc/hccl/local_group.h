// Shared state of the ranks of one in-process communicator (thread ranks:
// HcclCommInitAll, or HcclCommInitRootInfo within one process).
//
// Collectives: no rank waits on a thread. When a rank's stream reaches a
// collective it arrives here (LocalArrival, a stream Waitable) and its stream
// is parked; the last rank to arrive runs the whole collective over every
// rank's device memory (algorithms/, on the executor pool for large messages)
// and resumes the parked streams. A collective that is not complete after
// HCCL_EXEC_TIMEOUT is failed by the watchdog (collective_watchdog.h), which
// also breaks the group.
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

  const uint32_t n_;
  GroupPoison poison_;
  std::mutex mu_;
  std::map<uint64_t, Gathering> open_;
  std::vector<std::unique_ptr<Channel>> channels_;
};

}  // namespace acl_sim::hccl
