#include "common/fault_injection.h"

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <mutex>
#include <thread>

namespace acl_sim::fault {
namespace {

// Countdowns: 0 means off. The "armed" flag keeps the hot paths to one load.
std::atomic<int64_t> g_alloc_countdown{0};
std::atomic<int64_t> g_stall_ms{0};
std::atomic<int64_t> g_absent_rank{-1};
std::atomic<bool> g_armed{false};
std::once_flag g_env_once;

int64_t env_int(const char* name, int64_t fallback) {
  const char* v = std::getenv(name);
  if (!v || !*v) return fallback;
  char* end = nullptr;
  long long x = std::strtoll(v, &end, 10);
  return (end && *end == '\0') ? static_cast<int64_t>(x) : fallback;
}

void rearm() {
  g_armed.store(g_alloc_countdown.load() > 0 || g_stall_ms.load() > 0 || g_absent_rank.load() >= 0);
}

void read_env() {
  std::call_once(g_env_once, [] {
    g_alloc_countdown.store(env_int("ACL_SIM_FAULT_ALLOC_FAIL_AT", 0));
    g_stall_ms.store(env_int("ACL_SIM_FAULT_STALL_TASK_MS", 0));
    g_absent_rank.store(env_int("ACL_SIM_FAULT_HCCL_ABSENT_RANK", -1));
    rearm();
  });
}

struct EnvReader {
  EnvReader() { read_env(); }
} g_env_reader;  // the environment is read at load, so hooks never race the first read

}  // namespace

bool set_fault(const std::string& name, int64_t value) {
  read_env();
  if (name == "alloc_fail_at") {
    g_alloc_countdown.store(value > 0 ? value : 0);
  } else if (name == "stall_task_ms") {
    g_stall_ms.store(value > 0 ? value : 0);
  } else if (name == "hccl_absent_rank") {
    g_absent_rank.store(value >= 0 ? value : -1);
  } else {
    return false;
  }
  rearm();
  return true;
}

void clear_faults() {
  read_env();
  g_alloc_countdown.store(0);
  g_stall_ms.store(0);
  g_absent_rank.store(-1);
  rearm();
}

bool alloc_should_fail() {
  if (!g_armed.load(std::memory_order_relaxed)) return false;
  int64_t n = g_alloc_countdown.load();
  while (n > 0) {
    if (g_alloc_countdown.compare_exchange_weak(n, n - 1)) {
      if (n == 1) {
        rearm();
        return true;
      }
      return false;
    }
  }
  return false;
}

void maybe_stall_task() {
  if (!g_armed.load(std::memory_order_relaxed)) return;
  int64_t ms = g_stall_ms.exchange(0);
  if (ms <= 0) return;
  rearm();
  std::this_thread::sleep_for(std::chrono::milliseconds(ms));
}

bool hccl_rank_absent(uint32_t rank) {
  if (!g_armed.load(std::memory_order_relaxed)) return false;
  return g_absent_rank.load() == static_cast<int64_t>(rank);
}

}  // namespace acl_sim::fault
