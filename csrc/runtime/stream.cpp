#include "runtime/stream.h"

#include <algorithm>
#include <chrono>
#include <optional>

#include "acl/acl_rt.h"
#include "common/fault_injection.h"
#include "common/log.h"
#include "prof/profiler.h"
#include "runtime/context.h"
#include "runtime/device.h"
#include "runtime/runtime.h"
#include "runtime/stream_scheduler.h"

namespace acl_sim {

Stream::Stream(Device& device, Context* context, int priority, uint32_t flags, bool is_default)
    : device_(device),
      context_(context),
      priority_(std::clamp(priority, 0, kPriorities - 1)),
      flags_(flags),
      is_default_(is_default) {}

std::shared_ptr<Stream> Stream::create(Device& device, Context* context, int priority, uint32_t flags,
                                       bool is_default) {
  auto s = std::make_shared<Stream>(device, context, priority, flags, is_default);
  device.add_stream(s);
  return s;
}

Stream::~Stream() = default;

void Stream::schedule_locked(std::unique_lock<std::mutex>& lock) {
  if (scheduled_) return;
  scheduled_ = true;
  lock.unlock();
  StreamScheduler::instance().make_ready(shared_from_this());
}

void Stream::enqueue(Task task) { enqueue("task", std::move(task)); }

void Stream::enqueue(const char* name, Task task) {
  std::unique_lock<std::mutex> lock(mu_);
  if (closed_) fail(ACL_ERROR_RT_PARAM_INVALID, "the stream was destroyed (or its context was)");
  if (capture_) return capture_->record(std::move(task), nullptr, name);
  queue_.push_back(Entry{std::move(task), nullptr, name});
  ++enqueued_;
  schedule_locked(lock);
}

bool Stream::enqueue_wait(std::shared_ptr<Waitable> w) {
  std::unique_lock<std::mutex> lock(mu_);
  if (closed_) fail(ACL_ERROR_RT_PARAM_INVALID, "the stream was destroyed (or its context was)");
  if (capture_) {
    capture_->record(nullptr, std::move(w), "wait");
    return true;
  }
  queue_.push_back(Entry{nullptr, std::move(w)});
  ++enqueued_;
  schedule_locked(lock);
  return false;
}

void Stream::begin_capture(std::shared_ptr<TaskGraph> graph) {
  std::lock_guard<std::mutex> lock(mu_);
  ACL_SIM_REQUIRE(!capture_, ACL_ERROR_RT_PARAM_INVALID, "the stream is already capturing (aclmdlRICaptureEnd first)");
  capture_ = std::move(graph);
}

std::shared_ptr<TaskGraph> Stream::end_capture() {
  std::lock_guard<std::mutex> lock(mu_);
  ACL_SIM_REQUIRE(capture_ != nullptr, ACL_ERROR_RT_PARAM_INVALID, "the stream is not capturing (aclmdlRICaptureBegin first)");
  return std::move(capture_);
}

std::shared_ptr<TaskGraph> Stream::capture() const {
  std::lock_guard<std::mutex> lock(mu_);
  return capture_;
}

void TaskGraph::record(Task task, std::shared_ptr<Waitable> wait, const char* name) {
  std::lock_guard<std::mutex> lock(mu_);
  entries_.push_back(Recorded{std::move(task), std::move(wait), name});
}

size_t TaskGraph::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return entries_.size();
}

void TaskGraph::replay(Stream& s) const {
  std::vector<Recorded> copy;
  {
    std::lock_guard<std::mutex> lock(mu_);
    copy = entries_;  // unlocked while enqueueing: s may be capturing into this very graph
  }
  for (Recorded& r : copy) {
    if (r.wait) s.enqueue_wait(std::move(r.wait));
    else s.enqueue(r.name, std::move(r.task));
  }
}

void Stream::resume() { StreamScheduler::instance().make_ready(shared_from_this()); }

void Stream::drain(size_t budget) {
  std::shared_ptr<Stream> self = shared_from_this();
  std::unique_lock<std::mutex> lock(mu_);
  for (size_t n = 0; n < budget; ++n) {
    if (queue_.empty()) {
      scheduled_ = false;
      return;
    }
    Entry& front = queue_.front();
    if (front.wait) {
      std::shared_ptr<Waitable> w = front.wait;
      lock.unlock();
      bool ready = w->ready_or_subscribe(self);  // may call resume() at once from another thread
      lock.lock();
      if (!ready) return;  // parked: stays scheduled_; resume() puts it back in the ready queue
      if (const Error* e = w->failure(); e && !error_set_) error_ = *e, error_set_ = true;
      queue_.pop_front();
    } else {
      Task task = std::move(front.task);
      const char* task_name = front.name;
      queue_.pop_front();
      lock.unlock();
      fault::maybe_stall_task();  // hardening tests: ACL_SIM_FAULT_STALL_TASK_MS
      // Profiling: the task, and every op it runs, land on this stream's track of its device.
      std::optional<prof::ScopedTrack> track;
      std::optional<prof::TaskSpan> span;
      if (prof::enabled()) {
        track.emplace(device_.id(), prof::stream_track(this, device_.id(), is_default_));
        span.emplace(task_name);
      }
      try {
        task();
      } catch (const Error& e) {
        std::lock_guard<std::mutex> g(mu_);
        if (!error_set_) error_ = e, error_set_ = true;
      } catch (const std::exception& e) {
        std::lock_guard<std::mutex> g(mu_);
        if (!error_set_) error_ = Error(ACL_ERROR_RT_INTERNAL_ERROR, e.what()), error_set_ = true;
      } catch (...) {
        std::lock_guard<std::mutex> g(mu_);
        if (!error_set_) error_ = Error(ACL_ERROR_RT_INTERNAL_ERROR, "unknown exception in a stream task"), error_set_ = true;
      }
      task = nullptr;  // release captures before reporting completion
      lock.lock();
    }
    ++completed_;
    if (sync_waiters_ && completed_ == enqueued_) done_cv_.notify_all();
  }
  // Budget used up: let other streams of the same priority run, then continue.
  if (queue_.empty()) {
    scheduled_ = false;
    return;
  }
  lock.unlock();
  StreamScheduler::instance().make_ready(std::move(self));
}

void Stream::run_and_wait(const char* name, const std::function<void()>& fn) {
  std::unique_lock<std::mutex> lock(mu_);
  if (capture_) return capture_->record(fn, nullptr, name);  // capturing: recorded like any other task
  if (scheduled_ || !queue_.empty()) {
    lock.unlock();
    enqueue(name, fn);
    synchronize();
    return;
  }
  scheduled_ = true;  // later enqueues queue up behind this run and are scheduled when it ends
  ++enqueued_;
  lock.unlock();
  std::optional<Error> failure;
  {
    fault::maybe_stall_task();
    std::optional<prof::ScopedTrack> track;
    std::optional<prof::TaskSpan> span;
    if (prof::enabled()) {
      track.emplace(device_.id(), prof::stream_track(this, device_.id(), is_default_));
      span.emplace(name);
    }
    try {
      fn();
    } catch (const Error& e) {
      failure = e;
    } catch (const std::exception& e) {
      failure = Error(ACL_ERROR_RT_INTERNAL_ERROR, e.what());
    } catch (...) {
      failure = Error(ACL_ERROR_RT_INTERNAL_ERROR, "unknown exception in a stream task");
    }
  }
  lock.lock();
  ++completed_;
  if (queue_.empty()) {
    scheduled_ = false;
  } else {
    lock.unlock();
    StreamScheduler::instance().make_ready(shared_from_this());
    lock.lock();
  }
  if (sync_waiters_ && completed_ == enqueued_) done_cv_.notify_all();
  if (error_set_) {  // an earlier task's error comes first, as synchronize() would report it
    error_set_ = false;
    Error e = error_;
    throw e;
  }
  if (failure) throw *failure;
}

void Stream::synchronize() { synchronize_for(-1); }

bool Stream::synchronize_for(int32_t timeout_ms) {
  std::unique_lock<std::mutex> lock(mu_);
  uint64_t target = enqueued_;
  auto done = [&] { return completed_ >= target; };
  if (!done()) {
    if (timeout_ms == 0) return false;
    ++sync_waiters_;
    if (timeout_ms < 0) {
      done_cv_.wait(lock, done);
    } else if (!done_cv_.wait_for(lock, std::chrono::milliseconds(timeout_ms), done)) {
      --sync_waiters_;
      return false;
    }
    --sync_waiters_;
  }
  if (error_set_) {
    error_set_ = false;
    Error e = error_;
    throw e;
  }
  return true;
}

void Stream::close() {
  std::lock_guard<std::mutex> lock(mu_);
  closed_ = true;
}

bool Stream::idle() const {
  std::lock_guard<std::mutex> lock(mu_);
  return completed_ == enqueued_;
}

uint64_t Stream::pending() const {
  std::lock_guard<std::mutex> lock(mu_);
  return enqueued_ - completed_;
}

uint64_t Stream::report_thread() const {
  std::lock_guard<std::mutex> lock(mu_);
  return report_tid_;
}

void Stream::set_report_thread(uint64_t tid) {
  std::lock_guard<std::mutex> lock(mu_);
  report_tid_ = tid;
}

std::shared_ptr<Stream> resolve_stream(aclrtStream s) {
  if (!s) return require_context().default_stream_ptr();
  auto p = Runtime::get().streams().find(s);
  if (!p) fail(ACL_ERROR_RT_PARAM_INVALID, "stream ", s, " is not a live stream (never created or already destroyed)");
  return p;
}

}  // namespace acl_sim
