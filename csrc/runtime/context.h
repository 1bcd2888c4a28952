// Contexts: a device plus a default stream and the streams created in it.
// Each thread has at most one current context (thread-local); new threads
// have none. Destroying a context destroys its streams.
#pragma once

#include "runtime/export.h"

#include <acl/acl_base.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

namespace acl_sim {

class Device;
class Stream;

class ACL_SIM_RT_API Context : public std::enable_shared_from_this<Context> {
 public:
  /** Use create(); @p is_default marks the device's shared context made by aclrtSetDevice. */
  Context(Device& device, bool is_default);
  /** A context with its own default stream, registered in Runtime::contexts() (default ones too,
   *  so aclrtGetCurrentContext / aclrtSetCurrentContext work with a device's default context). */
  static std::shared_ptr<Context> create(Device& device, bool is_default);

  /** The aclrtContext handle (stays unique after destroy()). */
  aclrtContext handle() const { return handle_; }

  Device& device() const { return device_; }
  bool is_default() const { return is_default_; }
  /** The stream used for `stream == 0`. */
  Stream& default_stream() const { return *default_stream_; }
  const std::shared_ptr<Stream>& default_stream_ptr() const { return default_stream_; }

  /** aclrtCreateStream: register @p s (created on this context's device) as a stream of this context
   *  and return its handle. Throws ACL_ERROR_RT_CONTEXT_NULL (107002) once the context is destroyed. Thread-safe. */
  aclrtStream adopt_stream(const std::shared_ptr<Stream>& s);

  /** Unregister the context and every stream created in it (their handles then give 107000), close
   *  them to new work, and wait for the work already queued. Later use of this context fails with
   *  107002. Returns false if it was already destroyed (by another thread). Thread-safe. */
  bool destroy();
  bool destroyed() const { return destroyed_.load(std::memory_order_acquire); }

 private:
  Device& device_;
  bool is_default_;
  aclrtContext handle_ = nullptr;
  std::shared_ptr<Stream> default_stream_;
  std::atomic<bool> destroyed_{false};
  std::mutex mu_;
  std::vector<std::weak_ptr<Stream>> streams_;  // created by aclrtCreateStream in this context
};

/** The calling thread's current context, or nullptr (none set, or destroyed since). */
ACL_SIM_RT_API Context* current_context();
ACL_SIM_RT_API std::shared_ptr<Context> current_context_ptr();
/** The current context; throws ACL_ERROR_RT_CONTEXT_NULL (107002) when there is none. */
ACL_SIM_RT_API Context& require_context();
/** Make @p ctx (may be null) current on the calling thread. */
ACL_SIM_RT_API void set_current_context(std::shared_ptr<Context> ctx);

}  // namespace acl_sim
