// Teardown racing work: worker threads loop synchronous and asynchronous
// copies, memsets, single-op executes, event records and HCCL all-reduces
// while the main thread finalizes, resets the device, destroys the workers'
// context or destroys their stream. Every call must return success or the
// documented code for "gone" (100001 after aclFinalize, 107000 for a
// destroyed stream, 107002 without a live context; HCCL maps them to its own
// codes), and nothing may crash or race (this test runs under ASan and TSan
// in CI).
//
// ACL_SIM_LIFETIME_ROUNDS (default 200) scales the run; ACL_SIM_LIFETIME_COPY_KIB
// (default 1024) is the size of each copy (the report used 32768).
#include <acl/acl.h>
#include <hccl/hccl.h>

#include <execinfo.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

#include "check.h"

namespace {

enum class Teardown { kFinalize, kResetDevice, kDestroyContext, kDestroyStream };
const char* name_of(Teardown t) {
  switch (t) {
    case Teardown::kFinalize: return "aclFinalize";
    case Teardown::kResetDevice: return "aclrtResetDevice";
    case Teardown::kDestroyContext: return "aclrtDestroyContext";
    default: return "aclrtDestroyStream";
  }
}

size_t env_size(const char* name, size_t fallback) {
  const char* v = std::getenv(name);
  return v && *v ? static_cast<size_t>(std::strtoull(v, nullptr, 10)) : fallback;
}

constexpr int kCopyWorkers = 3;

/** What the workers share in one round. */
struct Round {
  Teardown teardown;
  aclrtContext ctx = nullptr;      // the workers' current context
  aclrtStream stream = nullptr;    // the workers' stream
  // Each worker has its own slice of every buffer (bytes each), and the async copies write a buffer
  // no synchronous call touches: the test is about lifetimes, so it must not race on contents
  // itself (a sync copy does not wait for another stream's queued work, in CANN as here).
  void* dev_a = nullptr;      // sync reads
  void* dev_b = nullptr;      // sync writes
  void* dev_async = nullptr;  // async writes (stream-ordered among themselves)
  size_t bytes = 0;
  aclTensorDesc* desc = nullptr;   // float[bytes / 4 / 1024] for the single-op execute
  aclDataBuffer* op_bufs[3] = {nullptr, nullptr, nullptr};
  HcclComm comms[2] = {nullptr, nullptr};
  aclrtStream hccl_streams[2] = {nullptr, nullptr};
  std::vector<std::vector<unsigned char>> hosts;        // per copy worker: sync D2H destination
  std::vector<std::vector<unsigned char>> async_hosts;  // per copy worker: async H2D source, read only
  unsigned char* slice(void* base, int idx) const { return static_cast<unsigned char*>(base) + idx * bytes; }
  std::atomic<bool> stop{false};
  std::atomic<bool> torn_down{false};
  std::atomic<long> calls{0}, refused{0};
  /** Workers stop a few calls after their first refusal (a program would stop at once). */
  bool keep_going(long& refusals_seen) const {
    return !stop.load() && (refusals_seen = refused.load()) < 64;
  }
};

std::atomic<int> g_bad_codes{0};

/** Success, or a documented "this is gone" code. Anything else is a failure. */
void expect_ok_or_gone(Round& r, const char* what, int code) {
  r.calls++;
  if (code == ACL_SUCCESS) return;
  bool gone = code == ACL_ERROR_UNINITIALIZE || code == ACL_ERROR_RT_PARAM_INVALID ||
              code == ACL_ERROR_RT_CONTEXT_NULL;
  // Before the teardown nothing may fail.
  if (gone && r.torn_down.load()) {
    r.refused++;
    return;
  }
  if (g_bad_codes++ < 10)
    std::fprintf(stderr, "%s during %s: code %d (%s)\n", what, name_of(r.teardown), code, aclGetRecentErrMsg());
}

void expect_hccl_ok_or_gone(Round& r, const char* what, HcclResult code) {
  r.calls++;
  if (code == HCCL_SUCCESS) return;
  if ((code == HCCL_E_PARA || code == HCCL_E_RUNTIME || code == HCCL_E_PTR) && r.torn_down.load()) {
    r.refused++;
    return;
  }
  if (g_bad_codes++ < 10) std::fprintf(stderr, "%s during %s: HcclResult %d\n", what, name_of(r.teardown), code);
}

void copy_worker(Round& r, int idx, unsigned seed) {
  expect_ok_or_gone(r, "aclrtSetCurrentContext", aclrtSetCurrentContext(r.ctx));
  // Owned by the round: an async copy the worker queued may still run after the worker returns
  // (its synchronize failed because the stream was destroyed), until the teardown drained it.
  std::vector<unsigned char>& host = r.hosts[idx];
  const std::vector<unsigned char>& async_host = r.async_hosts[idx];
  unsigned char* dev_a = r.slice(r.dev_a, idx);
  unsigned char* dev_b = r.slice(r.dev_b, idx);
  unsigned char* dev_async = r.slice(r.dev_async, idx);
  std::mt19937 rng(seed);
  aclrtEvent ev = nullptr;
  if (aclrtCreateEvent(&ev) != ACL_SUCCESS) ev = nullptr;
  const size_t half = r.bytes / 2;
  long seen = 0;
  while (r.keep_going(seen)) {
    switch (rng() % 7) {
      case 0:
        expect_ok_or_gone(r, "aclrtMemcpy D2H",
                          aclrtMemcpy(host.data(), r.bytes, dev_a, r.bytes, ACL_MEMCPY_DEVICE_TO_HOST));
        break;
      case 1:
        expect_ok_or_gone(r, "aclrtMemset", aclrtMemset(dev_b, r.bytes, idx, r.bytes));
        break;
      case 2:
        expect_ok_or_gone(r, "aclrtMemcpy D2D",
                          aclrtMemcpy(dev_b, half, dev_a, half, ACL_MEMCPY_DEVICE_TO_DEVICE));
        break;
      case 3:
        expect_ok_or_gone(r, "aclrtMemcpyAsync H2D",
                          aclrtMemcpyAsync(dev_async, half, async_host.data(), half, ACL_MEMCPY_HOST_TO_DEVICE, r.stream));
        expect_ok_or_gone(r, "aclrtSynchronizeStream", aclrtSynchronizeStream(r.stream));
        break;
      case 4:
        expect_ok_or_gone(r, "aclrtMemsetAsync", aclrtMemsetAsync(dev_async + half, half, 3, half, r.stream));
        break;
      case 5: {
        aclTensorDesc* in_desc[2] = {r.desc, r.desc};
        aclDataBuffer* in_buf[2] = {r.op_bufs[0], r.op_bufs[1]};
        aclTensorDesc* out_desc[1] = {r.desc};
        aclDataBuffer* out_buf[1] = {r.op_bufs[2]};
        expect_ok_or_gone(r, "aclopExecuteV2",
                          aclopExecuteV2("Add", 2, in_desc, in_buf, 1, out_desc, out_buf, nullptr, r.stream));
        break;
      }
      default:
        if (ev) {
          expect_ok_or_gone(r, "aclrtRecordEvent", aclrtRecordEvent(ev, r.stream));
          expect_ok_or_gone(r, "aclrtSynchronizeEvent", aclrtSynchronizeEvent(ev));
        }
        break;
    }
  }
  if (ev) aclrtDestroyEvent(ev);  // may be gone with aclFinalize: any code is fine here
}

void hccl_worker(Round& r) {
  const uint64_t count = 256;
  void* bufs[2] = {nullptr, nullptr};
  for (int rank = 0; rank < 2; ++rank) {
    if (aclrtSetDevice(rank) != ACL_SUCCESS || aclrtMalloc(&bufs[rank], count * 4, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS)
      return expect_ok_or_gone(r, "HCCL setup", ACL_ERROR_UNINITIALIZE);
  }
  long seen = 0;
  while (r.keep_going(seen)) {
    for (int rank = 0; rank < 2; ++rank)
      expect_hccl_ok_or_gone(r, "HcclAllReduce",
                             HcclAllReduce(bufs[rank], bufs[rank], count, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM,
                                           r.comms[rank], r.hccl_streams[rank]));
    for (int rank = 0; rank < 2; ++rank) {
      int code = aclrtSynchronizeStream(r.hccl_streams[rank]);
      // A collective whose peer was refused by aclFinalize fails in its stream at once (HCCL_E_REMOTE).
      if (code != ACL_SUCCESS && r.torn_down.load()) code = ACL_ERROR_UNINITIALIZE;
      expect_ok_or_gone(r, "aclrtSynchronizeStream (HCCL)", code);
    }
  }
}

void run_round(int index, Teardown teardown, size_t bytes, std::mt19937& rng) {
  Round r;
  r.teardown = teardown;
  r.bytes = bytes;
  r.hosts.assign(kCopyWorkers, std::vector<unsigned char>(bytes));
  r.async_hosts.assign(kCopyWorkers, std::vector<unsigned char>(bytes, 7));
  CHECK(aclInit(nullptr) == ACL_SUCCESS);
  CHECK(aclrtSetDevice(0) == ACL_SUCCESS);
  if (teardown == Teardown::kDestroyContext) {
    CHECK(aclrtCreateContext(&r.ctx, 0) == ACL_SUCCESS);  // now current on this thread too
  } else {
    CHECK(aclrtGetCurrentContext(&r.ctx) == ACL_SUCCESS);  // the device's default context
  }
  CHECK(aclrtCreateStream(&r.stream) == ACL_SUCCESS);
  for (void** p : {&r.dev_a, &r.dev_b, &r.dev_async})
    CHECK(aclrtMalloc(p, bytes * kCopyWorkers, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
  int64_t dims[1] = {static_cast<int64_t>(bytes / 4 / 1024)};
  r.desc = aclCreateTensorDesc(ACL_FLOAT, 1, dims, ACL_FORMAT_ND);
  void* op_mem[3];
  for (int i = 0; i < 3; ++i) {
    CHECK(aclrtMalloc(&op_mem[i], dims[0] * 4, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
    r.op_bufs[i] = aclCreateDataBuffer(op_mem[i], dims[0] * 4);
  }
  const bool with_hccl = teardown == Teardown::kFinalize;
  if (with_hccl) {
    int32_t devices[2] = {0, 1};
    CHECK(HcclCommInitAll(2, devices, r.comms) == HCCL_SUCCESS);
    for (int rank = 1; rank >= 0; --rank) {
      CHECK(aclrtSetDevice(rank) == ACL_SUCCESS);
      CHECK(aclrtCreateStream(&r.hccl_streams[rank]) == ACL_SUCCESS);
    }
  }
  if (teardown == Teardown::kDestroyContext) CHECK(aclrtSetCurrentContext(r.ctx) == ACL_SUCCESS);

  std::vector<std::thread> workers;
  for (int w = 0; w < kCopyWorkers; ++w) workers.emplace_back(copy_worker, std::ref(r), w, static_cast<unsigned>(index * 8 + w));
  if (with_hccl) workers.emplace_back(hccl_worker, std::ref(r));
  std::this_thread::sleep_for(std::chrono::microseconds(200 + rng() % 3000));
  r.torn_down = true;  // set first: a worker may see the effect before this thread's call returns
  switch (teardown) {
    case Teardown::kFinalize: CHECK(aclFinalize() == ACL_SUCCESS); break;
    case Teardown::kResetDevice: CHECK(aclrtResetDevice(0) == ACL_SUCCESS); break;
    case Teardown::kDestroyContext: CHECK(aclrtDestroyContext(r.ctx) == ACL_SUCCESS); break;
    case Teardown::kDestroyStream: CHECK(aclrtDestroyStream(r.stream) == ACL_SUCCESS); break;
  }
  std::this_thread::sleep_for(std::chrono::microseconds(rng() % 1000));  // workers keep calling
  r.stop = true;
  for (auto& t : workers) t.join();
  if (teardown != Teardown::kFinalize) {
    // Everything else is still usable after the teardown.
    CHECK(aclrtSetDevice(0) == ACL_SUCCESS);
    for (int i = 0; i < 3; ++i) {
      CHECK(aclDestroyDataBuffer(r.op_bufs[i]) == ACL_SUCCESS);
      CHECK(aclrtFree(op_mem[i]) == ACL_SUCCESS);
    }
    aclDestroyTensorDesc(r.desc);
    for (void* p : {r.dev_a, r.dev_b, r.dev_async}) CHECK(aclrtFree(p) == ACL_SUCCESS);
    if (teardown != Teardown::kDestroyStream && teardown != Teardown::kDestroyContext)
      CHECK(aclrtDestroyStream(r.stream) == ACL_ERROR_RT_PARAM_INVALID);  // reset destroyed it with the context
    CHECK(aclrtResetDevice(0) == ACL_SUCCESS);
    CHECK(aclFinalize() == ACL_SUCCESS);
  } else {
    for (int i = 0; i < 3; ++i) aclDestroyDataBuffer(r.op_bufs[i]);  // host-side handles outlive aclFinalize
    aclDestroyTensorDesc(r.desc);
  }
  CHECK(r.calls.load() > 0);
}

}  // namespace

void on_crash(int sig) {
  void* frames[64];
  int n = backtrace(frames, 64);
  backtrace_symbols_fd(frames, n, 2);
  signal(sig, SIG_DFL);
  raise(sig);
}

int main() {
  signal(SIGSEGV, on_crash);
  setenv("HCCL_EXEC_TIMEOUT", "2", 0);  // bounds any collective wait (a refused peer fails it at once)
  setenv("ASCEND_GLOBAL_LOG_LEVEL", "4", 0);  // the refused calls are expected: do not log each one
  const int rounds = static_cast<int>(env_size("ACL_SIM_LIFETIME_ROUNDS", 200));
  const size_t bytes = env_size("ACL_SIM_LIFETIME_COPY_KIB", 1024) * 1024;
  std::mt19937 rng(2026);
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < rounds && g_bad_codes.load() == 0; ++i) run_round(i, static_cast<Teardown>(i % 4), bytes, rng);
  CHECK(g_bad_codes.load() == 0);
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::fprintf(stderr, "%d rounds of %zu-byte copies in %.1f s, %d failure(s)\n", rounds, bytes, s, g_failures.load());
  return g_failures ? 1 : 0;
}
