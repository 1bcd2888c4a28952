// Events: aclrtCreateEvent ... aclrtEventElapsedTime.
#include <cmath>

#include "capi/rt_common.h"
#include "runtime/context.h"
#include "runtime/event.h"
#include "runtime/stream.h"

using namespace acl_sim;
using namespace acl_sim::capi;

namespace {

std::shared_ptr<Event> find_event(aclrtEvent event, const char* what = "event") {
  require_not_null(event, what);
  auto e = rt().events().find(event);
  if (!e) fail(ACL_ERROR_RT_PARAM_INVALID, what, " ", event, " is not a live event (never created or already destroyed)");
  return e;
}

aclError create_event(const char* fn, aclrtEvent* event, uint32_t flag) {
  return api_call(fn, [&] {
    require_not_null(event, "event");
    Runtime& r = rt();
    constexpr uint32_t kKnown = ACL_EVENT_SYNC | ACL_EVENT_CAPTURE_STREAM_PROGRESS | ACL_EVENT_TIME_LINE;
    ACL_SIM_REQUIRE((flag & ~kKnown) == 0, ACL_ERROR_INVALID_PARAM, "flag ", flag,
                    " has bits other than ACL_EVENT_SYNC | ACL_EVENT_CAPTURE_STREAM_PROGRESS | ACL_EVENT_TIME_LINE");
    require_context();  // events belong to the current context, as in CANN
    *event = r.events().add(Event::create(flag));
  });
}

}  // namespace

extern "C" {

ACL_FUNC_VISIBILITY aclError aclrtCreateEvent(aclrtEvent* event) {
  return create_event("aclrtCreateEvent", event, ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE);
}

ACL_FUNC_VISIBILITY aclError aclrtCreateEventWithFlag(aclrtEvent* event, uint32_t flag) {
  return create_event("aclrtCreateEventWithFlag", event, flag);
}

ACL_FUNC_VISIBILITY aclError aclrtCreateEventExWithFlag(aclrtEvent* event, uint32_t flag) {
  return create_event("aclrtCreateEventExWithFlag", event, flag);
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyEvent(aclrtEvent event) {
  return api_call("aclrtDestroyEvent", [&] {
    require_not_null(event, "event");
    if (!rt().events().remove(event))
      fail(ACL_ERROR_RT_PARAM_INVALID, "event ", event, " is not a live event (never created or already destroyed)");
    // Pending records keep the object alive until they have run.
  });
}

ACL_FUNC_VISIBILITY aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream) {
  return api_call("aclrtRecordEvent", [&] { find_event(event)->record(*resolve_stream(stream)); });
}

ACL_FUNC_VISIBILITY aclError aclrtResetEvent(aclrtEvent event, aclrtStream stream) {
  return api_call("aclrtResetEvent", [&] { find_event(event)->reset(*resolve_stream(stream)); });
}

ACL_FUNC_VISIBILITY aclError aclrtQueryEvent(aclrtEvent event, aclrtEventStatus* status) {
  return api_call("aclrtQueryEvent", [&] {
    require_not_null(status, "status");
    *status = find_event(event)->completed() ? ACL_EVENT_STATUS_COMPLETE : ACL_EVENT_STATUS_NOT_READY;
  });
}

ACL_FUNC_VISIBILITY aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus* status) {
  return api_call("aclrtQueryEventStatus", [&] {
    require_not_null(status, "status");
    *status = find_event(event)->completed() ? ACL_EVENT_RECORDED_STATUS_COMPLETE : ACL_EVENT_RECORDED_STATUS_NOT_READY;
  });
}

ACL_FUNC_VISIBILITY aclError aclrtSynchronizeEvent(aclrtEvent event) {
  return api_call("aclrtSynchronizeEvent", [&] { find_event(event)->synchronize_for(-1); });
}

ACL_FUNC_VISIBILITY aclError aclrtSynchronizeEventWithTimeout(aclrtEvent event, int32_t timeout) {
  return api_call("aclrtSynchronizeEventWithTimeout", [&] {
    ACL_SIM_REQUIRE(timeout >= -1, ACL_ERROR_INVALID_PARAM, "timeout must be -1 (forever) or >= 0 ms, got ", timeout);
    if (!find_event(event)->synchronize_for(timeout))
      fail(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, "event ", event, " did not complete within ", timeout, " ms");
  });
}

ACL_FUNC_VISIBILITY aclError aclrtEventElapsedTime(float* ms, aclrtEvent startEvent, aclrtEvent endEvent) {
  return api_call("aclrtEventElapsedTime", [&] {
    require_not_null(ms, "ms");
    auto start = find_event(startEvent, "startEvent");
    auto end = find_event(endEvent, "endEvent");
    ACL_SIM_REQUIRE(start->recorded() && end->recorded(), ACL_ERROR_RT_PARAM_INVALID,
                    "both events must be recorded (aclrtRecordEvent) before measuring elapsed time");
    int64_t t0 = start->timestamp_ns(), t1 = end->timestamp_ns();
    ACL_SIM_REQUIRE(t0 >= 0 && t1 >= 0, ACL_ERROR_RT_EVENT_NOT_COMPLETE,
                    "an event has not completed yet: synchronise the stream or event first");
    // Microsecond resolution, reported in milliseconds.
    *ms = static_cast<float>(static_cast<double>((t1 - t0) / 1000) / 1000.0);
  });
}

}  // extern "C"
