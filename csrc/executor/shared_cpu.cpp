#include "executor/shared_cpu.h"

#include <cstdio>

#if defined(__linux__)
#include <fcntl.h>
#include <unistd.h>
#endif

namespace acl_sim {
namespace {

constexpr uint64_t kLongWaitNs = 500'000;        // a wait to run this long is a time slice lost
constexpr uint64_t kPairNs = 20'000'000;         // two within this long mean a shared CPU
constexpr uint64_t kStillSharedNs = 200'000'000;  // so does one this soon after a park ends
constexpr uint64_t kParkNs = 50'000'000;         // how long the worker then parks at once
constexpr uint64_t kCheckNs = 1'000'000;         // how often after_job asks the kernel

}  // namespace

RunWait::RunWait() {
#if defined(__linux__)
  fd_ = ::open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
#endif
}

RunWait::~RunWait() {
#if defined(__linux__)
  if (fd_ >= 0) ::close(fd_);
#endif
}

uint64_t RunWait::wait_per_run() {
#if defined(__linux__)
  char buf[96];
  const ssize_t n = fd_ >= 0 ? ::pread(fd_, buf, sizeof buf - 1, 0) : -1;
  if (n <= 0) return 0;
  buf[n] = 0;
  unsigned long long on_cpu = 0, waited = 0, runs = 0;  // the file's three fields: ns on the CPU, ns waited, runs
  if (std::sscanf(buf, "%llu %llu %llu", &on_cpu, &waited, &runs) != 3 || waited < waited_) return 0;
  const bool first = runs_ == 0;
  const uint64_t per_run = runs > runs_ ? (waited - waited_) / (runs - runs_) : 0;
  waited_ = waited;
  runs_ = runs;
  return first ? 0 : per_run;
#else
  return 0;
#endif
}

void SharedCpuSign::gap(uint64_t length, uint64_t now) {
  if (length < kLongWaitNs) return;
  if (now - last_long_ <= kPairNs || (park_until_ != 0 && now >= park_until_ && now - park_until_ <= kStillSharedNs))
    park_until_ = now + kParkNs;
  last_long_ = now;
}

void SharedCpuSign::after_job(uint64_t now) {
  if (now - checked_ < kCheckNs) return;
  checked_ = now;
  gap(run_wait_.wait_per_run(), now);
}

}  // namespace acl_sim
