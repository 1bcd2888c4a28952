#include "runtime/event.h"

#include <chrono>

#include "common/clock.h"
#include "runtime/stream.h"

namespace acl_sim {

int64_t now_ns() { return static_cast<int64_t>(monotonic_ns()); }

/** A stream's wait for generation @p gen of an event (aclrtStreamWaitEvent). */
class EventWait : public Waitable {
 public:
  EventWait(std::shared_ptr<Event> e, uint64_t gen) : event_(std::move(e)), gen_(gen) {}
  bool ready_or_subscribe(const std::shared_ptr<Stream>& s) override {
    std::lock_guard<std::mutex> lock(event_->mu_);
    if (event_->completed_gen_ >= gen_) return true;
    event_->waiters_.emplace_back(gen_, s);
    return false;
  }

 private:
  std::shared_ptr<Event> event_;
  uint64_t gen_;
};

Event::Event(uint32_t flags) : flags_(flags) {}

void Event::record(Stream& s) {
  uint64_t gen;
  bool had_record;
  {
    std::lock_guard<std::mutex> lock(mu_);
    gen = ++recorded_gen_;
    had_record = has_record_;
    has_record_ = true;
  }
  auto self = shared_from_this();
  try {
    s.enqueue("event_record", [self, gen] { self->complete(gen); });
  } catch (...) {
    // The stream refused the marker (destroyed meanwhile): undo the record, or, if a newer record
    // already followed, complete this generation so nobody waits for a marker that never runs.
    bool undone = false;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (recorded_gen_ == gen) {
        recorded_gen_ = gen - 1;
        has_record_ = had_record;
        undone = true;
      }
    }
    if (!undone) complete(gen);
    throw;
  }
}

void Event::complete(uint64_t gen) {
  std::vector<std::shared_ptr<Stream>> wake;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (gen > completed_gen_) {
      completed_gen_ = gen;
      timestamp_ns_ = now_ns();
    }
    for (size_t i = 0; i < waiters_.size();) {
      if (waiters_[i].first <= completed_gen_) {
        if (auto st = waiters_[i].second.lock()) wake.push_back(std::move(st));
        waiters_[i] = std::move(waiters_.back());
        waiters_.pop_back();
      } else {
        ++i;
      }
    }
  }
  cv_.notify_all();
  for (auto& st : wake) st->resume();
}

void Event::reset(Stream& s) {
  uint64_t gen;
  {
    std::lock_guard<std::mutex> lock(mu_);
    gen = recorded_gen_;
  }
  auto self = shared_from_this();
  // Only forget the record if no newer record() was issued after this reset.
  s.enqueue([self, gen] {
    std::lock_guard<std::mutex> lock(self->mu_);
    if (self->recorded_gen_ == gen) self->has_record_ = false;
  });
}

void Event::wait_in(Stream& s) {
  uint64_t gen;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!has_record_ || completed_gen_ >= recorded_gen_) return;  // nothing outstanding to wait for
    gen = recorded_gen_;
  }
  s.enqueue_wait(std::make_shared<EventWait>(shared_from_this(), gen));
}

bool Event::completed() const {
  std::lock_guard<std::mutex> lock(mu_);
  return has_record_ && completed_gen_ >= recorded_gen_;
}

bool Event::recorded() const {
  std::lock_guard<std::mutex> lock(mu_);
  return has_record_;
}

bool Event::synchronize_for(int32_t timeout_ms) {
  std::unique_lock<std::mutex> lock(mu_);
  uint64_t target = recorded_gen_;
  auto done = [&] { return completed_gen_ >= target; };
  if (timeout_ms < 0) {
    cv_.wait(lock, done);
    return true;
  }
  return cv_.wait_for(lock, std::chrono::milliseconds(timeout_ms), done);
}

int64_t Event::timestamp_ns() const {
  std::lock_guard<std::mutex> lock(mu_);
  return has_record_ && completed_gen_ >= recorded_gen_ ? timestamp_ns_ : -1;
}

}  // namespace acl_sim
