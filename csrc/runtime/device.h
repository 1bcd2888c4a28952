// One simulated NPU: its SoC profile, memory pool, shared default context,
// and the streams created on it.
#pragma once

#include "runtime/export.h"

#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "runtime/mem_pool.h"
#include "runtime/soc_profile.h"

namespace acl_sim {

class Context;
class Stream;

class ACL_SIM_RT_API Device {
 public:
  Device(int32_t id, const SocProfile& profile, size_t memory_size);
  ~Device();

  int32_t id() const { return id_; }
  const SocProfile& profile() const { return profile_; }
  MemPool& pool() { return pool_; }

  /** aclrtSetDevice: take a reference, creating the default context (and stream) on the first. Thread-safe. */
  std::shared_ptr<Context> retain_default_context();
  /** aclrtResetDevice: drop a reference; the last one synchronises and destroys the default context.
   *  Returns the destroyed context (so callers can clear thread bindings), or nullptr. */
  std::shared_ptr<Context> release_default_context();
  /** aclFinalize: destroy the default context whatever its reference count. */
  void close_default_context();
  /** The default context if a thread has set this device, else nullptr. */
  std::shared_ptr<Context> default_context() const;

  /** Track a stream for synchronize() and the leak report (weakly). */
  void add_stream(const std::shared_ptr<Stream>& s);
  /** Live streams of this device (default streams included). */
  std::vector<std::shared_ptr<Stream>> streams() const;
  /** Wait for every stream of this device; rethrows the first stream error. */
  void synchronize();
  /** As synchronize() with a deadline in ms (-1 forever); false on timeout. */
  bool synchronize_for(int32_t timeout_ms);

 private:
  int32_t id_;
  const SocProfile& profile_;
  MemPool pool_;
  mutable std::mutex mu_;
  std::shared_ptr<Context> default_context_;
  int64_t default_refs_ = 0;
  std::vector<std::weak_ptr<Stream>> streams_;
};

}  // namespace acl_sim
