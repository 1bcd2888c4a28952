#include "hccl/sync.h"

#include <cstdlib>

#include "common/error.h"
#include "hccl/hccl_types.h"

namespace acl_sim::hccl {
namespace {

double env_seconds(const char* name, double fallback) {
  const char* v = std::getenv(name);
  if (!v || !*v) return fallback;
  char* end = nullptr;
  double s = std::strtod(v, &end);
  if (end == v || s < 0) return fallback;
  return s == 0 ? fallback : s;
}

}  // namespace

double connect_timeout_seconds() { return env_seconds("HCCL_CONNECT_TIMEOUT", 120.0); }
double exec_timeout_seconds() { return env_seconds("HCCL_EXEC_TIMEOUT", 1836.0); }

Deadline Deadline::after(double seconds) {
  Deadline d;
  d.seconds_ = seconds;
  d.at_ = Clock::now() + std::chrono::nanoseconds(static_cast<int64_t>(seconds * 1e9));
  return d;
}

int64_t Deadline::remaining_ns() const {
  auto left = std::chrono::duration_cast<std::chrono::nanoseconds>(at_ - Clock::now()).count();
  return left > 0 ? left : 0;
}

void GroupPoison::poison(int code, const std::string& why) {
  std::lock_guard<std::mutex> lock(mu_);
  if (broken_.load(std::memory_order_relaxed)) return;
  code_ = code;
  why_ = why;
  broken_.store(true, std::memory_order_release);
}

void GroupPoison::throw_if_broken() const {
  if (!broken_.load(std::memory_order_acquire)) return;
  std::lock_guard<std::mutex> lock(mu_);
  fail(code_, "communicator is broken: ", why_);
}

}  // namespace acl_sim::hccl
