// C++ side of bench_runtime.py: async enqueue cost and cached malloc+free.
// Prints one "name value unit" line per figure.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "acl/acl.h"

using Clock = std::chrono::steady_clock;

static double ns_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::nano>(Clock::now() - t0).count();
}

/** Median of @p reps runs of @p fn, each timing @p n operations; ns per operation. */
template <class F>
static double median_ns(int reps, long n, F&& fn) {
  std::vector<double> v;
  for (int r = 0; r < reps; ++r) {
    auto t0 = Clock::now();
    fn(n);
    v.push_back(ns_since(t0) / n);
  }
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int main() {
  if (aclInit(nullptr) || aclrtSetDevice(0)) return 1;
  aclrtStream s = nullptr;
  void* d = nullptr;
  if (aclrtCreateStream(&s) || aclrtMalloc(&d, 32, ACL_MEM_MALLOC_HUGE_FIRST)) return 1;

  // 1. enqueue cost of a 32-byte memset_async on one stream (the drainer runs concurrently)
  double enqueue = median_ns(7, 200000, [&](long n) {
    for (long i = 0; i < n; ++i) aclrtMemsetAsync(d, 32, static_cast<int>(i), 32, s);
  });
  aclrtSynchronizeStream(s);
  // enqueue + drain, amortised: the stream's throughput
  double throughput = median_ns(5, 200000, [&](long n) {
    for (long i = 0; i < n; ++i) aclrtMemsetAsync(d, 32, static_cast<int>(i), 32, s);
    aclrtSynchronizeStream(s);
  });

  // 2. cached malloc+free pair through the C API
  void* warm = nullptr;
  aclrtMalloc(&warm, 4096, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtFree(warm);
  double pair = median_ns(7, 1000000, [&](long n) {
    for (long i = 0; i < n; ++i) {
      void* p = nullptr;
      aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST);
      aclrtFree(p);
    }
  });

  // Reference measured in the same run: a glibc malloc+free pair of the same size.
  double glibc = median_ns(7, 1000000, [&](long n) {
    for (long i = 0; i < n; ++i) {
      void* p = std::malloc(4096);
      *static_cast<volatile char*>(p) = 1;
      std::free(p);
    }
  });

  std::printf("cpp_memset_async_enqueue %.1f ns\n", enqueue);
  std::printf("cpp_memset_async_enqueue_plus_drain %.1f ns\n", throughput);
  std::printf("cpp_malloc_free_pair %.1f ns\n", pair);
  std::printf("ref_glibc_malloc_free_pair %.1f ns\n", glibc);
  aclrtFree(d);
  aclrtDestroyStream(s);
  aclrtResetDevice(0);
  aclFinalize();
  return 0;
}
