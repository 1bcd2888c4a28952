// HcclComm: one rank of a communicator. For ranks in other processes a
// collective is a stream task that blocks its drainer (inside a
// BlockingRegion) while it runs over the PeerTransport; for in-process ranks
// it parks the stream until the last rank ran it (local_group.h). Both run the
// same algorithms (algorithms/collective.h). Failures become the
// communicator's async error (HcclGetCommAsyncError) and the stream's error.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <acl/acl_base.h>

#include "common/error.h"
#include "common/handle_table.h"
#include "hccl/hccl_types.h"
#include "hccl/local_group.h"
#include "hccl/op_desc.h"
#include "hccl/transport.h"

namespace acl_sim {
class Stream;
}

namespace acl_sim::hccl {

class Communicator : public std::enable_shared_from_this<Communicator> {
 public:
  Communicator(uint32_t rank, uint32_t size, int32_t device_id);
  virtual ~Communicator() = default;

  uint32_t rank() const { return rank_; }
  uint32_t size() const { return size_; }
  int32_t device_id() const { return device_id_; }

  /** Queue @p desc on @p stream (0 = the current context's default stream); the stream must belong to
   *  this rank's device. Throws Error(HcclResult). Returns at once; the collective runs in stream order. */
  void enqueue(aclrtStream stream, OpDesc desc);
  /** Run one collective on the calling thread (what the stream task does). Throws Error(HcclResult);
   *  a failure is also recorded as the async error. */
  void execute(const OpDesc& desc);

  /** HCCL_SUCCESS, or the HcclResult of the first failed collective. */
  HcclResult async_error() const { return static_cast<HcclResult>(async_error_.load()); }
  std::string async_message() const;
  /** Throws the async error if it broke the communicator (timeouts do; a validated mismatch does not). */
  void throw_if_broken() const;
  /** Record that collective @p kind failed with HcclResult @p code (async error, log); returns the error
   *  its stream reports (aclrtSynchronizeStream's code, the HcclResult named in the message). */
  Error collective_failed(OpKind kind, int code, const std::string& why);
  /** HCCL_EXEC_TIMEOUT as read when the communicator was created. */
  double exec_timeout_s() const { return exec_timeout_s_; }

  /** An HCCL call issuing work on this rank is running (capi: from resolving the comm to returning). */
  void begin_issue();
  void end_issue();
  /** The rank issues nothing more (@p why: aclFinalize refused one of its calls, or the communicator was
   *  destroyed). Once no call of the rank is still issuing, its peers stop waiting for collectives it never
   *  issued (on_left). The first reason is kept. Thread-safe. */
  void leave(const std::string& why);
  /** Collectives queued on this rank's streams so far. */
  uint64_t issued() const { return issued_.load(); }
  /** True once a collective was captured into a task graph: replays make issued() a lower bound. */
  bool replayable() const { return replayable_.load(); }

 protected:
  /** Queue the validated @p desc on @p s. Default: a stream task that runs execute(). */
  virtual void enqueue_on(const std::shared_ptr<Stream>& s, OpDesc desc);
  virtual void run(const OpDesc& desc, const Deadline& deadline) = 0;
  /** The rank left (see leave); @p why names the refused call. Default: peers find out by timing out. */
  virtual void on_left(const std::string& why) {}
  /** enqueue_on queued a collective (@p captured: recorded into a task graph instead). */
  void count_issued(bool captured) {
    if (captured) {
      replayable_.store(true);
    } else {
      issued_.fetch_add(1, std::memory_order_relaxed);
    }
  }

 private:
  void record_failure(int code, const std::string& message);
  void notify_left_if_idle();

  uint32_t rank_, size_;
  int32_t device_id_;
  double exec_timeout_s_;
  std::atomic<int> async_error_{HCCL_SUCCESS};
  std::atomic<bool> broken_{false};
  mutable std::mutex mu_;
  std::string async_message_;
  // Atomics, not a mutex: every collective call passes here. seq_cst pairs end_issue with leave:
  // one of them sees both the rank gone and no call issuing.
  std::atomic<int> issuing_{0};
  std::atomic<bool> left_{false}, left_notified_{false};
  std::string left_why_;  // under mu_
  std::atomic<uint64_t> issued_{0};
  std::atomic<bool> replayable_{false};
};

/** A rank of an in-process communicator: collectives park the stream on a LocalArrival. */
class LocalCommunicator final : public Communicator {
 public:
  LocalCommunicator(std::shared_ptr<LocalGroup> group, uint32_t rank, int32_t device_id);
  LocalGroup& group() { return *group_; }
  /** Number of this rank's next collective (the ranks of a group number theirs alike). */
  uint64_t next_seq() { return seq_.fetch_add(1, std::memory_order_relaxed); }

 protected:
  void enqueue_on(const std::shared_ptr<Stream>& s, OpDesc desc) override;
  void run(const OpDesc& desc, const Deadline& deadline) override;  // send / recv
  void on_left(const std::string& why) override;

 private:
  std::shared_ptr<LocalGroup> group_;
  std::atomic<uint64_t> seq_{0};
};

/** A rank of a communicator whose peers are other processes (PeerTransport, e.g. MPI). */
class TransportCommunicator final : public Communicator {
 public:
  TransportCommunicator(std::unique_ptr<PeerTransport> transport, int32_t device_id);

 protected:
  void run(const OpDesc& desc, const Deadline& deadline) override;
  void on_left(const std::string& why) override;  // leave notices to the other processes

 private:
  std::unique_ptr<PeerTransport> transport_;
  std::mutex mu_;  // one collective at a time per communicator, in issue order
  uint64_t seq_ = 0;
  std::vector<uint64_t> send_seq_, recv_seq_;
};

/** Live communicators (HcclComm handles). Cleared at aclFinalize. */
HandleTable<Communicator>& comm_table();
/** The live communicator for @p handle; throws Error(HCCL_E_PTR) for NULL, HCCL_E_PARA for unknown. */
std::shared_ptr<Communicator> find_comm(const void* handle);
/** Register @p c and return its handle (registers the aclFinalize hook on first use). */
void* add_comm(std::shared_ptr<Communicator> c);

}  // namespace acl_sim::hccl
