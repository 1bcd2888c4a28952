// HCCL AllReduce latency/throughput without Python: n thread ranks
// (HcclCommInitAll), each issues `iters` fp32 SUM AllReduces of `bytes` on its
// own stream, then synchronises; prints the per-collective time of the
// slowest rank. Build and run (after building build/<you>):
//   g++ -O2 -std=c++17 bench/bench_hccl_latency.cpp -Icsrc/include -Lbuild/<you> -lascendcl \
//       -Wl,-rpath,$PWD/build/<you> -lpthread -o /tmp/bench_hccl_latency
//   /tmp/bench_hccl_latency 8 1024 5000
#include <chrono>
#include <cstdlib>
#include <algorithm>
#include <cstdio>
#include <thread>
#include <vector>
#include <atomic>
#include "acl/acl.h"
#include "hccl/hccl.h"
int main(int argc, char** argv) {
  int n = argc > 1 ? atoi(argv[1]) : 8; size_t bytes = argc > 2 ? atol(argv[2]) : 1024; int iters = argc > 3 ? atoi(argv[3]) : 2000;
  aclInit(nullptr);
  std::vector<int32_t> devs(n); for (int i=0;i<n;++i) devs[i]=i;
  std::vector<HcclComm> comms(n); HcclCommInitAll(n, devs.data(), comms.data());
  std::vector<double> t(n); std::atomic<int> ready{0};
  std::vector<std::thread> th;
  for (int r=0;r<n;++r) th.emplace_back([&,r]{
    aclrtSetDevice(r); aclrtStream s; aclrtCreateStream(&s); void* a; void* b;
    aclrtMalloc(&a, bytes, ACL_MEM_MALLOC_HUGE_FIRST); aclrtMalloc(&b, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemset(a, bytes, 0, bytes); aclrtMemset(b, bytes, 0, bytes);
    HcclAllReduce(a,b,bytes/4,HCCL_DATA_TYPE_FP32,HCCL_REDUCE_SUM,comms[r],s); aclrtSynchronizeStream(s);
    ready++; while (ready.load() < n) {}
    auto t0 = std::chrono::steady_clock::now();
    for (int i=0;i<iters;++i) HcclAllReduce(a,b,bytes/4,HCCL_DATA_TYPE_FP32,HCCL_REDUCE_SUM,comms[r],s);
    int rc = aclrtSynchronizeStream(s);
    t[r] = std::chrono::duration<double>(std::chrono::steady_clock::now()-t0).count()/iters;
    if (rc) printf("rc %d\n", rc);
  });
  for (auto& x: th) x.join();
  double mx=0; for (double x: t) mx = std::max(mx,x);
  printf("n=%d bytes=%zu: %.1f us per allreduce\n", n, bytes, mx*1e6);
}
