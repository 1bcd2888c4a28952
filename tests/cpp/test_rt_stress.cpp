// Runtime stress through the C API: 8 threads, each with its own streams,
// mixing malloc/free, async copies, cross-stream events and blocking and
// non-blocking callbacks (served by one report thread) for ~2 seconds.
// Every copy is checked; a deadlock shows up as the ctest timeout.
#include <pthread.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

#include "acl/acl.h"

static std::atomic<int> g_failures{0};
static std::atomic<long> g_callbacks{0};
static std::atomic<bool> g_report_run{true};

#define CHECK(call)                                                                          \
  do {                                                                                       \
    aclError r_ = (call);                                                                    \
    if (r_ != ACL_SUCCESS) {                                                                 \
      std::fprintf(stderr, "%s:%d %s -> %d (%s)\n", __FILE__, __LINE__, #call, r_, aclGetRecentErrMsg()); \
      g_failures++;                                                                          \
      return;                                                                                \
    }                                                                                        \
  } while (0)

static void count_callback(void*) { g_callbacks++; }

static void worker(int idx, aclrtContext ctx, uint64_t report_tid, long* iterations) {
  CHECK(aclrtSetCurrentContext(ctx));
  aclrtStream s1 = nullptr, s2 = nullptr;
  aclrtEvent ev = nullptr;
  CHECK(aclrtCreateStream(&s1));
  CHECK(aclrtCreateStreamWithConfig(&s2, idx % 8, 0));
  CHECK(aclrtCreateEvent(&ev));
  CHECK(aclrtSubscribeReport(report_tid, s2));
  std::mt19937 rng(idx);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  std::vector<unsigned char> src, out;
  while (std::chrono::steady_clock::now() < deadline) {
    size_t n = size_t(1) << (4 + rng() % 17);
    src.resize(n);
    out.assign(n, 0);
    for (auto& c : src) c = static_cast<unsigned char>(rng());
    void *a = nullptr, *b = nullptr;
    CHECK(aclrtMalloc(&a, n, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&b, n, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMemcpyAsync(a, n, src.data(), n, ACL_MEMCPY_HOST_TO_DEVICE, s1));
    CHECK(aclrtRecordEvent(ev, s1));
    CHECK(aclrtStreamWaitEvent(s2, ev));
    CHECK(aclrtMemcpyAsync(b, n, a, n, ACL_MEMCPY_DEVICE_TO_DEVICE, s2));
    CHECK(aclrtMemcpyAsync(out.data(), n, b, n, ACL_MEMCPY_DEVICE_TO_HOST, s2));
    CHECK(aclrtLaunchCallback(count_callback, nullptr, rng() % 2 ? ACL_CALLBACK_BLOCK : ACL_CALLBACK_NO_BLOCK, s2));
    CHECK(aclrtSynchronizeStream(s2));
    if (std::memcmp(src.data(), out.data(), n) != 0) {
      std::fprintf(stderr, "thread %d: data mismatch at %zu bytes\n", idx, n);
      g_failures++;
    }
    CHECK(aclrtFree(a));
    CHECK(aclrtFree(b));
    ++*iterations;
  }
  CHECK(aclrtUnSubscribeReport(report_tid, s2));
  CHECK(aclrtDestroyEvent(ev));
  CHECK(aclrtDestroyStream(s1));
  CHECK(aclrtDestroyStream(s2));
}

int main() {
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) return 1;
  aclrtContext ctx = nullptr;
  if (aclrtGetCurrentContext(&ctx) != ACL_SUCCESS) return 1;
  std::thread report([ctx] {
    aclrtSetCurrentContext(ctx);
    while (g_report_run) aclrtProcessReport(20);
  });
  uint64_t report_tid = static_cast<uint64_t>(report.native_handle());
  long iterations[8] = {0};
  std::vector<std::thread> ts;
  for (int i = 0; i < 8; ++i) ts.emplace_back(worker, i, ctx, report_tid, &iterations[i]);
  for (auto& t : ts) t.join();
  long total = 0;
  for (long n : iterations) total += n;
  // Non-blocking callbacks may still be queued behind the last synchronize.
  for (int i = 0; i < 500 && g_callbacks.load() < total; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  g_report_run = false;
  report.join();
  if (g_callbacks.load() != total) {
    std::fprintf(stderr, "callbacks %ld != iterations %ld\n", g_callbacks.load(), total);
    g_failures++;
  }
  for (long n : iterations)
    if (n == 0) g_failures++;
  if (aclrtResetDevice(0) != ACL_SUCCESS || aclFinalize() != ACL_SUCCESS) g_failures++;
  std::printf("test_rt_stress: %ld iterations, %d failure(s)\n", total, g_failures.load());
  return g_failures ? 1 : 0;
}
