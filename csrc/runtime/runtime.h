// The process-wide runtime: init/finalize, devices, and the live-handle
// tables for streams, events and contexts.
#pragma once

#include "runtime/export.h"

#include <acl/acl_base.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/handle_table.h"
#include "runtime/device.h"

namespace acl_sim {

class Context;
class Stream;
class Event;

class ACL_SIM_RT_API Runtime {
 public:
  static constexpr uint32_t kMaxDevices = 256;

  static Runtime& get();

  /** What aclInit hands the layers above with the config file's text ("" when none): they apply
   *  their sections (dump, profiler). An Error thrown here fails the init. */
  using Configure = std::function<void(const std::string& config_json)>;

  /** aclInit: reads @p config_path, runs @p configure, then counts as initialised.
   *  Throws ACL_ERROR_REPEAT_INITIALIZE (100002) when already initialised. */
  void init(const char* config_path, const Configure& configure = {});
  /** aclFinalize: waits for queued work, runs the on_finalize hooks stage by stage, logs leaks,
   *  frees every device. Throws ACL_ERROR_REPEAT_FINALIZE (100037) when not initialised. */
  void finalize();
  bool initialized() const { return initialized_.load(std::memory_order_acquire); }
  /** Throws ACL_ERROR_UNINITIALIZE (100001) before aclInit / after aclFinalize. */
  void require_initialized() const;

  /** Device @p id, opened on first use; throws ACL_ERROR_RT_INVALID_DEVICEID (107001). Thread-safe. */
  Device& device(int32_t id);
  /** Device @p id if already opened, else nullptr. */
  Device* opened_device(int32_t id) const;
  /** ACL_SIM_DEVICE_COUNT (default 8). */
  uint32_t device_count() const { return device_count_; }
  /** The device whose memory range holds @p p, or nullptr (host memory). Lock-free. */
  Device* find_device_of(const void* p) const;

  HandleTable<Stream>& streams() { return streams_; }
  HandleTable<Event>& events() { return events_; }
  HandleTable<Context>& contexts() { return contexts_; }

  /** aclrtMallocHost / aclrtFreeHost: 64-byte aligned pinned-host stand-in, tracked for validation. */
  void* malloc_host(size_t size);
  void free_host(void* p);
  /** True if [p, p+n) lies inside one live aclrtMallocHost allocation. Thread-safe. */
  bool holds_host_range(const void* p, size_t n);

  /** When an on_finalize hook runs within aclFinalize. */
  enum class FinalizeStage {
    flush,     // every stream is idle, nothing released yet: write profiles, stats, dumps
    release,   // after flush, devices still open: models, communicators, kernel binaries go
    shutdown,  // every context and stream is closed, devices not yet freed: join worker threads
  };
  /** Run @p fn at every aclFinalize in @p stage (hooks of one stage run in registration order).
   *  This is how the layers above the runtime take part in finalising without the runtime
   *  knowing them. Registering a name again replaces its hook. Thread-safe. */
  void on_finalize(const std::string& name, std::function<void()> fn, FinalizeStage stage = FinalizeStage::release);

  /** The parsed aclInit config file contents ("" when none). */
  const std::string& config_json() const { return config_json_; }

 private:
  Runtime();
  void close_devices();

  std::atomic<bool> initialized_{false};
  mutable std::mutex mu_;
  uint32_t device_count_ = 8;
  std::array<std::atomic<Device*>, kMaxDevices> devices_{};
  std::vector<std::unique_ptr<Device>> owned_devices_;
  HandleTable<Stream> streams_;
  HandleTable<Event> events_;
  HandleTable<Context> contexts_;
  std::mutex host_mu_;
  std::map<const void*, size_t> host_allocs_;  // ordered: holds_host_range looks up by address
  std::mutex hooks_mu_;
  struct FinalizeHook {
    std::string name;
    std::function<void()> fn;
    FinalizeStage stage;
  };
  void run_finalize_hooks(FinalizeStage stage);
  std::vector<FinalizeHook> finalize_hooks_;
  std::string config_json_;
};

}  // namespace acl_sim
