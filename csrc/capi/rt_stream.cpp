// Streams: aclrtCreateStream ... aclrtStreamWaitEvent.
#include "capi/rt_common.h"
#include "runtime/context.h"
#include "runtime/event.h"
#include "runtime/report.h"
#include "runtime/stream.h"

using namespace acl_sim;
using namespace acl_sim::capi;

namespace {

aclError create_stream(const char* fn, aclrtStream* stream, uint32_t priority, uint32_t flag) {
  return api_call(fn, [&] {
    require_not_null(stream, "stream");
    rt();
    ACL_SIM_REQUIRE((flag & ~(ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC)) == 0, ACL_ERROR_INVALID_PARAM,
                    "flag 0x", std::hex, flag, " has bits other than ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC");
    Context& ctx = require_context();
    int prio = priority > 7 ? 7 : static_cast<int>(priority);  // out-of-range priorities are clamped, as in CANN
    *stream = ctx.adopt_stream(Stream::create(ctx.device(), &ctx, prio, flag));
  });
}

aclError destroy_stream(const char* fn, aclrtStream stream) {
  return api_call(fn, [&] {
    require_not_null(stream, "stream (the default stream cannot be destroyed)");
    auto s = rt().streams().remove(stream);
    if (!s) fail(ACL_ERROR_RT_PARAM_INVALID, "stream ", stream, " is not a live stream (never created or already destroyed)");
    if (uint64_t tid = s->report_thread()) {
      try {
        ReportRegistry::instance().unsubscribe(tid, *s);
      } catch (const Error&) {
      }
    }
    // CANN asks callers to synchronise first; waiting here keeps queued tasks from running on a dead stream.
    s->close();  // a racing call that resolved the handle just before gets 107000 when it enqueues
    try {
      s->synchronize();
    } catch (const Error&) {
    }
  });
}

}  // namespace

extern "C" {

ACL_FUNC_VISIBILITY aclError aclrtCreateStream(aclrtStream* stream) {
  return create_stream("aclrtCreateStream", stream, 0, 0);
}

ACL_FUNC_VISIBILITY aclError aclrtCreateStreamWithConfig(aclrtStream* stream, uint32_t priority, uint32_t flag) {
  return create_stream("aclrtCreateStreamWithConfig", stream, priority, flag);
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyStream(aclrtStream stream) { return destroy_stream("aclrtDestroyStream", stream); }

ACL_FUNC_VISIBILITY aclError aclrtDestroyStreamForce(aclrtStream stream) {
  return destroy_stream("aclrtDestroyStreamForce", stream);
}

ACL_FUNC_VISIBILITY aclError aclrtSynchronizeStream(aclrtStream stream) {
  return api_call("aclrtSynchronizeStream", [&] {
    rt();
    resolve_stream(stream)->synchronize();
  });
}

ACL_FUNC_VISIBILITY aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout) {
  return api_call("aclrtSynchronizeStreamWithTimeout", [&] {
    ACL_SIM_REQUIRE(timeout >= -1, ACL_ERROR_INVALID_PARAM, "timeout must be -1 (forever) or >= 0 ms, got ", timeout);
    rt();
    if (!resolve_stream(stream)->synchronize_for(timeout))
      fail(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, "stream ", stream, " did not finish within ", timeout, " ms");
  });
}

ACL_FUNC_VISIBILITY aclError aclrtStreamQuery(aclrtStream stream, aclrtStreamStatus* status) {
  return api_call("aclrtStreamQuery", [&] {
    require_not_null(status, "status");
    rt();
    *status = resolve_stream(stream)->idle() ? ACL_STREAM_STATUS_COMPLETE : ACL_STREAM_STATUS_NOT_READY;
  });
}

ACL_FUNC_VISIBILITY aclError aclrtStreamGetPriority(aclrtStream stream, uint32_t* priority) {
  return api_call("aclrtStreamGetPriority", [&] {
    require_not_null(priority, "priority");
    rt();
    *priority = static_cast<uint32_t>(resolve_stream(stream)->priority());
  });
}

ACL_FUNC_VISIBILITY aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event) {
  return api_call("aclrtStreamWaitEvent", [&] {
    require_not_null(event, "event");
    Runtime& r = rt();
    auto e = r.events().find(event);
    if (!e) fail(ACL_ERROR_RT_PARAM_INVALID, "event ", event, " is not a live event (never created or already destroyed)");
    e->wait_in(*resolve_stream(stream));
  });
}

}  // extern "C"
