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
  rounds = std::min(rounds, 10'000'000);  // the flag counts 2 per round in an int
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return -1;
  int cpus[2], found = 0;
  for (int c = 0; c < CPU_SETSIZE && found < 2; ++c)
    if (CPU_ISSET(c, &allowed)) cpus[found++] = c;
  if (found < 2) return -1;

  constexpr int kBatches = 5;
  const int per_batch = std::max(1, rounds / kBatches);
  // The line both threads spin on, alone on it (no other variable's writes move it). A negative value sends the
  // echo home: the caller could not pin itself, and two threads spinning on one CPU would take time slices a round.
  struct alignas(64) Line {
    std::atomic<int> value{0};
    char pad[64 - sizeof(std::atomic<int>)];
  };
  std::unique_ptr<Line> line(new Line);
  std::atomic<int>& flag = line->value;
  std::atomic<int> ready{0};
  std::thread echo([&] {
    const bool pinned = pin_to(cpus[1]);
    ready.store(pinned ? 1 : -1, std::memory_order_release);
    if (!pinned) return;
    for (int i = 0; i < kBatches * per_batch; ++i) {
      int v;
      while ((v = flag.load(std::memory_order_acquire)) != 2 * i + 1)
        if (v < 0) return;
      // Sequentially consistent stores leave the store buffer at once; release ones waited there (85 ns on one
      // die where a standalone ping-pong read 50).
      flag.store(2 * i + 2);
    }
  });
  while (ready.load(std::memory_order_acquire) == 0) std::this_thread::yield();
  cpu_set_t before;  // the caller's own mask, restored after
  CPU_ZERO(&before);
  const bool had_mask = pthread_getaffinity_np(pthread_self(), sizeof before, &before) == 0;
  if (ready.load(std::memory_order_relaxed) < 0 || !pin_to(cpus[0])) {
    flag.store(-1);
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
