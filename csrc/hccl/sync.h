// Deadlines (HCCL_CONNECT_TIMEOUT / HCCL_EXEC_TIMEOUT) and the poison state
// of an in-process group: once a collective timed out, every later call on the
// group fails with that error instead of waiting again.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>

namespace acl_sim::hccl {

/** HCCL_CONNECT_TIMEOUT in seconds (CANN default 120); fractions are accepted. */
double connect_timeout_seconds();
/** HCCL_EXEC_TIMEOUT in seconds (CANN default 1836); 0 means CANN's default. Fractions accepted. */
double exec_timeout_seconds();

class Deadline {
 public:
  using Clock = std::chrono::steady_clock;
  static Deadline after(double seconds);
  bool passed() const { return Clock::now() >= at_; }
  /** Nanoseconds left (0 when passed). */
  int64_t remaining_ns() const;
  double seconds() const { return seconds_; }
  Clock::time_point at() const { return at_; }

 private:
  Clock::time_point at_;
  double seconds_ = 0;
};

/** The broken state of an in-process group: the first failure that must fail every later call
 *  (a timeout) is kept, and throw_if_broken() rethrows it. Thread-safe. */
class GroupPoison {
 public:
  /** Break the group with Error(@p code, @p why). First call wins. */
  void poison(int code, const std::string& why);
  bool broken() const { return broken_.load(std::memory_order_acquire); }
  /** Throws the poison error when broken. */
  void throw_if_broken() const;

 private:
  std::atomic<bool> broken_{false};
  mutable std::mutex mu_;
  int code_ = 0;
  std::string why_;
};

}  // namespace acl_sim::hccl
