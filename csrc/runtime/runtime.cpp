#include "runtime/runtime.h"

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "acl/acl_rt.h"
#include "common/log.h"
#include "runtime/call_gate.h"
#include "runtime/context.h"
#include "runtime/event.h"
#include "runtime/stream.h"
#include "runtime/stream_scheduler.h"

namespace acl_sim {
namespace {

/** "8", "64G", "512M", "1048576" → bytes; 0 when unparsable. */
size_t parse_size(const char* text) {
  char* end = nullptr;
  double v = std::strtod(text, &end);
  if (end == text || v <= 0) return 0;
  double mult = 1;
  switch (*end) {
    case 'k': case 'K': mult = 1024.0; break;
    case 'm': case 'M': mult = 1024.0 * 1024; break;
    case 'g': case 'G': mult = 1024.0 * 1024 * 1024; break;
    case 't': case 'T': mult = 1024.0 * 1024 * 1024 * 1024; break;
    default: break;
  }
  return static_cast<size_t>(v * mult);
}

uint32_t device_count_from_env() {
  const char* v = std::getenv("ACL_SIM_DEVICE_COUNT");
  if (!v || !*v) return 8;
  long n = std::strtol(v, nullptr, 10);
  if (n < 1 || n > static_cast<long>(Runtime::kMaxDevices)) {
    ACL_SIM_LOG_WARN("RUNTIME", "ACL_SIM_DEVICE_COUNT=", v, " is outside [1, ", Runtime::kMaxDevices, "]; using 8");
    return 8;
  }
  return static_cast<uint32_t>(n);
}

}  // namespace

Runtime::Runtime() = default;

Runtime& Runtime::get() {
  // Never destroyed: thread-local contexts and detached drainers may outlive static destruction.
  static Runtime* rt = new Runtime();
  return *rt;
}

void Runtime::require_initialized() const {
  if (!initialized() || CallGate::instance().refusing())
    fail(ACL_ERROR_UNINITIALIZE, "AscendCL is not initialized: call aclInit first (or it was already finalized)");
}

void Runtime::init(const char* config_path, const Configure& configure) {
  std::lock_guard<std::mutex> lock(mu_);
  if (initialized()) fail(ACL_ERROR_REPEAT_INITIALIZE, "aclInit was already called in this process");
  std::string config;
  if (config_path && *config_path) {
    std::ifstream in(config_path, std::ios::binary);
    if (!in) fail(ACL_ERROR_INVALID_FILE, "cannot open config file '", config_path, "'");
    std::ostringstream ss;
    ss << in.rdbuf();
    config = ss.str();
  }
  log::reload_level();
  if (configure) configure(config);  // dump / profiler keys (capi: apply_init_config); throws on a bad file
  config_json_ = std::move(config);
  device_count_ = device_count_from_env();
  initialized_.store(true, std::memory_order_release);
  ACL_SIM_LOG_INFO("RUNTIME", "aclInit: ", device_count_, " devices of ", current_soc().name);
}

Device& Runtime::device(int32_t id) {
  if (id < 0 || static_cast<uint32_t>(id) >= device_count_)
    fail(ACL_ERROR_RT_INVALID_DEVICEID, "device id ", id, " is out of range: ", device_count_,
         " devices are available (ACL_SIM_DEVICE_COUNT)");
  if (Device* d = devices_[id].load(std::memory_order_acquire)) return *d;
  std::lock_guard<std::mutex> lock(mu_);
  if (Device* d = devices_[id].load(std::memory_order_acquire)) return *d;
  const SocProfile& soc = current_soc();
  size_t mem = soc.memory_size;
  if (const char* v = std::getenv("ACL_SIM_DEVICE_MEMORY"); v && *v) {
    if (size_t m = parse_size(v)) mem = m;
    else ACL_SIM_LOG_WARN("RUNTIME", "ACL_SIM_DEVICE_MEMORY=", v, " is not a size; using ", mem);
  }
  auto dev = std::make_unique<Device>(id, soc, mem);
  Device* raw = dev.get();
  owned_devices_.push_back(std::move(dev));
  devices_[id].store(raw, std::memory_order_release);
  return *raw;
}

Device* Runtime::opened_device(int32_t id) const {
  if (id < 0 || static_cast<uint32_t>(id) >= kMaxDevices) return nullptr;
  return devices_[id].load(std::memory_order_acquire);
}

Device* Runtime::find_device_of(const void* p) const {
  if (!p) return nullptr;
  for (uint32_t i = 0; i < device_count_; ++i) {
    Device* d = devices_[i].load(std::memory_order_acquire);
    if (d && d->pool().contains(p)) return d;
  }
  return nullptr;
}

void* Runtime::malloc_host(size_t size) {
  ACL_SIM_REQUIRE(size > 0, ACL_ERROR_INVALID_PARAM, "size must be > 0");
  void* p = nullptr;
  if (posix_memalign(&p, 64, size) != 0 || !p)
    fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "host allocation of ", size, " bytes failed");
  std::lock_guard<std::mutex> lock(host_mu_);
  host_allocs_[p] = size;
  return p;
}

void Runtime::free_host(void* p) {
  {
    std::lock_guard<std::mutex> lock(host_mu_);
    auto it = host_allocs_.find(p);
    if (it == host_allocs_.end())
      fail(ACL_ERROR_RT_PARAM_INVALID, "pointer ", p, " was not returned by aclrtMallocHost (or is already freed)");
    host_allocs_.erase(it);
  }
  std::free(p);
}

bool Runtime::holds_host_range(const void* p, size_t n) {
  std::lock_guard<std::mutex> lock(host_mu_);
  auto it = host_allocs_.upper_bound(p);
  if (it == host_allocs_.begin()) return false;
  --it;
  auto begin = reinterpret_cast<uintptr_t>(it->first), addr = reinterpret_cast<uintptr_t>(p);
  return addr - begin <= it->second && n <= it->second - (addr - begin);
}

void Runtime::on_finalize(const std::string& name, std::function<void()> fn, FinalizeStage stage) {
  std::lock_guard<std::mutex> lock(hooks_mu_);
  for (auto& h : finalize_hooks_)
    if (h.name == name) {
      h.fn = std::move(fn);
      h.stage = stage;
      return;
    }
  finalize_hooks_.push_back(FinalizeHook{name, std::move(fn), stage});
}

void Runtime::run_finalize_hooks(FinalizeStage stage) {
  std::vector<FinalizeHook> hooks;
  {
    std::lock_guard<std::mutex> g(hooks_mu_);
    hooks = finalize_hooks_;
  }
  for (auto& h : hooks) {
    if (h.stage != stage) continue;
    try {
      h.fn();
    } catch (const std::exception& e) {
      ACL_SIM_LOG_WARN("RUNTIME", "aclFinalize: releasing ", h.name, " failed: ", e.what());
    }
  }
}

void Runtime::finalize() {
  std::lock_guard<std::mutex> lock(mu_);
  if (!initialized()) fail(ACL_ERROR_REPEAT_FINALIZE, "AscendCL is not initialized, or aclFinalize was already called");
  // 0. Calls on other threads that start from now on get 100001; wait for those already running
  //    (a synchronous copy must not outlive the device memory it reads).
  CallGate& gate = CallGate::instance();
  gate.close();
  struct Reopen {
    CallGate& g;
    ~Reopen() { g.open(); }
  } reopen{gate};
  // 1. Let queued work finish (errors nobody synchronised for are only logged).
  for (auto& d : owned_devices_) {
    try {
      d->synchronize();
    } catch (const Error& e) {
      ACL_SIM_LOG_WARN("RUNTIME", "aclFinalize: device ", d->id(), " had an unsynchronised stream error: ", e.what());
    }
  }
  // 2. The layers above write out what they recorded, then release their state while devices
  //    still exist.
  run_finalize_hooks(FinalizeStage::flush);
  run_finalize_hooks(FinalizeStage::release);
  // 3. Leak report.
  std::ostringstream leaks;
  size_t n_leaks = 0;
  auto streams = streams_.clear();
  auto events = events_.clear();
  auto contexts = contexts_.clear();
  if (!streams.empty()) leaks << " " << streams.size() << " stream(s)", n_leaks += streams.size();
  if (!events.empty()) leaks << " " << events.size() << " event(s)", n_leaks += events.size();
  size_t n_contexts = 0;
  for (auto& c : contexts) n_contexts += c->is_default() ? 0 : 1;  // default ones go with the devices
  if (n_contexts) leaks << " " << n_contexts << " context(s)", n_leaks += n_contexts;
  for (auto& d : owned_devices_) {
    auto live = d->pool().live_allocations();
    if (live.empty()) continue;
    n_leaks += live.size();
    leaks << " device " << d->id() << ": " << live.size() << " allocation(s) [";
    for (size_t i = 0; i < live.size() && i < 8; ++i) leaks << (i ? ", " : "") << live[i].first << " (" << live[i].second << " B)";
    if (live.size() > 8) leaks << ", ...";
    leaks << "]";
  }
  {
    std::lock_guard<std::mutex> g(host_mu_);
    if (!host_allocs_.empty()) leaks << " " << host_allocs_.size() << " host allocation(s)", n_leaks += host_allocs_.size();
    // Host allocations stay valid: the program may still read them after aclFinalize.
    host_allocs_.clear();
  }
  if (n_leaks) ACL_SIM_LOG_WARN("RUNTIME", "aclFinalize: resources were not released:", leaks.str());
  // 4. Retire contexts (threads still bound to one now see "no context") and join every worker.
  for (auto& c : contexts) c->destroy();
  for (auto& d : owned_devices_) d->close_default_context();
  StreamScheduler::instance().shutdown();
  run_finalize_hooks(FinalizeStage::shutdown);  // the executor joins its pool workers
  streams.clear();
  events.clear();
  contexts.clear();
  // 5. Free the devices; a later aclInit starts from scratch.
  close_devices();
  initialized_.store(false, std::memory_order_release);
}

void Runtime::close_devices() {
  for (auto& slot : devices_) slot.store(nullptr, std::memory_order_release);
  owned_devices_.clear();
}

}  // namespace acl_sim
