// Executor properties, named after pthreadpool's tests: the host pool alone,
// then kernel launches (kernels defined here, linked in, launched with
// ACLRT_LAUNCH_KERNEL). Exit code: number of failed checks (0 = pass).
#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "check.h"
#include "executor/thread_pool.h"
#include "executor/worker_placement.h"
#include "kernel_operator.h"

using namespace AscendC;

// ---------------------------------------------------------------- kernels

/** counts[GetBlockIdx()] += 1 atomically; nums[GetBlockIdx()] = GetBlockNum(). */
extern "C" __global__ __aicore__ void count_blocks(GM_ADDR counts, GM_ADDR nums) {
  __atomic_fetch_add(reinterpret_cast<uint32_t*>(counts) + GetBlockIdx(), 1u, __ATOMIC_RELAXED);
  reinterpret_cast<uint32_t*>(nums)[GetBlockIdx()] = static_cast<uint32_t>(GetBlockNum());
}

/** Every block adds `reps` to one shared counter, one atomic at a time. */
extern "C" __global__ __aicore__ void contend(GM_ADDR counter, uint32_t reps) {
  for (uint32_t i = 0; i < reps; ++i) __atomic_fetch_add(reinterpret_cast<uint64_t*>(counter), 1u, __ATOMIC_RELAXED);
}

/** buf[GetBlockIdx()] += 1, NOT atomic: correct only if launches of one stream never overlap. */
extern "C" __global__ __aicore__ void bump(GM_ADDR buf) {
  volatile uint32_t* p = reinterpret_cast<uint32_t*>(buf) + GetBlockIdx();
  uint32_t v = *p;
  std::this_thread::yield();
  *p = v + 1;
}

/** Asks for 2 x 128 KiB of UB: more than the 192 KiB of Ascend910B1. */
extern "C" __global__ __aicore__ void ub_hog(GM_ADDR) {
  TPipe pipe;
  TQue<QuePosition::VECIN, 2> q;
  pipe.InitBuffer(q, 2, 128 * 1024);
}

/** DataCopy of 7 floats (28 bytes): violates the 32-byte rule. */
extern "C" __global__ __aicore__ void misaligned_copy(GM_ADDR x) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 256);
  GlobalTensor<float> g;
  g.SetGlobalBuffer(reinterpret_cast<float*>(x), 64);
  LocalTensor<float> l = buf.Get<float>();
  DataCopy(l, g, 7);
}

/** order[ticket++] = GetBlockIdx(); tids[GetBlockIdx()] = a hash of the running thread. */
extern "C" __global__ __aicore__ void record_order(GM_ADDR ticket, GM_ADDR order, GM_ADDR tids) {
  uint32_t t = __atomic_fetch_add(reinterpret_cast<uint32_t*>(ticket), 1u, __ATOMIC_RELAXED);
  reinterpret_cast<uint32_t*>(order)[t] = static_cast<uint32_t>(GetBlockIdx());
  reinterpret_cast<uint64_t*>(tids)[GetBlockIdx()] = static_cast<uint64_t>(pthread_self());
}

// ---------------------------------------------------------------- helpers

template <class T>
static std::vector<T> download(void* dev, size_t n) {
  std::vector<T> host(n);
  CHECK_OK(aclrtMemcpy(host.data(), n * sizeof(T), dev, n * sizeof(T), ACL_MEMCPY_DEVICE_TO_HOST));
  return host;
}

static void* zeros(size_t bytes) {
  void* p = nullptr;
  CHECK_OK(aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_OK(aclrtMemset(p, bytes, 0, bytes));
  return p;
}

// ---------------------------------------------------------------- pool tests

static void PoolEachIndexOnce() {
  for (size_t n : {size_t{1}, size_t{7}, size_t{48}, size_t{1000}, size_t{65535}}) {
    std::vector<std::atomic<int>> hits(n);
    acl_sim::ThreadPool::instance().parallel_for(n, [&](size_t i) { hits[i].fetch_add(1); });
    for (size_t i = 0; i < n; ++i) CHECK(hits[i].load() == 1);
  }
}

static void PoolHighContention() {
  // Many callers at once share the workers; every index of every job runs once.
  constexpr int kCallers = 8, kJobs = 40;
  constexpr size_t kN = 997;
  std::atomic<uint64_t> total{0};
  std::vector<std::thread> callers;
  for (int c = 0; c < kCallers; ++c) {
    callers.emplace_back([&] {
      for (int j = 0; j < kJobs; ++j) {
        std::vector<std::atomic<int>> hits(kN);
        acl_sim::ThreadPool::instance().parallel_for(kN, [&](size_t i) { hits[i].fetch_add(1); });
        for (auto& h : hits) {
          if (h.load() != 1) ++total;  // counted as failure below
        }
        total += 1000000;
      }
    });
  }
  for (auto& t : callers) t.join();
  CHECK(total.load() == uint64_t{kCallers} * kJobs * 1000000);
}

static void PoolFirstExceptionRethrown() {
  bool caught = false;
  try {
    acl_sim::ThreadPool::instance().parallel_for(100, [](size_t i) {
      if (i == 5) throw std::runtime_error("index 5");
    });
  } catch (const std::runtime_error& e) {
    caught = std::string(e.what()) == "index 5";
  }
  CHECK(caught);
  std::atomic<int> after{0};
  acl_sim::ThreadPool::instance().parallel_for(64, [&](size_t) { after.fetch_add(1); });
  CHECK(after.load() == 64);
}

// ---------------------------------------------------------------- launch tests

static void EachBlockOnce(aclrtStream stream) {
  for (uint32_t dim : {1u, 48u, 1000u, 65535u}) {
    void* counts = zeros(dim * 4);
    void* nums = zeros(dim * 4);
    CHECK_OK(static_cast<aclError>(ACLRT_LAUNCH_KERNEL(count_blocks)(dim, stream, (uint8_t*)counts, (uint8_t*)nums)));
    CHECK_OK(aclrtSynchronizeStream(stream));
    auto c = download<uint32_t>(counts, dim);
    auto n = download<uint32_t>(nums, dim);
    size_t bad = 0;
    for (uint32_t i = 0; i < dim; ++i) bad += (c[i] != 1) + (n[i] != dim);
    CHECK(bad == 0);
    aclrtFree(counts);
    aclrtFree(nums);
  }
}

static void HighContention(aclrtStream stream) {
  void* counter = zeros(8);
  CHECK_OK(static_cast<aclError>(ACLRT_LAUNCH_KERNEL(contend)(4096, stream, (uint8_t*)counter, 100u)));
  CHECK_OK(aclrtSynchronizeStream(stream));
  CHECK(download<uint64_t>(counter, 1)[0] == 409600u);
  aclrtFree(counter);
}

static void ManyStreamsLaunchingAtOnce() {
  constexpr int kThreads = 8, kLaunches = 40;
  constexpr uint32_t kDim = 64;
  aclrtContext ctx = nullptr;
  CHECK_OK(aclrtGetCurrentContext(&ctx));
  std::vector<void*> bufs(kThreads);
  for (auto& b : bufs) b = zeros(kDim * 4);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      CHECK_OK(aclrtSetCurrentContext(ctx));
      aclrtStream s = nullptr;
      CHECK_OK(aclrtCreateStream(&s));
      for (int i = 0; i < kLaunches; ++i) {
        CHECK_OK(static_cast<aclError>(ACLRT_LAUNCH_KERNEL(bump)(kDim, s, (uint8_t*)bufs[t])));
      }
      CHECK_OK(aclrtSynchronizeStream(s));
      CHECK_OK(aclrtDestroyStream(s));
    });
  }
  for (auto& th : threads) th.join();
  for (auto* b : bufs) {
    auto v = download<uint32_t>(b, kDim);
    size_t bad = 0;
    for (uint32_t x : v) bad += x != kLaunches;
    CHECK(bad == 0);
    aclrtFree(b);
  }
}

struct CallbackState {
  aclrtStream target;
  void* buf;
  std::atomic<aclError> ret{-1};
};

static void launch_in_callback(void* user) {
  auto* st = static_cast<CallbackState*>(user);
  st->ret = static_cast<aclError>(ACLRT_LAUNCH_KERNEL(bump)(32, st->target, (uint8_t*)st->buf));
}

static void LaunchFromCallback(aclrtStream stream) {
  aclrtContext ctx = nullptr;
  CHECK_OK(aclrtGetCurrentContext(&ctx));
  aclrtStream other = nullptr;
  CHECK_OK(aclrtCreateStream(&other));
  CallbackState st;
  st.target = other;
  st.buf = zeros(32 * 4);
  std::atomic<bool> stop{false};
  std::atomic<uint64_t> tid{0};
  std::thread reporter([&] {
    aclrtSetCurrentContext(ctx);
    tid = static_cast<uint64_t>(pthread_self());
    while (!stop) aclrtProcessReport(20);
  });
  while (tid == 0) std::this_thread::yield();
  CHECK_OK(aclrtSubscribeReport(tid, stream));
  CHECK_OK(aclrtLaunchCallback(&launch_in_callback, &st, ACL_CALLBACK_BLOCK, stream));
  CHECK_OK(aclrtSynchronizeStream(stream));
  CHECK(st.ret.load() == ACL_SUCCESS);
  CHECK_OK(aclrtSynchronizeStream(other));
  auto v = download<uint32_t>(st.buf, 32);
  size_t bad = 0;
  for (uint32_t x : v) bad += x != 1;
  CHECK(bad == 0);
  CHECK_OK(aclrtUnSubscribeReport(tid, stream));
  stop = true;
  reporter.join();
  aclrtFree(st.buf);
  CHECK_OK(aclrtDestroyStream(other));
}

static void UBOverflowReported(aclrtStream stream) {
  void* buf = zeros(64);
  CHECK_OK(static_cast<aclError>(ACLRT_LAUNCH_KERNEL(ub_hog)(4, stream, (uint8_t*)buf)));
  aclError r = aclrtSynchronizeStream(stream);
  CHECK(r == ACL_ERROR_RT_AICORE_EXCEPTION);
  const std::string msg = aclGetRecentErrMsg() ? aclGetRecentErrMsg() : "";
  CHECK(msg.find("ub_hog") != std::string::npos);
  CHECK(msg.find("262144") != std::string::npos);
  CHECK(msg.find("196608") != std::string::npos || msg.find("UB holds") != std::string::npos);
  if (r != ACL_ERROR_RT_AICORE_EXCEPTION) std::fprintf(stderr, "ub_hog sync -> %d: %s\n", r, msg.c_str());
  // The stream stays usable after the fault.
  void* counts = zeros(16);
  void* nums = zeros(16);
  CHECK_OK(static_cast<aclError>(ACLRT_LAUNCH_KERNEL(count_blocks)(4, stream, (uint8_t*)counts, (uint8_t*)nums)));
  CHECK_OK(aclrtSynchronizeStream(stream));
  CHECK(download<uint32_t>(counts, 4)[3] == 1);
  aclrtFree(buf);
  aclrtFree(counts);
  aclrtFree(nums);
}

static void MisalignedDataCopyReported(aclrtStream stream) {
  void* buf = zeros(256);
  CHECK_OK(static_cast<aclError>(ACLRT_LAUNCH_KERNEL(misaligned_copy)(2, stream, (uint8_t*)buf)));
  CHECK(aclrtSynchronizeStream(stream) == ACL_ERROR_RT_AICORE_EXCEPTION);
  const std::string msg = aclGetRecentErrMsg() ? aclGetRecentErrMsg() : "";
  CHECK(msg.find("misaligned_copy") != std::string::npos);
  CHECK(msg.find("28 bytes") != std::string::npos);
  aclrtFree(buf);
}

static void InvalidBlockDim(aclrtStream stream) {
  void* buf = zeros(64);
  CHECK(ACLRT_LAUNCH_KERNEL(count_blocks)(0, stream, (uint8_t*)buf, (uint8_t*)buf) == ACL_ERROR_RT_PARAM_INVALID);
  CHECK(ACLRT_LAUNCH_KERNEL(count_blocks)(65536, stream, (uint8_t*)buf, (uint8_t*)buf) == ACL_ERROR_RT_PARAM_INVALID);
  CHECK_OK(aclrtSynchronizeStream(stream));
  aclrtFree(buf);
}

/** Runs in a child with ACL_SIM_HOST_THREADS=1: blocks run in index order on one thread. */
static void SerialWithOneHostThread(aclrtStream stream) {
  constexpr uint32_t kDim = 200;
  void* ticket = zeros(4);
  void* order = zeros(kDim * 4);
  void* tids = zeros(kDim * 8);
  CHECK(acl_sim::ThreadPool::instance().concurrency() == 1);
  CHECK_OK(static_cast<aclError>(
      ACLRT_LAUNCH_KERNEL(record_order)(kDim, stream, (uint8_t*)ticket, (uint8_t*)order, (uint8_t*)tids)));
  CHECK_OK(aclrtSynchronizeStream(stream));
  auto o = download<uint32_t>(order, kDim);
  auto t = download<uint64_t>(tids, kDim);
  size_t bad = 0;
  for (uint32_t i = 0; i < kDim; ++i) bad += (o[i] != i) + (t[i] != t[0]);
  CHECK(bad == 0);
}

/**
 * WorkerPlacement bars a thread from one CPU: its mask becomes the start set minus that CPU, a repeat is a no-op,
 * and a bar from another CPU is recomputed from the start set (the first CPU is allowed again). With one allowed
 * CPU nothing changes.
 */
static void WorkerPlacementBarsOneCpu() {
  acl_sim::WorkerPlacement placement;
  placement.capture();
  cpu_set_t start;
  CPU_ZERO(&start);
  CHECK(sched_getaffinity(0, sizeof(start), &start) == 0);
  std::vector<int> cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &start)) cpus.push_back(c);
  std::atomic<bool> stop{false};
  std::thread target([&] {
    while (!stop.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  });
  std::atomic<int> barred{-1};
  auto mask = [&] {
    cpu_set_t now;
    CPU_ZERO(&now);
    CHECK(pthread_getaffinity_np(target.native_handle(), sizeof(now), &now) == 0);
    return now;
  };
  placement.bar(target.native_handle(), cpus[0], barred);
  cpu_set_t now = mask();
  if (cpus.size() >= 2) {
    CHECK(!CPU_ISSET(cpus[0], &now));
    CHECK(CPU_COUNT(&now) == static_cast<int>(cpus.size()) - 1);
    CHECK(barred.load() == cpus[0]);
    placement.bar(target.native_handle(), cpus[1], barred);
    now = mask();
    CHECK(CPU_ISSET(cpus[0], &now) && !CPU_ISSET(cpus[1], &now));
    CHECK(barred.load() == cpus[1]);
  } else {
    CHECK(CPU_EQUAL(&now, &start));
    CHECK(barred.load() == -1);
  }
  // A CPU outside the start set (or none) is ignored.
  const int before = barred.load();
  placement.bar(target.native_handle(), -1, barred);
  CHECK(barred.load() == before);
  stop = true;
  target.join();
}

int main(int argc, char** argv) {
  const bool serial_child = argc > 1 && std::strcmp(argv[1], "--serial-child") == 0;
  if (serial_child) setenv("ACL_SIM_HOST_THREADS", "1", 1);
  CHECK_OK(aclInit(nullptr));
  CHECK_OK(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  CHECK_OK(aclrtCreateStream(&stream));
  if (serial_child) {
    SerialWithOneHostThread(stream);
  } else {
    PoolEachIndexOnce();
    PoolHighContention();
    PoolFirstExceptionRethrown();
    WorkerPlacementBarsOneCpu();
    EachBlockOnce(stream);
    HighContention(stream);
    ManyStreamsLaunchingAtOnce();
    LaunchFromCallback(stream);
    UBOverflowReported(stream);
    MisalignedDataCopyReported(stream);
    InvalidBlockDim(stream);
  }
  CHECK_OK(aclrtDestroyStream(stream));
  CHECK_OK(aclrtResetDevice(0));
  CHECK_OK(aclFinalize());
  if (!serial_child) {
    // Same binary, fresh process: the pool reads ACL_SIM_HOST_THREADS once.
    const std::string cmd = std::string("'") + argv[0] + "' --serial-child";
    int rc = std::system(cmd.c_str());
    CHECK(rc == 0);
  }
  return check_exit("test_executor");
}
