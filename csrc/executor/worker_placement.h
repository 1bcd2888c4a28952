// Keeps pool workers off the CPU of the thread that forks their job (internal to the thread pool).
//
// On small VMs Linux often wakes a parked worker on its waker's CPU: the worker's own CPU is halted,
// and a halted vCPU counts as busy (vcpu_is_preempted), so it is not an idle target. Caller and worker
// then share one CPU while the other idles, until the load balancer splits them 10-20 ms later: on a
// 2-vCPU Zen 4 VM, forks right after a 150 ms pause ran at one thread's speed for the first 10-30 forks
// (every index on one thread, the other CPU idle), and a 256x64x3136 MatMul took 1.0 ms instead of 0.52.
// So a worker is barred from its caller's CPU: by the caller before it wakes parked workers (they are
// then woken elsewhere), and by a spinning worker that finds itself there (the kernel moves it at once).
// The bar is always "the CPUs the pool started with, minus the caller's one", so a worker is never kept
// from a CPU its caller has left, and a process with one allowed CPU is left alone.
#pragma once

#include <atomic>
#include <thread>

#include "common/export.h"

namespace acl_sim {

/** The CPU this thread runs on now, or -1 where the platform cannot tell. */
int current_cpu();

// Exported, as ThreadPool is, for the C++ tests.
class ACL_SIM_EXPORT WorkerPlacement {
 public:
  /** Records the calling thread's allowed CPUs (the pool's workers inherit them). */
  void capture();
  /**
   * Bars `worker` from `cpu` unless `barred` says it already is; `barred` is that worker's record of its
   * current bar (-1: none), shared by the worker and the callers that wake it.
   */
  void bar(std::thread::native_handle_type worker, int cpu, std::atomic<int>& barred) const;

 private:
  alignas(8) unsigned char allowed_[128] = {};  // a cpu_set_t (1024 CPUs), kept opaque for this header
  bool spreadable_ = false;                      // two or more allowed CPUs
  mutable std::atomic<bool> refused_{false};     // the kernel refused an affinity change: stop asking
};

}  // namespace acl_sim
