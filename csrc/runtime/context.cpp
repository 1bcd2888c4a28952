#include "runtime/context.h"

#include "acl/acl_rt.h"
#include "common/error.h"
#include "runtime/device.h"
#include "runtime/stream.h"

namespace acl_sim {
namespace {
// shared_ptr, not a raw pointer: a context destroyed by another thread stays
// valid memory here and is reported as "no context" through destroyed().
thread_local std::shared_ptr<Context> t_current;
}  // namespace

Context::Context(Device& device, bool is_default) : device_(device), is_default_(is_default) {}

std::shared_ptr<Context> Context::create(Device& device, bool is_default) {
  auto ctx = std::make_shared<Context>(device, is_default);
  ctx->default_stream_ = Stream::create(device, ctx.get(), 0, 0, /*is_default=*/true);
  return ctx;
}

void Context::destroy() {
  if (destroyed_.exchange(true, std::memory_order_acq_rel)) return;
  // Wait for queued work; an error nobody synchronised for is dropped with the context.
  try {
    default_stream_->synchronize();
  } catch (const Error&) {
  }
}

Context* current_context() {
  Context* c = t_current.get();
  return c && !c->destroyed() ? c : nullptr;
}

std::shared_ptr<Context> current_context_ptr() {
  return t_current && !t_current->destroyed() ? t_current : nullptr;
}

Context& require_context() {
  Context* c = current_context();
  if (!c)
    fail(ACL_ERROR_RT_CONTEXT_NULL,
         "the calling thread has no current context: call aclrtSetDevice or aclrtSetCurrentContext on this thread first");
  return *c;
}

void set_current_context(std::shared_ptr<Context> ctx) { t_current = std::move(ctx); }

}  // namespace acl_sim
