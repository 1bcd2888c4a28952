// Whether a pool worker's CPU is shared with a busy process (internal to the thread pool).
//
// A worker that spins between forks on a CPU another busy process also wants spends its share of that CPU
// waiting, so the scheduler preempts it for a whole time slice, often mid-index, and every fork waits for it. A
// worker that parks at once after its jobs has slept most of the time: its wake-up preempts the busy process and
// it runs its indices through. The sign of a shared CPU is a long wait to run: a gap between two of the spin
// loop's clock reads, or the average wait per run the kernel counts for the thread. A process that only wakes
// briefly (another library's thread pool between its ops) costs waits of tens of microseconds; a busy one, whole
// time slices (medians 34 us and 1.07 ms per run, squeezenet on a 2-vCPU Zen 4 VM, idle and with a busy loop on
// one vCPU). Stop 38, that busy loop, against the library before (alternated): light_resnet50 0.704x the time,
// squeezenet 0.719x, inception_v2 0.715x, PP-OCR cls 1.163x (many small ops, a futex wake each); idle host
// 0.993-1.007x (docs/perf_history.md, "Stop 38").
#pragma once

#include <cstdint>

#include "common/export.h"

namespace acl_sim {

/** The calling thread's waits to run, from the kernel's count (Linux: /proc/thread-self/schedstat). */
class ACL_SIM_EXPORT RunWait {
 public:
  RunWait();
  ~RunWait();
  RunWait(const RunWait&) = delete;
  RunWait& operator=(const RunWait&) = delete;
  /** Nanoseconds waited per run since the last call (0 when there was no new run, or where it cannot tell). */
  uint64_t wait_per_run();

 private:
  int fd_ = -1;
  uint64_t waited_ = 0, runs_ = 0;
};

// Both exported from libascendcl.so, as ThreadPool is, for the C++ tests.

/**
 * One worker's sign. Two waits of 0.5 ms or more within 20 ms, or one within 200 ms of the last park's end, mean
 * the CPU is shared: the worker then parks at once after its jobs for the next 50 ms.
 */
class ACL_SIM_EXPORT SharedCpuSign {
 public:
  /** A gap of `length` between two clock reads of the spin loop, the later at `now`. */
  void gap(uint64_t length, uint64_t now);
  /** After a job: asks the kernel for the thread's waits, at most once a millisecond (a system call). */
  void after_job(uint64_t now);
  bool shared(uint64_t now) const { return now < park_until_; }

 private:
  RunWait run_wait_;
  uint64_t last_long_ = 0, park_until_ = 0, checked_ = 0;
};

}  // namespace acl_sim
