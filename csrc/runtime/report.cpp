#include "runtime/report.h"

#include <pthread.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "common/error.h"
#include "runtime/runtime.h"
#include "runtime/stream.h"

namespace acl_sim {
namespace {

/** One launched callback; as a Waitable it is satisfied once fn has returned. */
class CallbackItem : public Waitable {
 public:
  CallbackItem(aclrtCallback fn, void* data) : fn_(fn), data_(data) {}

  void run() {
    try {
      fn_(data_);
    } catch (...) {
      // A C callback cannot throw; a Python trampoline reports its own errors.
    }
    finish();
  }

  void finish() {
    std::vector<std::shared_ptr<Stream>> wake;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (done_) return;
      done_ = true;
      for (auto& w : waiters_)
        if (auto s = w.lock()) wake.push_back(std::move(s));
      waiters_.clear();
    }
    for (auto& s : wake) s->resume();
  }

  bool ready_or_subscribe(const std::shared_ptr<Stream>& s) override {
    std::lock_guard<std::mutex> lock(mu_);
    if (done_) return true;
    waiters_.push_back(s);
    return false;
  }

 private:
  aclrtCallback fn_;
  void* data_;
  std::mutex mu_;
  bool done_ = false;
  std::vector<std::weak_ptr<Stream>> waiters_;
};

struct ThreadQueue {
  std::deque<std::shared_ptr<CallbackItem>> items;
  size_t subscriptions = 0;
};

}  // namespace

struct ReportRegistry::Impl {
  std::mutex mu;
  std::condition_variable cv;  // items posted or subscriptions changed
  std::unordered_map<uint64_t, ThreadQueue> threads;
  std::unordered_map<const Stream*, uint64_t> stream_thread;
};

uint64_t current_thread_id() { return static_cast<uint64_t>(pthread_self()); }

ReportRegistry::ReportRegistry() : impl_(new Impl) {}

ReportRegistry& ReportRegistry::instance() {
  static ReportRegistry* r = [] {
    auto* reg = new ReportRegistry();
    Runtime::get().on_finalize("callbacks", [reg] { reg->clear(); });
    return reg;
  }();
  return *r;
}

void ReportRegistry::subscribe(uint64_t tid, Stream& s) {
  ACL_SIM_REQUIRE(tid != 0, ACL_ERROR_INVALID_PARAM, "threadId must not be 0");
  std::lock_guard<std::mutex> lock(impl_->mu);
  auto it = impl_->stream_thread.find(&s);
  if (it != impl_->stream_thread.end())
    fail(ACL_ERROR_REPEAT_SUBSCRIBE, "stream ", static_cast<const void*>(&s), " is already subscribed by thread ",
         it->second, "; a stream reports to one thread");
  impl_->stream_thread[&s] = tid;
  impl_->threads[tid].subscriptions++;
  s.set_report_thread(tid);
  impl_->cv.notify_all();
}

void ReportRegistry::unsubscribe(uint64_t tid, Stream& s) {
  std::lock_guard<std::mutex> lock(impl_->mu);
  auto it = impl_->stream_thread.find(&s);
  if (it == impl_->stream_thread.end() || it->second != tid)
    fail(ACL_ERROR_STREAM_NOT_SUBSCRIBE, "stream ", static_cast<const void*>(&s), " is not subscribed by thread ", tid);
  impl_->stream_thread.erase(it);
  auto& q = impl_->threads[tid];
  if (q.subscriptions) q.subscriptions--;
  s.set_report_thread(0);
  // Callbacks already posted stay queued: the thread may still process them.
}

void ReportRegistry::launch(aclrtCallback fn, void* user_data, bool block, Stream& s) {
  uint64_t tid = s.report_thread();
  if (!tid)
    fail(ACL_ERROR_RT_STREAM_NO_CB_REG, "stream ", static_cast<const void*>(&s),
         " has no callback thread: call aclrtSubscribeReport(threadId, stream) first");
  auto item = std::make_shared<CallbackItem>(fn, user_data);
  Impl* im = impl_;
  s.enqueue("callback", [im, tid, item] {
    std::lock_guard<std::mutex> lock(im->mu);
    im->threads[tid].items.push_back(item);
    im->cv.notify_all();
  });
  if (block) s.enqueue_wait(item);
}

void ReportRegistry::process(int32_t timeout_ms) {
  uint64_t tid = current_thread_id();
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms < 0 ? 0 : timeout_ms);
  std::shared_ptr<CallbackItem> item;
  {
    std::unique_lock<std::mutex> lock(impl_->mu);
    auto has_item = [&] {
      auto it = impl_->threads.find(tid);
      return it != impl_->threads.end() && !it->second.items.empty();
    };
    auto subscribed = [&] {
      auto it = impl_->threads.find(tid);
      return it != impl_->threads.end() && (it->second.subscriptions > 0 || !it->second.items.empty());
    };
    // A thread that has not subscribed yet waits for a subscription (the usual start-up order is
    // start thread, then subscribe) instead of spinning on an immediate error.
    if (timeout_ms < 0) {
      impl_->cv.wait(lock, has_item);
    } else if (!impl_->cv.wait_until(lock, deadline, has_item)) {
      if (!subscribed())
        fail(ACL_ERROR_RT_THREAD_SUBSCRIBE, "thread ", tid, " has not subscribed any stream (aclrtSubscribeReport)");
      fail(ACL_ERROR_WAIT_CALLBACK_TIMEOUT, "no callback arrived within ", timeout_ms, " ms");
    }
    auto& q = impl_->threads[tid].items;
    item = std::move(q.front());
    q.pop_front();
  }
  item->run();
}

void ReportRegistry::clear() {
  std::vector<std::shared_ptr<CallbackItem>> pending;
  {
    std::lock_guard<std::mutex> lock(impl_->mu);
    for (auto& kv : impl_->threads)
      for (auto& it : kv.second.items) pending.push_back(it);
    impl_->threads.clear();
    impl_->stream_thread.clear();
    impl_->cv.notify_all();
  }
  for (auto& it : pending) it->finish();
}

}  // namespace acl_sim
