// Events: markers recorded into streams. record() enqueues a marker that,
// when the stream reaches it, completes the event and timestamps it.
#pragma once

#include "runtime/export.h"

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

namespace acl_sim {

class Stream;

class ACL_SIM_RT_API Event : public std::enable_shared_from_this<Event> {
 public:
  explicit Event(uint32_t flags);
  static std::shared_ptr<Event> create(uint32_t flags = 0) { return std::make_shared<Event>(flags); }

  /** Capture the work queued on @p s so far. Thread-safe. */
  void record(Stream& s);
  /** In @p s order, return the event to the not-recorded state. */
  void reset(Stream& s);
  /** Make later tasks of @p s wait for the latest record (no-op if never recorded). */
  void wait_in(Stream& s);
  /** Recorded and its latest record has completed. */
  bool completed() const;
  /** Ever recorded (and not reset). */
  bool recorded() const;
  /** Wait for the latest record (-1 forever); false on timeout. Returns at once if never recorded. */
  bool synchronize_for(int32_t timeout_ms);
  /** Completion time of the latest completed record, steady clock ns; -1 if none. */
  int64_t timestamp_ns() const;
  uint32_t flags() const { return flags_; }

 private:
  friend class EventWait;
  void complete(uint64_t gen);

  uint32_t flags_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  uint64_t recorded_gen_ = 0;   // generation of the latest record()
  uint64_t completed_gen_ = 0;  // highest completed generation
  bool has_record_ = false;
  int64_t timestamp_ns_ = -1;
  std::vector<std::pair<uint64_t, std::weak_ptr<Stream>>> waiters_;
};

/** Steady-clock nanoseconds (the event time base). */
ACL_SIM_RT_API int64_t now_ns();

}  // namespace acl_sim
