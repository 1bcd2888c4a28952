// Deadlines and the group barrier used by in-process ranks. A collective
// blocks its stream task until every peer arrives; the barrier makes that wait
// bounded (HCCL_EXEC_TIMEOUT) and lets one failing rank release the others
// (poison), so no rank ever hangs.
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

 private:
  Clock::time_point at_;
  double seconds_ = 0;
};

/**
 * A reusable barrier for a fixed number of threads. Waiters spin briefly,
 * then yield (cheap hand-off when ranks outnumber cores), then sleep on a
 * futex. Thread-safe.
 */
class GroupBarrier {
 public:
  explicit GroupBarrier(uint32_t n) : n_(n) {}

  /** Returns once all n threads arrived. Throws Error(HCCL_E_TIMEOUT) at @p deadline (and poisons
   *  the barrier so every other waiter fails too), or the poison error when the group is broken.
   *  @p what names the operation for the message. */
  void arrive_and_wait(const Deadline& deadline, const char* what);

  /** Break the group: every current and later waiter throws Error(@p code, @p why). First call wins. */
  void poison(int code, const std::string& why);
  bool broken() const { return broken_.load(std::memory_order_acquire); }
  /** Throws the poison error when broken. */
  void throw_if_broken() const;

 private:
  void wait_for_generation_change(uint32_t gen, const Deadline& deadline, const char* what);

  const uint32_t n_;
  alignas(64) std::atomic<uint32_t> arrived_{0};
  alignas(64) std::atomic<uint32_t> generation_{0};
  std::atomic<int32_t> sleepers_{0};
  std::atomic<bool> broken_{false};
  mutable std::mutex poison_mu_;
  int poison_code_ = 0;
  std::string poison_why_;
};

/** Wait (spin, yield, then futex sleep) until @p word != @p old, @p deadline passes (returns false),
 *  or @p barrier is poisoned (throws). Wake with wake_all(word). */
bool wait_while_equal(std::atomic<uint32_t>& word, uint32_t old, const Deadline& deadline,
                      const GroupBarrier* barrier, std::atomic<int32_t>* sleepers = nullptr,
                      uint32_t participants = 1);
/** Wake every thread sleeping in wait_while_equal on @p word. */
void wake_all(std::atomic<uint32_t>& word);

}  // namespace acl_sim::hccl
