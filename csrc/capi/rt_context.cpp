// Contexts: aclrtCreateContext ... aclrtGetCurrentContext.
#include "capi/rt_common.h"
#include "runtime/context.h"
#include "runtime/stream.h"

using namespace acl_sim;
using namespace acl_sim::capi;

namespace {
std::shared_ptr<Context> find_context(Runtime& r, aclrtContext handle) {
  auto c = r.contexts().find(handle);
  if (!c) fail(ACL_ERROR_RT_PARAM_INVALID, "context ", handle, " is not a live context (never created or already destroyed)");
  return c;
}
}  // namespace

extern "C" {

ACL_FUNC_VISIBILITY aclError aclrtCreateContext(aclrtContext* context, int32_t deviceId) {
  return api_call("aclrtCreateContext", [&] {
    require_not_null(context, "context");
    Runtime& r = rt();
    auto ctx = Context::create(r.device(deviceId), /*is_default=*/false);
    *context = ctx->handle();
    set_current_context(std::move(ctx));
  });
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyContext(aclrtContext context) {
  return api_call("aclrtDestroyContext", [&] {
    require_not_null(context, "context");
    Runtime& r = rt();
    auto ctx = find_context(r, context);
    if (ctx->is_default())
      fail(ACL_ERROR_INVALID_PARAM, "context ", context,
           " is a device's default context: release it with aclrtResetDevice, not aclrtDestroyContext");
    if (!ctx->destroy())
      fail(ACL_ERROR_RT_PARAM_INVALID, "context ", context, " is not a live context (destroyed by another thread)");
    if (current_context_ptr() == ctx) set_current_context(nullptr);
  });
}

ACL_FUNC_VISIBILITY aclError aclrtSetCurrentContext(aclrtContext context) {
  return api_call("aclrtSetCurrentContext", [&] {
    require_not_null(context, "context");
    auto ctx = find_context(rt(), context);
    set_current_context(std::move(ctx));
  });
}

ACL_FUNC_VISIBILITY aclError aclrtGetCurrentContext(aclrtContext* context) {
  return api_call("aclrtGetCurrentContext", [&] {
    require_not_null(context, "context");
    rt();
    *context = require_context().handle();
  });
}

}  // extern "C"
