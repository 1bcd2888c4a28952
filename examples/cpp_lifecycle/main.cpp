// The AscendCL runtime lifecycle as a CANN program writes it: init, device,
// context, stream, memory, H2D / D2D / D2H copies, events with elapsed time, a
// host callback served by a report thread, teardown, finalize.
// Exit status 0 when every step succeeded and the data round-tripped.
#include <pthread.h>

#include <atomic>
#include <cstdio>
#include <cstring>
#include <vector>

#include "acl/acl.h"

#define CHECK(call)                                                                      \
  do {                                                                                   \
    aclError ret_ = (call);                                                              \
    if (ret_ != ACL_SUCCESS) {                                                           \
      std::fprintf(stderr, "%s failed: %d (%s)\n", #call, ret_, aclGetRecentErrMsg()); \
      return 1;                                                                          \
    }                                                                                    \
  } while (0)

namespace {
std::atomic<bool> g_run{true};
std::atomic<int> g_callbacks{0};
pthread_t g_report_thread_id;

void* report_loop(void* ctx) {
  aclrtSetCurrentContext(static_cast<aclrtContext>(ctx));
  while (g_run.load()) aclrtProcessReport(50);  // timeouts are expected while idle
  return nullptr;
}

void on_done(void* user_data) {
  // Runs on the report thread, in stream order after the D2H copy.
  auto* host = static_cast<const float*>(user_data);
  if (pthread_equal(pthread_self(), g_report_thread_id) && host[10] == 10.0f) g_callbacks.fetch_add(1);
}
}  // namespace

int main() {
  CHECK(aclInit(nullptr));
  int32_t major = 0, minor = 0, patch = 0;
  CHECK(aclrtGetVersion(&major, &minor, &patch));
  std::printf("AscendCL %d.%d.%d on %s\n", major, minor, patch, aclrtGetSocName());

  uint32_t count = 0;
  CHECK(aclrtGetDeviceCount(&count));
  CHECK(aclrtSetDevice(0));
  aclrtContext ctx = nullptr;
  CHECK(aclrtCreateContext(&ctx, 0));
  aclrtStream stream = nullptr;
  CHECK(aclrtCreateStream(&stream));

  const size_t n = 1 << 16, bytes = n * sizeof(float);
  std::vector<float> host_in(n), host_out(n, -1.0f);
  for (size_t i = 0; i < n; ++i) host_in[i] = static_cast<float>(i);
  void *dev_a = nullptr, *dev_b = nullptr, *pinned = nullptr;
  CHECK(aclrtMalloc(&dev_a, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&dev_b, bytes, ACL_MEM_MALLOC_NORMAL_ONLY));
  CHECK(aclrtMallocHost(&pinned, bytes));

  aclrtEvent start = nullptr, end = nullptr;
  CHECK(aclrtCreateEvent(&start));
  CHECK(aclrtCreateEvent(&end));

  pthread_create(&g_report_thread_id, nullptr, report_loop, ctx);
  CHECK(aclrtSubscribeReport(static_cast<uint64_t>(g_report_thread_id), stream));

  CHECK(aclrtMemcpy(dev_a, bytes, host_in.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  CHECK(aclrtRecordEvent(start, stream));
  CHECK(aclrtMemcpyAsync(dev_b, bytes, dev_a, bytes, ACL_MEMCPY_DEVICE_TO_DEVICE, stream));
  CHECK(aclrtMemcpyAsync(pinned, bytes, dev_b, bytes, ACL_MEMCPY_DEVICE_TO_HOST, stream));
  CHECK(aclrtRecordEvent(end, stream));
  CHECK(aclrtLaunchCallback(on_done, pinned, ACL_CALLBACK_BLOCK, stream));
  CHECK(aclrtSynchronizeStream(stream));
  CHECK(aclrtMemcpy(host_out.data(), bytes, dev_b, bytes, ACL_MEMCPY_DEVICE_TO_HOST));

  float ms = -1.0f;
  CHECK(aclrtEventElapsedTime(&ms, start, end));
  aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_NOT_READY;
  CHECK(aclrtQueryEventStatus(end, &status));

  CHECK(aclrtUnSubscribeReport(static_cast<uint64_t>(g_report_thread_id), stream));
  g_run = false;
  pthread_join(g_report_thread_id, nullptr);

  bool ok = std::memcmp(host_in.data(), host_out.data(), bytes) == 0 &&
            std::memcmp(host_in.data(), pinned, bytes) == 0 && ms >= 0.0f &&
            status == ACL_EVENT_RECORDED_STATUS_COMPLETE && g_callbacks.load() == 1 && count >= 1;

  CHECK(aclrtDestroyEvent(start));
  CHECK(aclrtDestroyEvent(end));
  CHECK(aclrtFreeHost(pinned));
  CHECK(aclrtFree(dev_a));
  CHECK(aclrtFree(dev_b));
  CHECK(aclrtDestroyStream(stream));
  CHECK(aclrtDestroyContext(ctx));
  CHECK(aclrtResetDevice(0));
  CHECK(aclFinalize());
  std::printf("devices=%u elapsed=%.3f ms callbacks=%d data=%s\n", count, ms, g_callbacks.load(), ok ? "ok" : "MISMATCH");
  return ok ? 0 : 1;
}
