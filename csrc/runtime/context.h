// Contexts: a device plus a default stream. Each thread has at most one
// current context (thread-local); new threads have none.
#pragma once

#include "runtime/export.h"

#include <atomic>
#include <memory>

namespace acl_sim {

class Device;
class Stream;

class ACL_SIM_RT_API Context : public std::enable_shared_from_this<Context> {
 public:
  /** Use create(); @p is_default marks the device's shared context made by aclrtSetDevice. */
  Context(Device& device, bool is_default);
  /** A context with its own default stream. */
  static std::shared_ptr<Context> create(Device& device, bool is_default);

  Device& device() const { return device_; }
  bool is_default() const { return is_default_; }
  /** The stream used for `stream == 0`. */
  Stream& default_stream() const { return *default_stream_; }
  const std::shared_ptr<Stream>& default_stream_ptr() const { return default_stream_; }

  /** Wait for and retire the default stream; later use of this context fails with 107002. */
  void destroy();
  bool destroyed() const { return destroyed_.load(std::memory_order_acquire); }

 private:
  Device& device_;
  bool is_default_;
  std::shared_ptr<Stream> default_stream_;
  std::atomic<bool> destroyed_{false};
};

/** The calling thread's current context, or nullptr (none set, or destroyed since). */
ACL_SIM_RT_API Context* current_context();
ACL_SIM_RT_API std::shared_ptr<Context> current_context_ptr();
/** The current context; throws ACL_ERROR_RT_CONTEXT_NULL (107002) when there is none. */
ACL_SIM_RT_API Context& require_context();
/** Make @p ctx (may be null) current on the calling thread. */
ACL_SIM_RT_API void set_current_context(std::shared_ptr<Context> ctx);

}  // namespace acl_sim
