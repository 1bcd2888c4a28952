// One rank's arrival at an in-process collective: the Waitable its stream
// waits on (LocalGroup::arrive parks the stream until the last rank ran the
// collective). A failure becomes the communicator's async error and the
// stream's error. One object may serve several queue entries of one stream in
// turn (a captured task graph replayed, aclmdlRI*): each entry is a new
// arrival; replaying one graph on two streams at once is not supported.
#pragma once

#include <atomic>
#include <memory>
#include <optional>
#include <string>

#include "hccl/comm.h"
#include "runtime/stream.h"

namespace acl_sim::hccl {

class LocalArrival : public Waitable, public std::enable_shared_from_this<LocalArrival> {
 public:
  LocalArrival(std::shared_ptr<LocalCommunicator> comm, OpDesc desc);

  /** Arrive at the group (may run the collective); the call that follows a park is its resume. */
  bool ready_or_subscribe(const std::shared_ptr<Stream>& s) override;
  const Error* failure() const override { return failure_ ? &*failure_ : nullptr; }

  uint32_t rank() const { return comm_->rank(); }
  const OpDesc& desc() const { return desc_; }
  /** The collective is over (@p code 0: it succeeded). Called once per arrival, before its stream resumes. */
  void finish(int code, const std::string& why);
  /** LocalGroup::arrive, under its lock, before it parks the stream: the next call is the resume. */
  void mark_parked() { parked_.store(true, std::memory_order_release); }

 private:
  std::shared_ptr<LocalCommunicator> comm_;
  OpDesc desc_;
  std::atomic<bool> parked_{false};
  std::optional<Error> failure_;
};

}  // namespace acl_sim::hccl
