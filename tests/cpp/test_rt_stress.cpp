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
#include "check.h"

static std::atomic<long> g_callbacks{0};
static std::atomic<bool> g_report_run{true};

static void count_callback(void*) { g_callbacks++; }

static void worker(int idx, aclrtContext ctx, uint64_t report_tid, long* iterations) {
  REQUIRE_OK(aclrtSetCurrentContext(ctx));
  aclrtStream s1 = nullptr, s2 = nullptr;
  aclrtEvent ev = nullptr;
  REQUIRE_OK(aclrtCreateStream(&s1));
  REQUIRE_OK(aclrtCreateStreamWithConfig(&s2, idx % 8, 0));
  REQUIRE_OK(aclrtCreateEvent(&ev));
  REQUIRE_OK(aclrtSubscribeReport(report_tid, s2));
  std::mt19937 rng(idx);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  std::vector<unsigned char> src, out;
  while (std::chrono::steady_clock::now() < deadline) {
    size_t n = size_t(1) << (4 + rng() % 17);
    src.resize(n);
    out.assign(n, 0);
    for (auto& c : src) c = static_cast<unsigned char>(rng());
    void *a = nullptr, *b = nullptr;
    REQUIRE_OK(aclrtMalloc(&a, n, ACL_MEM_MALLOC_HUGE_FIRST));
    REQUIRE_OK(aclrtMalloc(&b, n, ACL_MEM_MALLOC_HUGE_FIRST));
    REQUIRE_OK(aclrtMemcpyAsync(a, n, src.data(), n, ACL_MEMCPY_HOST_TO_DEVICE, s1));
    REQUIRE_OK(aclrtRecordEvent(ev, s1));
    REQUIRE_OK(aclrtStreamWaitEvent(s2, ev));
    REQUIRE_OK(aclrtMemcpyAsync(b, n, a, n, ACL_MEMCPY_DEVICE_TO_DEVICE, s2));
    REQUIRE_OK(aclrtMemcpyAsync(out.data(), n, b, n, ACL_MEMCPY_DEVICE_TO_HOST, s2));
    REQUIRE_OK(aclrtLaunchCallback(count_callback, nullptr, rng() % 2 ? ACL_CALLBACK_BLOCK : ACL_CALLBACK_NO_BLOCK, s2));
    REQUIRE_OK(aclrtSynchronizeStream(s2));
    CHECK_MSG(std::memcmp(src.data(), out.data(), n) == 0,
              "thread " + std::to_string(idx) + ": data mismatch at " + std::to_string(n) + " bytes");
    REQUIRE_OK(aclrtFree(a));
    REQUIRE_OK(aclrtFree(b));
    ++*iterations;
  }
  REQUIRE_OK(aclrtUnSubscribeReport(report_tid, s2));
  REQUIRE_OK(aclrtDestroyEvent(ev));
  REQUIRE_OK(aclrtDestroyStream(s1));
  REQUIRE_OK(aclrtDestroyStream(s2));
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
  CHECK_MSG(g_callbacks.load() == total,
            "callbacks " + std::to_string(g_callbacks.load()) + " != iterations " + std::to_string(total));
  for (long n : iterations) CHECK_MSG(n > 0, "a worker completed no iteration");
  CHECK_OK(aclrtResetDevice(0));
  CHECK_OK(aclFinalize());
  std::printf("test_rt_stress: %ld iterations\n", total);
  return check_exit("test_rt_stress");
}
