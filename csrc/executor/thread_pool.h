// The host thread pool that runs every AI-core block, shared by all devices
// and streams (there is no thread per simulated core or per stream).
//
// Contract, after pthreadpool: parallelize(n, fn, ctx) is a parallel version of
//
//     for (size_t i = 0; i < n; ++i) fn(ctx, i);
//
// - every index runs exactly once, on the caller or a worker;
// - the caller takes part and returns only when all indices are done;
// - concurrent callers (one per stream) are not serialised: their jobs share
//   the workers, and idle workers take indices from any open job (the shared
//   per-job cursors are the steal: whoever is idle takes the next index);
// - the caller claims indices upwards from 0, workers downwards from n - 1
//   (on two threads: one contiguous range each, so ops that number tiles along
//   the output keep each core on the part its cache holds);
// - ACL_SIM_HOST_THREADS=1 means no workers: indices run in order on the
//   caller, which makes runs deterministic for debugging;
// - the first exception thrown by fn is rethrown in the caller after the
//   remaining indices have been skipped;
// - once no index is left to claim, the caller waits for those still running
//   elsewhere by spinning 250 us (ACL_SIM_POOL_TAIL_SPIN_US overrides it, for
//   measurements), then yields 64 times, then sleeps until the last finishes;
// - an idle worker spins 1.3 ms for the next fork before it sleeps
//   (ACL_SIM_POOL_WORKER_SPIN_US overrides it, for measurements), unless a busy process shares its
//   CPU (its spin loses whole time slices): then it sleeps at once after its jobs, for the next 50 ms.
//
// The class is exported from libascendcl.so (which is otherwise built with
// hidden visibility) so C++ tests and benchmarks can drive the pool directly.
#pragma once

#include "common/export.h"

#include <cstddef>
#include <type_traits>
#include <utility>

namespace acl_sim {

class ACL_SIM_EXPORT ThreadPool {
 public:
  using Fn = void (*)(void* ctx, size_t index);

  /** The process-wide pool: ACL_SIM_HOST_THREADS threads in all (default: host cores), caller included. */
  static ThreadPool& instance();

  /** Threads that run indices, the caller included (>= 1). */
  size_t concurrency() const;

  void parallelize(size_t n, Fn fn, void* ctx);

  template <class F>
  void parallel_for(size_t n, F&& f) {
    auto thunk = [](void* c, size_t i) { (*static_cast<std::remove_reference_t<F>*>(c))(i); };
    parallelize(n, thunk, const_cast<void*>(static_cast<const void*>(&f)));
  }

  /** Index of the calling pool worker in [1, concurrency), or 0 for any other thread. */
  static size_t current_worker();

  /** Join the workers (aclFinalize); a later parallelize restarts them. */
  void shutdown();

  struct Impl;

 private:
  ThreadPool();
  Impl* impl_;
};

}  // namespace acl_sim
