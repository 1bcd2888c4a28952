#include "runtime/context.h"

#include "acl/acl_rt.h"
#include "common/error.h"
#include "runtime/device.h"
#include "runtime/report.h"
#include "runtime/runtime.h"
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
  ctx->handle_ = Runtime::get().contexts().add(ctx);
  return ctx;
}

aclrtStream Context::adopt_stream(const std::shared_ptr<Stream>& s) {
  std::lock_guard<std::mutex> lock(mu_);
  // Checked under mu_, which destroy() also takes: a stream is either adopted before the context is
  // destroyed (and then destroyed with it) or refused.
  if (destroyed())
    fail(ACL_ERROR_RT_CONTEXT_NULL, "the current context was destroyed: streams cannot be created in it");
  if (streams_.size() >= 64 && (streams_.size() & (streams_.size() - 1)) == 0) {
    size_t keep = 0;
    for (auto& w : streams_)
      if (!w.expired()) streams_[keep++] = std::move(w);
    streams_.resize(keep);
  }
  streams_.push_back(s);
  return Runtime::get().streams().add(s);
}

bool Context::destroy() {
  std::vector<std::weak_ptr<Stream>> streams;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (destroyed_.exchange(true, std::memory_order_acq_rel)) return false;
    streams.swap(streams_);
  }
  Runtime& r = Runtime::get();
  r.contexts().remove(handle_);
  std::vector<std::shared_ptr<Stream>> retired{default_stream_};
  for (auto& w : streams)
    if (auto s = w.lock()) {
      if (aclrtStream h = r.streams().handle_of(s.get())) r.streams().remove(h);
      retired.push_back(std::move(s));
    }
  // Close first (a call that resolved a stream just before now gets 107000 when it enqueues), then
  // wait for queued work; an error nobody synchronised for is dropped with the context.
  for (auto& s : retired) {
    s->close();
    if (uint64_t tid = s->report_thread()) {  // callback subscriptions go with the stream
      try {
        ReportRegistry::instance().unsubscribe(tid, *s);
      } catch (const Error&) {
      }
    }
  }
  for (auto& s : retired) {
    try {
      s->synchronize();
    } catch (const Error&) {
    }
  }
  return true;
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
