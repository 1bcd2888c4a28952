// HCCL AllReduce latency/throughput without Python: n thread ranks
// (HcclCommInitAll), each issues `iters` fp32 SUM AllReduces of `bytes` on its
// own stream, then synchronises. Prints the per-collective wall time of the
// slowest rank, and the process CPU time per collective (all threads), which a
// loaded host inflates far less than the wall time. Build and run (after
// building build/<you>):
//   g++ -O2 -std=c++17 bench/bench_hccl_latency.cpp -Icsrc/include -Lbuild/<you> -lascendcl \
//       -Wl,-rpath,$PWD/build/<you> -lpthread -o /tmp/bench_hccl_latency
//   /tmp/bench_hccl_latency 8 1024 5000
#include <time.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "hccl/hccl.h"

namespace {

double process_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 8;
  const size_t bytes = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 1024;
  const int iters = argc > 3 ? std::atoi(argv[3]) : 2000;
  if (aclInit(nullptr) != 0) return 1;
  std::vector<int32_t> devs(n);
  for (int i = 0; i < n; ++i) devs[i] = i;
  std::vector<HcclComm> comms(n);
  if (HcclCommInitAll(n, devs.data(), comms.data()) != HCCL_SUCCESS) return 1;
  std::vector<double> wall(n);
  std::atomic<int> ready{0}, done{0};
  double cpu0 = 0, cpu1 = 0;
  std::vector<std::thread> threads;
  for (int r = 0; r < n; ++r) {
    threads.emplace_back([&, r] {
      aclrtSetDevice(r);
      aclrtStream s;
      aclrtCreateStream(&s);
      void *a, *b;
      aclrtMalloc(&a, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
      aclrtMalloc(&b, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
      aclrtMemset(a, bytes, 0, bytes);
      aclrtMemset(b, bytes, 0, bytes);
      HcclAllReduce(a, b, bytes / 4, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comms[r], s);  // warm-up
      aclrtSynchronizeStream(s);
      if (++ready == n) cpu0 = process_cpu_seconds();
      while (ready.load() < n) std::this_thread::yield();
      auto t0 = std::chrono::steady_clock::now();
      for (int i = 0; i < iters; ++i)
        HcclAllReduce(a, b, bytes / 4, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comms[r], s);
      int rc = aclrtSynchronizeStream(s);
      wall[r] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / iters;
      if (++done == n) cpu1 = process_cpu_seconds();
      if (rc) std::printf("rank %d: aclrtSynchronizeStream returned %d\n", r, rc);
      aclrtFree(a);
      aclrtFree(b);
      aclrtDestroyStream(s);
    });
  }
  for (auto& t : threads) t.join();
  const double slowest = *std::max_element(wall.begin(), wall.end());
  std::printf("n=%d bytes=%zu: %.1f us per allreduce (wall, slowest rank), %.1f us CPU per allreduce (all threads)\n",
              n, bytes, slowest * 1e6, (cpu1 - cpu0) / iters * 1e6);
  for (auto c : comms) HcclCommDestroy(c);
  aclFinalize();
  return 0;
}
