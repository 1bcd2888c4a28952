// Launch overhead of an empty kernel with blockDim 48 (issue 3 §5).
// Measures, on one stream:
//   latency    — launch + aclrtSynchronizeStream, one kernel at a time;
//   throughput — N launches back to back, then one synchronize (µs per launch);
// and the same two numbers for the cheapest stream task there is, a 32-byte
// aclrtMemcpyAsync, as the in-run reference (so the ratio isolates the cost
// of running 48 blocks over the pool from the cost of the stream itself), and
// the bare pool fork-join of 48 no-op indices (ThreadPool::parallelize).
// Prints one JSON object. Built and run by bench_launch.py.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "acl/acl.h"
#include "executor/thread_pool.h"  // built from the source tree: -I csrc
#include "kernel_operator.h"

static void noop_block(void*, size_t) {}

extern "C" __global__ __aicore__ void empty_kernel() {}

using Clock = std::chrono::steady_clock;

template <class F>
static double best_us_per_op(int reps, int iters, F&& body) {
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    auto t0 = Clock::now();
    body(iters);
    double us = std::chrono::duration<double, std::micro>(Clock::now() - t0).count() / iters;
    best = std::min(best, us);
  }
  return best;
}

#define OK(expr)                                                          \
  do {                                                                    \
    aclError _r = (expr);                                                 \
    if (_r != 0) {                                                        \
      std::fprintf(stderr, "%s -> %d: %s\n", #expr, _r, aclGetRecentErrMsg()); \
      std::exit(1);                                                       \
    }                                                                     \
  } while (0)

int main(int argc, char** argv) {
  const uint32_t block_dim = argc > 1 ? static_cast<uint32_t>(std::atoi(argv[1])) : 48;
  const int iters = argc > 2 ? std::atoi(argv[2]) : 2000;
  OK(aclInit(nullptr));
  OK(aclrtSetDevice(0));
  aclrtStream s = nullptr;
  OK(aclrtCreateStream(&s));
  void* dev = nullptr;
  OK(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  char host[32] = {0};

  auto launch = [&] { OK(static_cast<aclError>(ACLRT_LAUNCH_KERNEL(empty_kernel)(block_dim, s))); };
  auto copy = [&] { OK(aclrtMemcpyAsync(dev, 64, host, 32, ACL_MEMCPY_HOST_TO_DEVICE, s)); };
  for (int i = 0; i < 200; ++i) launch();  // warm the pool and the stream
  OK(aclrtSynchronizeStream(s));

  const int reps = 5;
  double kernel_latency = best_us_per_op(reps, iters / 4, [&](int n) {
    for (int i = 0; i < n; ++i) {
      launch();
      OK(aclrtSynchronizeStream(s));
    }
  });
  double kernel_throughput = best_us_per_op(reps, iters, [&](int n) {
    for (int i = 0; i < n; ++i) launch();
    OK(aclrtSynchronizeStream(s));
  });
  double copy_latency = best_us_per_op(reps, iters / 4, [&](int n) {
    for (int i = 0; i < n; ++i) {
      copy();
      OK(aclrtSynchronizeStream(s));
    }
  });
  double copy_throughput = best_us_per_op(reps, iters, [&](int n) {
    for (int i = 0; i < n; ++i) copy();
    OK(aclrtSynchronizeStream(s));
  });
  // The pool alone: fork-join of block_dim no-op indices on this thread (no stream involved).
  double pool_forkjoin = best_us_per_op(reps, iters, [&](int n) {
    for (int i = 0; i < n; ++i) acl_sim::ThreadPool::instance().parallelize(block_dim, &noop_block, nullptr);
  });
  std::printf(
      "{\"block_dim\": %u, \"kernel_latency_us\": %.3f, \"kernel_throughput_us\": %.3f, "
      "\"memcpy_latency_us\": %.3f, \"memcpy_throughput_us\": %.3f, \"pool_forkjoin_us\": %.3f}\n",
      block_dim, kernel_latency, kernel_throughput, copy_latency, copy_throughput, pool_forkjoin);
  OK(aclrtFree(dev));
  OK(aclrtDestroyStream(s));
  OK(aclrtResetDevice(0));
  OK(aclFinalize());
  return 0;
}
