#include "runtime/stream_scheduler.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include "common/log.h"
#include "runtime/stream.h"

namespace acl_sim {
namespace {
thread_local bool t_is_drainer = false;
constexpr size_t kBatch = 64;                        // tasks per turn before yielding to same-priority streams
constexpr auto kIdleExit = std::chrono::seconds(5);  // surplus idle drainers exit after this
// An idle drainer polls this long before sleeping: a producer enqueueing in a
// loop then never pays for a futex wake-up per task.
constexpr auto kSpinBeforeSleep = std::chrono::microseconds(50);

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}
}  // namespace

struct StreamScheduler::Impl {
  std::mutex mu;
  std::condition_variable work_cv;
  std::condition_variable exit_cv;
  std::deque<std::shared_ptr<Stream>> ready[Stream::kPriorities];
  size_t queued = 0;
  std::atomic<size_t> queued_hint{0};  // == queued, readable without the lock (spinning drainers)
  size_t alive = 0;    // drainer threads
  size_t idle = 0;     // waiting for work
  size_t busy = 0;     // running tasks, not inside a BlockingRegion
  size_t blocked = 0;  // inside a BlockingRegion
  bool stopping = false;
  size_t max_busy = std::max<size_t>(2, std::thread::hardware_concurrency());
  size_t min_keep = 2;

  // Caller holds mu.
  void maybe_spawn() {
    if (idle > 0 || stopping) {
      if (idle > 0) work_cv.notify_one();
      return;
    }
    if (busy >= max_busy) return;  // a busy drainer will take it next
    ++alive;
    ++idle;  // counted idle until it picks work, so concurrent make_ready calls do not over-spawn
    std::thread([this] { loop(); }).detach();
  }

  std::shared_ptr<Stream> pop_locked() {
    for (auto& q : ready) {
      if (!q.empty()) {
        auto s = std::move(q.front());
        q.pop_front();
        --queued;
        queued_hint.store(queued, std::memory_order_relaxed);
        return s;
      }
    }
    return nullptr;
  }

  // Poll briefly (lock released) for new work; true if some arrived.
  bool spin_for_work(std::unique_lock<std::mutex>& lock) {
    lock.unlock();
    auto until = std::chrono::steady_clock::now() + kSpinBeforeSleep;
    bool found = false;
    for (int i = 0;; ++i) {
      if (queued_hint.load(std::memory_order_relaxed) > 0) {
        found = true;
        break;
      }
      cpu_relax();
      if ((i & 63) == 63) {
        if (std::chrono::steady_clock::now() >= until) break;
        std::this_thread::yield();  // the machine may have fewer cores than busy threads
      }
    }
    lock.lock();
    return found;
  }

  void loop() {
    t_is_drainer = true;
    std::unique_lock<std::mutex> lock(mu);
    for (;;) {
      if (stopping && queued == 0) break;
      auto s = pop_locked();
      if (!s) {
        if (stopping) break;
        if (spin_for_work(lock)) continue;
        bool timed_out = !work_cv.wait_for(lock, kIdleExit, [&] { return queued > 0 || stopping; });
        if (timed_out && alive > min_keep) break;
        continue;
      }
      --idle;
      ++busy;
      lock.unlock();
      s->drain(kBatch);
      s.reset();
      lock.lock();
      --busy;
      ++idle;
    }
    --idle;
    --alive;
    exit_cv.notify_all();
  }
};

StreamScheduler::StreamScheduler() : impl_(new Impl) {}

StreamScheduler& StreamScheduler::instance() {
  // Never destroyed: detached drainers may still touch it during process exit.
  static StreamScheduler* s = new StreamScheduler();
  return *s;
}

void StreamScheduler::make_ready(std::shared_ptr<Stream> s) {
  Impl& im = *impl_;
  std::lock_guard<std::mutex> lock(im.mu);
  im.ready[s->priority()].push_back(std::move(s));
  ++im.queued;
  im.queued_hint.store(im.queued, std::memory_order_relaxed);
  im.maybe_spawn();
}

void StreamScheduler::shutdown() {
  Impl& im = *impl_;
  std::unique_lock<std::mutex> lock(im.mu);
  im.stopping = true;
  im.work_cv.notify_all();
  im.exit_cv.wait(lock, [&] { return im.alive == 0; });
  im.stopping = false;
}

size_t StreamScheduler::thread_count() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->alive;
}

BlockingRegion::BlockingRegion() : active_(t_is_drainer) {
  if (!active_) return;
  auto& im = *StreamScheduler::instance().impl_;
  std::lock_guard<std::mutex> lock(im.mu);
  --im.busy;
  ++im.blocked;
  if (im.queued > 0) im.maybe_spawn();
}

BlockingRegion::~BlockingRegion() {
  if (!active_) return;
  auto& im = *StreamScheduler::instance().impl_;
  std::lock_guard<std::mutex> lock(im.mu);
  --im.blocked;
  ++im.busy;
}

}  // namespace acl_sim
