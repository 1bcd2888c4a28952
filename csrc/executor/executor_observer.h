// What the executor announces to the layers above it: how ThreadPool::parallelize forks are
// shared among the workers, and each kernel launch's blocks. The profiler (csrc/prof) installs
// an observer while it records; the executor knows nothing of profiling. One observer at a
// time; with none installed each announcement costs one atomic load.
//
// Times are common/clock.h's monotonic_ns(). Worker 0 is the thread that called parallelize or
// launched the kernel; pool workers are 1..concurrency-1 (ThreadPool::current_worker()).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>


namespace acl_sim {

struct LaunchSpec;

class ExecutorObserver {
 public:
  /** On the thread calling parallelize(), for a fork the pool shares among @p workers threads: a
   *  tag passed back to fork_share, or nullptr to hear nothing more of this fork. The tag must
   *  stay valid until parallelize() returns (it waits for every share to be reported). */
  virtual const void* fork_begin(size_t workers) = 0;
  /** Thread @p worker ran its share of the tagged fork (at least one index) from @p start_ns to
   *  @p end_ns: pool workers (>= 1) on their own thread, the caller (0) on the caller's thread. A
   *  worker that found every index taken reports nothing. All shares are reported before fork_end. */
  virtual void fork_share(const void* tag, size_t worker, uint64_t start_ns, uint64_t end_ns) = 0;
  /** On the calling thread when parallelize() returns: the fork of @p indices indices was opened
   *  to the workers at @p begin_ns and its last index finished by @p end_ns; fork_share(worker >=
   *  1).start_ns - begin_ns is that worker's wake-up latency, end_ns - the caller's share end its wait;
   *  @p caller_slept: that wait outlasted its spin and slept (a futex wake-up on the critical path). */
  virtual void fork_end(const void* tag, size_t indices, uint64_t begin_ns, uint64_t end_ns, bool caller_slept) = 0;

  /** On the launching thread, before @p spec's blocks run over @p workers threads: a tag for the
   *  launch's reports, or nullptr to hear nothing more of it. Valid until launch_end returns. */
  virtual const void* launch_begin(const LaunchSpec& spec, size_t workers) = 0;
  /** Block @p block of the tagged launch ran on @p worker, however it ended. */
  virtual void launch_block(const void* tag, const LaunchSpec& spec, uint32_t block, size_t worker,
                            uint64_t start_ns, uint64_t end_ns) = 0;
  /** On the launching thread, once every block ran without a fault (a failed launch ends at its
   *  last launch_block). */
  virtual void launch_end(const void* tag, const LaunchSpec& spec, uint64_t start_ns, uint64_t end_ns) = 0;

 protected:
  ~ExecutorObserver() = default;
};

namespace detail {
extern std::atomic<ExecutorObserver*> g_executor_observer;
}

/** Install @p observer (nullptr: none). Observers must be process-lifetime objects: a fork or
 *  launch that began under one still reports to it after it was uninstalled. Thread-safe. */
void set_executor_observer(ExecutorObserver* observer);

/** The installed observer, or nullptr. */
inline ExecutorObserver* executor_observer() { return detail::g_executor_observer.load(std::memory_order_acquire); }

}  // namespace acl_sim
