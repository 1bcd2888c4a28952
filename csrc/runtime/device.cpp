#include "runtime/device.h"

#include <chrono>

#include "acl/acl_rt.h"
#include "common/log.h"
#include "runtime/context.h"
#include "runtime/stream.h"

namespace acl_sim {

Device::Device(int32_t id, const SocProfile& profile, size_t memory_size)
    : id_(id), profile_(profile), pool_(id, memory_size) {}

Device::~Device() = default;

std::shared_ptr<Context> Device::retain_default_context() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (default_context_) {
      ++default_refs_;
      return default_context_;
    }
  }
  // Created outside the lock: creating its stream registers with this device.
  auto fresh = Context::create(*this, /*is_default=*/true);
  std::lock_guard<std::mutex> lock(mu_);
  if (!default_context_) default_context_ = std::move(fresh);
  ++default_refs_;
  return default_context_;
}

std::shared_ptr<Context> Device::release_default_context() {
  std::shared_ptr<Context> ctx;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!default_context_ || --default_refs_ > 0) return nullptr;
    ctx = std::move(default_context_);
    default_refs_ = 0;
  }
  ctx->destroy();
  return ctx;
}

void Device::close_default_context() {
  std::shared_ptr<Context> ctx;
  {
    std::lock_guard<std::mutex> lock(mu_);
    ctx = std::move(default_context_);
    default_refs_ = 0;
  }
  if (ctx) ctx->destroy();
}

std::shared_ptr<Context> Device::default_context() const {
  std::lock_guard<std::mutex> lock(mu_);
  return default_context_;
}

void Device::add_stream(const std::shared_ptr<Stream>& s) {
  std::lock_guard<std::mutex> lock(mu_);
  // Prune dead entries now and then so create/destroy loops stay O(1) amortised.
  if (streams_.size() >= 64 && (streams_.size() & (streams_.size() - 1)) == 0) {
    size_t keep = 0;
    for (auto& w : streams_)
      if (!w.expired()) streams_[keep++] = std::move(w);
    streams_.resize(keep);
  }
  streams_.push_back(s);
}

std::vector<std::shared_ptr<Stream>> Device::streams() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::shared_ptr<Stream>> out;
  for (const auto& w : streams_)
    if (auto s = w.lock()) out.push_back(std::move(s));
  return out;
}

void Device::synchronize() { synchronize_for(-1); }

bool Device::synchronize_for(int32_t timeout_ms) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms < 0 ? 0 : timeout_ms);
  bool have_error = false;
  Error first{0, ""};
  for (auto& s : streams()) {
    int32_t left = -1;
    if (timeout_ms >= 0) {
      auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      left = static_cast<int32_t>(std::max<int64_t>(0, ms.count()));
    }
    try {
      if (!s->synchronize_for(left)) return false;
    } catch (const Error& e) {
      if (!have_error) first = e, have_error = true;
    }
  }
  if (have_error) throw first;
  return true;
}

}  // namespace acl_sim
