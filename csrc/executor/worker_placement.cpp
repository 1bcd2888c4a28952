#include "executor/worker_placement.h"

#if defined(__linux__)
#include <pthread.h>
#include <sched.h>

#include <cstring>
#endif

namespace acl_sim {

int current_cpu() {
#if defined(__linux__)
  return sched_getcpu();
#else
  return -1;
#endif
}

#if defined(__linux__)
static_assert(sizeof(cpu_set_t) <= 128, "WorkerPlacement::allowed_ (128 bytes) holds a cpu_set_t");

void WorkerPlacement::capture() {
  cpu_set_t set;
  CPU_ZERO(&set);
  spreadable_ = sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) >= 2;
  refused_.store(false, std::memory_order_relaxed);
  std::memcpy(allowed_, &set, sizeof(set));
}

void WorkerPlacement::bar(std::thread::native_handle_type worker, int cpu, std::atomic<int>& barred) const {
  if (!spreadable_ || cpu < 0 || cpu >= CPU_SETSIZE || barred.load(std::memory_order_relaxed) == cpu ||
      refused_.load(std::memory_order_relaxed))
    return;
  cpu_set_t set;
  std::memcpy(&set, allowed_, sizeof(set));
  if (!CPU_ISSET(cpu, &set)) return;
  CPU_CLR(cpu, &set);
  // A sandbox may forbid affinity changes (EPERM): then the workers stay where the kernel puts them.
  if (pthread_setaffinity_np(worker, sizeof(set), &set) == 0) barred.store(cpu, std::memory_order_relaxed);
  else refused_.store(true, std::memory_order_relaxed);
}
#else
void WorkerPlacement::capture() {}
void WorkerPlacement::bar(std::thread::native_handle_type, int, std::atomic<int>&) const {}
#endif

}  // namespace acl_sim
