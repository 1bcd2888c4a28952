// Stream scheduler: tasks that block inside a BlockingRegion (like HCCL
// collectives waiting for their peers) get extra drainers, so 8 streams that
// wait for each other all complete; parked streams hold no thread.
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <vector>

#include "acl/acl.h"
#include "runtime/context.h"
#include "runtime/event.h"
#include "runtime/runtime.h"
#include "runtime/stream.h"
#include "runtime/stream_scheduler.h"

#include "check.h"

using namespace acl_sim;

int main() {
  if (aclInit(nullptr) || aclrtSetDevice(0)) return 1;
  Device& dev = require_context().device();

  // 1. An 8-party barrier across 8 streams: every task blocks until all 8 arrived.
  constexpr int kParties = 8;
  std::mutex mu;
  std::condition_variable cv;
  int arrived = 0;
  std::vector<std::shared_ptr<Stream>> streams;
  for (int round = 0; round < 3; ++round) {
    arrived = 0;
    streams.clear();
    for (int i = 0; i < kParties; ++i) streams.push_back(Stream::create(dev, nullptr));
    for (auto& s : streams) {
      s->enqueue([&] {
        BlockingRegion blocking;
        std::unique_lock<std::mutex> lock(mu);
        ++arrived;
        cv.notify_all();
        cv.wait(lock, [&] { return arrived % kParties == 0; });
      });
    }
    bool all = true;
    for (auto& s : streams) all = s->synchronize_for(20000) && all;
    CHECK(all);
    CHECK(arrived == kParties);
  }

  // 2. A task's Error is kept; later tasks still run; synchronize reports it once.
  auto s = Stream::create(dev, nullptr);
  int ran = 0;
  s->enqueue([] { fail(ACL_ERROR_RT_AICORE_EXCEPTION, "injected"); });
  s->enqueue([&] { ++ran; });
  int code = 0;
  try {
    s->synchronize();
  } catch (const Error& e) {
    code = e.code();
  }
  CHECK(code == ACL_ERROR_RT_AICORE_EXCEPTION);
  CHECK(ran == 1);
  s->synchronize();  // cleared

  // 3. 200 streams parked on one event hold no drainer thread; one record releases them all.
  auto gate = Stream::create(dev, nullptr);
  auto ev = Event::create();
  std::mutex block_mu;
  block_mu.lock();
  gate->enqueue([&] {
    BlockingRegion blocking;
    block_mu.lock();
    block_mu.unlock();
  });
  ev->record(*gate);
  std::vector<std::shared_ptr<Stream>> waiters;
  std::atomic<int> done{0};
  for (int i = 0; i < 200; ++i) {
    waiters.push_back(Stream::create(dev, nullptr));
    ev->wait_in(*waiters.back());
    waiters.back()->enqueue([&] { done++; });
  }
  CHECK(!waiters[0]->synchronize_for(50));
  CHECK(done.load() == 0);
  CHECK(StreamScheduler::instance().thread_count() < 32);
  block_mu.unlock();
  for (auto& w : waiters) CHECK(w->synchronize_for(20000));
  CHECK(done.load() == 200);

  if (aclrtResetDevice(0) || aclFinalize()) ++g_failures;
  std::printf("test_rt_scheduler: %d failure(s)\n", g_failures.load());
  return g_failures.load() ? 1 : 0;
}
