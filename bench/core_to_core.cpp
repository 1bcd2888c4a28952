// Round trip of one cache line between two threads pinned to CPUs 0 and 1: how far apart the
// host placed them (bench/results/model.md's host states). Not part of the build:
//   g++ -O2 -pthread bench/core_to_core.cpp -o /tmp/core_to_core && /tmp/core_to_core
#include <pthread.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>

namespace {

std::atomic<int> g_flag{0};

void pin(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

}  // namespace

int main() {
  constexpr int kRounds = 200000;
  std::thread echo([] {
    pin(1);
    for (int i = 0; i < kRounds; ++i) {
      while (g_flag.load(std::memory_order_acquire) != 2 * i + 1) {
      }
      g_flag.store(2 * i + 2, std::memory_order_release);
    }
  });
  pin(0);
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < kRounds; ++i) {
    g_flag.store(2 * i + 1, std::memory_order_release);
    while (g_flag.load(std::memory_order_acquire) != 2 * i + 2) {
    }
  }
  const auto t1 = std::chrono::steady_clock::now();
  echo.join();
  std::printf("CPU 0 <-> CPU 1 cache-line round trip: %.1f ns\n",
              std::chrono::duration<double, std::nano>(t1 - t0).count() / kRounds);
}
