// The thread pool's shared-CPU sign (executor/shared_cpu.h): which waits to run make a worker park instead of
// spinning, and for how long. Times are given, not measured. Exit code: 0 when every check holds.
#include <cstdint>
#include <thread>

#include "check.h"
#include "executor/shared_cpu.h"

using acl_sim::RunWait;
using acl_sim::SharedCpuSign;

namespace {

constexpr uint64_t kMs = 1'000'000;

void short_waits_never_park() {
  SharedCpuSign sign;
  const uint64_t t0 = 1'000'000 * kMs;
  for (uint64_t i = 0; i < 1000; ++i) sign.gap(400'000, t0 + i * kMs / 10);  // 0.4 ms waits, ten a millisecond
  CHECK(!sign.shared(t0 + 100 * kMs));
}

void one_long_wait_is_no_pattern() {
  SharedCpuSign sign;
  const uint64_t t0 = 1'000'000 * kMs;
  sign.gap(5 * kMs, t0);
  CHECK(!sign.shared(t0));
  sign.gap(5 * kMs, t0 + 25 * kMs);  // the second comes after the 20 ms window
  CHECK(!sign.shared(t0 + 25 * kMs));
}

void two_long_waits_park_for_50_ms_then_rearm() {
  SharedCpuSign sign;
  const uint64_t t0 = 1'000'000 * kMs;
  sign.gap(kMs, t0);
  sign.gap(kMs, t0 + 10 * kMs);
  CHECK(sign.shared(t0 + 10 * kMs));
  CHECK(sign.shared(t0 + 59 * kMs));
  CHECK(!sign.shared(t0 + 61 * kMs));
  // Within 200 ms of the park's end one long wait is enough: the CPU is still shared.
  sign.gap(kMs, t0 + 150 * kMs);
  CHECK(sign.shared(t0 + 150 * kMs));
  CHECK(!sign.shared(t0 + 201 * kMs));
  // Long after it, one is no pattern again.
  sign.gap(kMs, t0 + 900 * kMs);
  CHECK(!sign.shared(t0 + 900 * kMs));
}

void run_wait_reads_the_kernel_count() {
  RunWait wait;
  CHECK(wait.wait_per_run() == 0);  // the first read only sets the baseline
  for (int i = 0; i < 50; ++i) std::this_thread::yield();
  const uint64_t w = wait.wait_per_run();
  CHECK_MSG(w < 1'000 * kMs, "an idle host's wait per run is far below a second");
}

}  // namespace

int main() {
  short_waits_never_park();
  one_long_wait_is_no_pattern();
  two_long_waits_park_for_50_ms_then_rearm();
  run_wait_reads_the_kernel_count();
  return check_exit("test_shared_cpu");
}
