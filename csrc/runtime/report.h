// Host callbacks (aclrtLaunchCallback): a stream task posts fn(userData) to the
// queue of the thread subscribed to that stream (aclrtSubscribeReport); that
// thread runs it inside aclrtProcessReport. A blocking callback parks the
// stream (no thread held) until the callback has returned.
#pragma once

#include "runtime/export.h"

#include <acl/acl_rt.h>

#include <cstdint>
#include <memory>

namespace acl_sim {

class Stream;

class ACL_SIM_RT_API ReportRegistry {
 public:
  static ReportRegistry& instance();

  /** Thread @p tid will run @p s's callbacks. 100033 if @p s already has a thread. */
  void subscribe(uint64_t tid, Stream& s);
  /** 100034 unless @p s is subscribed by @p tid. */
  void unsubscribe(uint64_t tid, Stream& s);
  /** Enqueue fn(user_data) on @p s; 107015 if @p s has no subscribed thread. */
  void launch(aclrtCallback fn, void* user_data, bool block, Stream& s);
  /** Run one callback posted for the calling thread, waiting up to @p timeout_ms (-1 forever).
   *  107012 if the thread subscribed nothing by then; 100036 on timeout. */
  void process(int32_t timeout_ms);
  /** Drop every subscription and pending callback (aclFinalize); parked streams are released. */
  void clear();

  struct Impl;

 private:
  ReportRegistry();
  Impl* impl_;
};

/** The calling thread's id as used by aclrtSubscribeReport (pthread_self()). */
ACL_SIM_RT_API uint64_t current_thread_id();

}  // namespace acl_sim
