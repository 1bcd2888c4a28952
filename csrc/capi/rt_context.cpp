// Contexts: aclrtCreateContext ... aclrtGetCurrentContext.
#include "capi/rt_common.h"
#include "runtime/context.h"
#include "runtime/stream.h"

using namespace acl_sim;
using namespace acl_sim::capi;

namespace {
/** A live context for @p handle: an explicit one, or a device's default context. */
std::shared_ptr<Context> find_context(Runtime& r, aclrtContext handle) {
  if (auto c = r.contexts().find(handle)) return c;
  for (uint32_t i = 0; i < r.device_count(); ++i)
    if (Device* d = r.opened_device(static_cast<int32_t>(i)))
      if (auto c = d->default_context(); c && c.get() == handle) return c;
  return nullptr;
}
}  // namespace

extern "C" {

ACL_FUNC_VISIBILITY aclError aclrtCreateContext(aclrtContext* context, int32_t deviceId) {
  return api_call("aclrtCreateContext", [&] {
    require_not_null(context, "context");
    Runtime& r = rt();
    auto ctx = Context::create(r.device(deviceId), /*is_default=*/false);
    *context = r.contexts().add(ctx);
    set_current_context(std::move(ctx));
  });
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyContext(aclrtContext context) {
  return api_call("aclrtDestroyContext", [&] {
    require_not_null(context, "context");
    Runtime& r = rt();
    auto ctx = r.contexts().remove(context);
    if (!ctx) {
      if (find_context(r, context))
        fail(ACL_ERROR_INVALID_PARAM, "context ", context,
             " is a device's default context: release it with aclrtResetDevice, not aclrtDestroyContext");
      fail(ACL_ERROR_RT_PARAM_INVALID, "context ", context, " is not a live context (never created or already destroyed)");
    }
    ctx->destroy();
    if (current_context_ptr() == ctx) set_current_context(nullptr);
  });
}

ACL_FUNC_VISIBILITY aclError aclrtSetCurrentContext(aclrtContext context) {
  return api_call("aclrtSetCurrentContext", [&] {
    require_not_null(context, "context");
    auto ctx = find_context(rt(), context);
    if (!ctx) fail(ACL_ERROR_RT_PARAM_INVALID, "context ", context, " is not a live context (never created or already destroyed)");
    set_current_context(std::move(ctx));
  });
}

ACL_FUNC_VISIBILITY aclError aclrtGetCurrentContext(aclrtContext* context) {
  return api_call("aclrtGetCurrentContext", [&] {
    require_not_null(context, "context");
    rt();
    *context = &require_context();
  });
}

}  // extern "C"
