// API calls in flight versus aclFinalize. Every C entry point runs inside a
// CallGate::Scope (capi/api_guard.h does it); aclFinalize closes the gate, so
// calls that start afterwards fail with ACL_ERROR_UNINITIALIZE (100001) in
// Runtime::require_initialized, and waits for the calls already running on
// other threads before it frees anything. A synchronous copy racing
// aclFinalize therefore either finishes or returns 100001, never touches
// freed device memory.
#pragma once

#include "runtime/export.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace acl_sim {

class ACL_SIM_RT_API CallGate {
 public:
  static CallGate& instance();

  /** One API call in flight on this thread; nested calls on the same thread count once. */
  class Scope {
   public:
    Scope() { CallGate::instance().enter(); }
    ~Scope() { CallGate::instance().leave(); }
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;
  };

  /** aclFinalize: refuse new calls on other threads, then wait until none is in flight there. */
  void close();
  /** End of aclFinalize: calls are admitted again (they see "not initialized" until aclInit). */
  void open();
  /** True on threads other than the one running close(), while the gate is closed. */
  bool refusing() const;

 private:
  void enter();
  void leave();
  void release();

  std::atomic<int64_t> active_{0};
  std::atomic<bool> closed_{false};
  std::mutex mu_;
  std::condition_variable idle_cv_;
};

}  // namespace acl_sim
