#include "executor/core_round_trip.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <thread>
#include <vector>

#if defined(__linux__)
#include <pthread.h>
#include <sched.h>
#endif

namespace acl_sim {
namespace {

#if defined(__linux__)
bool pin_to(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  return pthread_setaffinity_np(pthread_self(), sizeof set, &set) == 0;
}
#endif

}  // namespace

double core_round_trip_ns(int rounds) {
#if defined(__linux__)
  if (rounds < 1) return -1;
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return -1;
  int cpus[2], found = 0;
  for (int c = 0; c < CPU_SETSIZE && found < 2; ++c)
    if (CPU_ISSET(c, &allowed)) cpus[found++] = c;
  if (found < 2) return -1;

  constexpr int kBatches = 5;
  const int per_batch = std::max(1, rounds / kBatches);
  // The line both threads spin on, alone on it (no other variable's writes move it); the echo only answers once it
  // runs where it was pinned (ready), so a refused pin never leaves two threads spinning on one CPU.
  struct alignas(64) Line {
    std::atomic<int> value{0};
    char pad[64 - sizeof(std::atomic<int>)];
  };
  std::unique_ptr<Line> line(new Line);
  std::atomic<int>& flag = line->value;
  std::atomic<int> ready{0};
  std::thread echo([&] {
    ready.store(pin_to(cpus[1]) ? 1 : -1, std::memory_order_release);
    if (ready.load(std::memory_order_relaxed) < 0) return;
    for (int i = 0; i < kBatches * per_batch; ++i) {
      while (flag.load(std::memory_order_acquire) != 2 * i + 1) {
      }
      flag.store(2 * i + 2);  // seq_cst: leaves the store buffer at once (a release store waited in it: 85 ns, not 50)
    }
  });
  int r;
  while ((r = ready.load(std::memory_order_acquire)) == 0) std::this_thread::yield();
  // Whatever the caller was pinned to before is restored after.
  cpu_set_t before;
  CPU_ZERO(&before);
  const bool had_mask = pthread_getaffinity_np(pthread_self(), sizeof before, &before) == 0;
  if (r < 0 || !pin_to(cpus[0])) {
    // The echo waits for round 1 only if it pinned; release it by playing every round from here.
    for (int i = 0; r > 0 && i < kBatches * per_batch; ++i) {
      flag.store(2 * i + 1);
      while (flag.load(std::memory_order_acquire) != 2 * i + 2) std::this_thread::yield();
    }
    echo.join();
    if (had_mask) pthread_setaffinity_np(pthread_self(), sizeof before, &before);
    return -1;
  }
  std::vector<double> batches;
  for (int b = 0; b < kBatches; ++b) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int j = 0; j < per_batch; ++j) {
      const int i = b * per_batch + j;
      flag.store(2 * i + 1);
      while (flag.load(std::memory_order_acquire) != 2 * i + 2) {
      }
    }
    batches.push_back(std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() /
                      per_batch);
  }
  echo.join();
  if (had_mask) pthread_setaffinity_np(pthread_self(), sizeof before, &before);
  std::sort(batches.begin(), batches.end());
  return batches[kBatches / 2];
#else
  (void)rounds;
  return -1;
#endif
}

}  // namespace acl_sim
