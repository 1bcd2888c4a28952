#include "executor/thread_pool.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "common/clock.h"
#include "executor/executor_observer.h"
#include "executor/shared_cpu.h"
#include "executor/worker_placement.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define ACL_SIM_CPU_RELAX() _mm_pause()
#else
#define ACL_SIM_CPU_RELAX() std::this_thread::yield()
#endif

namespace acl_sim {
namespace {

thread_local size_t t_worker_index = 0;

/**
 * Locks m, spinning on try_lock for a few microseconds first. The pool's lock guards a few pointer moves
 * (push or drop a job), but a thread that meets it taken sleeps in a futex and costs a context switch and a
 * wake-up: a spinning worker that saw a new job while the caller still held the lock, and the caller
 * dropping its job while a worker took it, did so ~25 times per light_resnet50 run (Intel Xeon VM).
 */
void lock_spinning(std::unique_lock<std::mutex>& lock) {
  for (int i = 0; i < 4096; ++i) {
    if (lock.try_lock()) return;
    ACL_SIM_CPU_RELAX();
  }
  lock.lock();
}

// How long the caller spins at a fork's tail for indices still running elsewhere before it yields
// and sleeps. Time, not a count of pauses: a pause takes 66 ns on Zen 4, a few ns on other cores.
// Spinning about one index's time (50 us .. 1 ms) measured 1-3% slower on a loaded 2-core host
// (docs/perf_history.md, "balance"): a spinning caller takes the core its preempted worker needs.
constexpr uint64_t kTailSpinNs = 250'000;
// How long an idle worker spins for the next fork before it sleeps (20000 pauses on Zen 4).
constexpr uint64_t kWorkerSpinNs = 1'300'000;
// Pools up to this many threads bar their parked workers from the caller's CPU before waking them.
constexpr size_t kBarParkedUpTo = 8;

size_t threads_from_env() {
  const char* v = std::getenv("ACL_SIM_HOST_THREADS");
  if (v && *v) {
    long n = std::strtol(v, nullptr, 10);
    if (n >= 1 && n <= 1024) return static_cast<size_t>(n);
  }
  unsigned hw = std::thread::hardware_concurrency();
  return hw ? hw : 1;
}

// ACL_SIM_POOL_TAIL_SPIN_US / ACL_SIM_POOL_WORKER_SPIN_US: the spins instead of kTailSpinNs /
// kWorkerSpinNs, for measuring the policy; -1 when unset.
int64_t spin_from_env(const char* name) {
  const char* v = std::getenv(name);
  if (!v || !*v) return -1;
  const long us = std::strtol(v, nullptr, 10);
  return us >= 0 && us <= 1000000 ? static_cast<int64_t>(us) * 1000 : -1;
}

struct Job {
  ThreadPool::Fn fn;
  void* ctx;
  size_t n;
  // Unclaimed indices are [front, back): the caller claims from the front, workers from the back, so on a pool of
  // two each thread runs one contiguous range of indices that meets the other's where the balance falls. Ops that
  // number their tiles along the output pixels (the GEMM's N blocks, the pixel-major and direct convs' rows) then
  // leave each core the part of the activation its own L2 holds for the next op, instead of alternating tiles
  // between the cores (one fetch_add counter). Stop 25, in-model A/B against that counter (Intel Xeon, 2 threads,
  // 20 pairs, summed node medians): resnet50 0.986-0.988, densenet121 0.988, vgg19 0.987, PP-OCR det / rec / cls
  // 0.949 / 0.964 / 0.863, the transformer 0.975; AVX2 resnet50 0.997, densenet121 0.983.
  std::atomic<uint64_t> ends{0};  // low 32 bits: front; high 32 bits: back (n < 2^32, checked by parallelize)

  /** The next unclaimed index from the front or the back, or n when none is left. */
  size_t claim(bool from_back) {
    uint64_t e = ends.load(std::memory_order_relaxed);
    for (;;) {
      const uint64_t front = e & 0xffffffffu, back = e >> 32;
      if (front >= back) return n;
      const uint64_t taken = from_back ? ((back - 1) << 32) | front : (back << 32) | (front + 1);
      if (ends.compare_exchange_weak(e, taken, std::memory_order_relaxed)) return from_back ? back - 1 : front;
    }
  }
  bool unclaimed() const {
    const uint64_t e = ends.load(std::memory_order_relaxed);
    return (e & 0xffffffffu) < (e >> 32);
  }
  std::atomic<size_t> finished{0};
  std::atomic<bool> failed{false};
  // The caller sleeps here once spinning has not seen the last index finish (a long block on an
  // oversubscribed host): whoever finishes the last index wakes it.
  std::atomic<bool> caller_sleeps{false};
  std::mutex done_mu;
  std::condition_variable done_cv;
  std::exception_ptr error;
  std::mutex error_mu;
  // The observer told of this fork and its tag (executor_observer.h); each worker reports its
  // share before counting its indices as finished, so the tag outlives every report.
  ExecutorObserver* observer = nullptr;
  const void* observer_tag = nullptr;
  int caller_cpu = -1;  // where the fork was made (worker_placement.h)

  // Runs indices until none are left; returns how many this thread finished.
  size_t drain() {
    size_t mine = 0;
    const bool report = observer_tag != nullptr;
    const uint64_t start = report ? monotonic_ns() : 0;
    for (;;) {
      size_t i = claim(t_worker_index != 0);
      if (i >= n) break;
      if (!failed.load(std::memory_order_relaxed)) {
        try {
          fn(ctx, i);
        } catch (...) {
          std::lock_guard<std::mutex> lock(error_mu);
          if (!error) error = std::current_exception();
          failed.store(true, std::memory_order_relaxed);
        }
      }
      ++mine;
    }
    if (mine && report) observer->fork_share(observer_tag, t_worker_index, start, monotonic_ns());
    if (mine && finished.fetch_add(mine, std::memory_order_seq_cst) + mine == n &&
        caller_sleeps.load(std::memory_order_seq_cst)) {
      std::lock_guard<std::mutex> lock(done_mu);
      done_cv.notify_all();
    }
    return mine;
  }

  /** The caller's wait for the indices still running elsewhere: spin for up to @p spin_ns, then
   *  yield a bounded number of times, then sleep. Returns whether it slept. */
  bool wait_finished(uint64_t spin_ns) {
    if (finished.load(std::memory_order_acquire) >= n) return false;
    const uint64_t deadline = monotonic_ns() + spin_ns;
    for (unsigned spin = 1;; ++spin) {
      if (finished.load(std::memory_order_acquire) >= n) return false;
      ACL_SIM_CPU_RELAX();
      if (spin % 16 == 0 && monotonic_ns() >= deadline) break;  // a pause is 10-140 cycles: read the clock now and then
    }
    for (unsigned y = 0; y < 64; ++y) {
      if (finished.load(std::memory_order_acquire) >= n) return false;
      std::this_thread::yield();
    }
    caller_sleeps.store(true, std::memory_order_seq_cst);
    std::unique_lock<std::mutex> lock(done_mu);
    done_cv.wait(lock, [&] { return finished.load(std::memory_order_seq_cst) >= n; });
    return true;
  }
};

}  // namespace

struct ThreadPool::Impl {
  size_t concurrency = 1;
  int64_t tail_spin_ns = -1;  // ACL_SIM_POOL_TAIL_SPIN_US, or -1: kTailSpinNs
  uint64_t worker_spin_ns = kWorkerSpinNs;  // ACL_SIM_POOL_WORKER_SPIN_US overrides
  std::mutex mu;
  std::condition_variable wake;
  // Open jobs; a job leaves once its indices are all claimed. Jobs are shared:
  // a worker that took one but was preempted before claiming an index keeps it
  // alive on its own, so the caller waits for finished indices only, never for
  // idle helpers (which matters on an oversubscribed host).
  std::deque<std::shared_ptr<Job>> jobs;
  std::vector<std::thread> workers;
  // Keeps workers off their caller's CPU (worker_placement.h): barred[w] is worker w's current bar.
  WorkerPlacement placement;
  std::unique_ptr<std::atomic<int>[]> barred;
  std::atomic<int> parked{0};  // workers asleep on `wake`
  std::atomic<bool> stopping{false};  // read by spinning workers outside mu
  std::atomic<size_t> open_jobs{0};

  void start() {
    stopping = false;
    placement.capture();
    barred.reset(new std::atomic<int>[concurrency]);
    for (size_t w = 0; w < concurrency; ++w) barred[w].store(-1, std::memory_order_relaxed);
    for (size_t w = 1; w < concurrency; ++w) workers.emplace_back([this, w] { worker_loop(w); });
  }

  std::shared_ptr<Job> take_job(std::unique_lock<std::mutex>& lock) {
    while (!jobs.empty()) {
      const std::shared_ptr<Job>& j = jobs.front();
      if (j->unclaimed()) return j;
      jobs.pop_front();
      open_jobs.fetch_sub(1, std::memory_order_relaxed);
    }
    return nullptr;
  }

  void worker_loop(size_t index) {
    t_worker_index = index;
    // Spin for a while after the last job before sleeping: a model runs hundreds of short kernels
    // back to back, and a futex wake per kernel would dominate their cost. Not while a busy process
    // shares this worker's CPU (SharedCpuSign).
    uint64_t deadline = monotonic_ns() + worker_spin_ns;
    SharedCpuSign sign;
    for (;;) {
      bool idle_too_long = false;
      uint64_t read = monotonic_ns();
      for (unsigned spin = 1; open_jobs.load(std::memory_order_relaxed) == 0; ++spin) {
        if (stopping.load(std::memory_order_relaxed)) break;
        ACL_SIM_CPU_RELAX();
        if (spin % 16 == 0) {
          const uint64_t now = monotonic_ns();
          sign.gap(now - read, now);
          read = now;
          if (now >= deadline || sign.shared(now)) {
            idle_too_long = true;
            break;
          }
        }
      }
      std::shared_ptr<Job> job;
      {
        std::unique_lock<std::mutex> lock(mu, std::defer_lock);
        lock_spinning(lock);
        if (!idle_too_long && !stopping.load(std::memory_order_relaxed)) {
          // A job whose indices the caller has all claimed already is no reason to sleep: the next
          // one follows within microseconds. (Sleeping here parked the worker ~20 times per
          // light_resnet50 run, each costing the next op a futex wake-up while the caller ran alone.)
          job = take_job(lock);
          if (!job) continue;
        } else {
          parked.fetch_add(1, std::memory_order_relaxed);
          wake.wait(lock, [&] { return stopping || (job = take_job(lock)) != nullptr; });
          parked.fetch_sub(1, std::memory_order_relaxed);
          if (!job) return;
        }
      }
      if (job->caller_cpu >= 0 && current_cpu() == job->caller_cpu)
        placement.bar(pthread_self(), job->caller_cpu, barred[index]);
      job->drain();  // a job whose indices are all claimed returns at once, touching neither fn nor ctx
      const uint64_t now = monotonic_ns();
      sign.after_job(now);
      deadline = sign.shared(now) ? now : now + worker_spin_ns;
    }
  }
};

ThreadPool::ThreadPool() : impl_(new Impl) {
  impl_->concurrency = threads_from_env();
  impl_->tail_spin_ns = spin_from_env("ACL_SIM_POOL_TAIL_SPIN_US");
  if (int64_t w = spin_from_env("ACL_SIM_POOL_WORKER_SPIN_US"); w >= 0) impl_->worker_spin_ns = static_cast<uint64_t>(w);
}

ThreadPool& ThreadPool::instance() {
  // Never destroyed: workers are joined by aclFinalize, not by static destructors.
  static ThreadPool* pool = new ThreadPool();
  return *pool;
}

size_t ThreadPool::concurrency() const { return impl_->concurrency; }

size_t ThreadPool::current_worker() { return t_worker_index; }

void ThreadPool::parallelize(size_t n, Fn fn, void* ctx) {
  if (n == 0) return;
  constexpr size_t kMaxIndices = 0xffffffffu;  // Job::ends packs two 32-bit cursors
  if (n > kMaxIndices) {
    struct Range {
      Fn fn;
      void* ctx;
      size_t base;
    };
    for (size_t base = 0; base < n; base += kMaxIndices) {
      Range r{fn, ctx, base};
      parallelize(std::min(kMaxIndices, n - base),
                  [](void* c, size_t i) { const Range& r = *static_cast<Range*>(c); r.fn(r.ctx, r.base + i); }, &r);
    }
    return;
  }
  Impl& im = *impl_;
  if (im.concurrency <= 1 || n == 1) {
    for (size_t i = 0; i < n; ++i) fn(ctx, i);
    return;
  }
  auto job = std::make_shared<Job>();
  job->fn = fn;
  job->ctx = ctx;
  job->n = n;
  job->ends.store(static_cast<uint64_t>(n) << 32, std::memory_order_relaxed);
  job->caller_cpu = current_cpu();
  if (ExecutorObserver* o = executor_observer()) {
    job->observer = o;
    job->observer_tag = o->fork_begin(im.concurrency);
  }
  const uint64_t begin = job->observer_tag ? monotonic_ns() : 0;
  {
    std::unique_lock<std::mutex> lock(im.mu, std::defer_lock);
    lock_spinning(lock);
    if (im.workers.empty()) im.start();
    im.jobs.push_back(job);
    im.open_jobs.fetch_add(1, std::memory_order_relaxed);
    // Parked workers are about to be woken: bar them from this CPU first, so the kernel wakes them on
    // another one rather than on this (worker_placement.h). Spinning workers check for themselves. Only on
    // small pools: a syscall per worker, and a worker that shares the caller's CPU costs a pool of 2 half
    // its speed but a pool of 64 a 64th.
    if (im.concurrency <= kBarParkedUpTo && im.parked.load(std::memory_order_relaxed) > 0 && job->caller_cpu >= 0)
      for (size_t w = 1; w < im.concurrency; ++w)
        im.placement.bar(im.workers[w - 1].native_handle(), job->caller_cpu, im.barred[w]);
  }
  im.wake.notify_all();
  job->drain();
  const uint64_t spin_ns = im.tail_spin_ns >= 0 ? static_cast<uint64_t>(im.tail_spin_ns) : kTailSpinNs;
  // Remove the job if no worker did, then wait for indices still running elsewhere.
  {
    std::unique_lock<std::mutex> lock(im.mu, std::defer_lock);
    lock_spinning(lock);
    for (auto it = im.jobs.begin(); it != im.jobs.end(); ++it) {
      if (*it == job) {
        im.jobs.erase(it);
        im.open_jobs.fetch_sub(1, std::memory_order_relaxed);
        break;
      }
    }
  }
  // Every index is claimed; fn/ctx are used only by indices that are still running.
  const bool slept = job->wait_finished(spin_ns);
  if (job->observer_tag) job->observer->fork_end(job->observer_tag, n, begin, monotonic_ns(), slept);
  // The exception leaves the job before it is rethrown: a worker may drop the last reference to the job after
  // the caller has handled the error, and the exception object must die on the thread that handles it (libstdc++'s
  // exception refcount is invisible to TSan, which saw its string freed on the worker as a race). Every index has
  // finished, so no worker writes job->error any more: no lock on this path, taken by every fork.
  if (job->error) {
    const std::exception_ptr error = std::move(job->error);
    std::rethrow_exception(error);
  }
}

void ThreadPool::shutdown() {
  Impl& im = *impl_;
  {
    std::lock_guard<std::mutex> lock(im.mu);
    im.stopping = true;
  }
  im.wake.notify_all();
  for (auto& t : im.workers) t.join();
  im.workers.clear();
  std::lock_guard<std::mutex> lock(im.mu);
  im.stopping = false;
}

}  // namespace acl_sim
