#include "hccl/collective_watchdog.h"

#include <condition_variable>
#include <map>
#include <mutex>
#include <thread>

#include "hccl/local_group.h"

namespace acl_sim::hccl {
namespace {

struct Watchdog {
  struct Entry {
    std::weak_ptr<LocalGroup> group;
    uint64_t seq;
  };
  std::mutex mu;
  std::condition_variable cv;
  std::map<WatchToken, Entry> entries;  // ordered by deadline
  uint64_t next_id = 0;
  bool running = false;
  Deadline::Clock::time_point sleeping_until = Deadline::Clock::time_point::max();

  void loop() {
    std::unique_lock<std::mutex> lock(mu);
    for (;;) {
      if (entries.empty()) {
        sleeping_until = Deadline::Clock::time_point::max();
        cv.wait(lock);
        continue;
      }
      auto first = entries.begin();
      if (Deadline::Clock::now() < first->first.first) {
        sleeping_until = first->first.first;
        cv.wait_until(lock, sleeping_until);
        continue;
      }
      Entry e = first->second;
      entries.erase(first);
      lock.unlock();
      if (auto g = e.group.lock()) g->expire(e.seq);
      lock.lock();
    }
  }
};

Watchdog& watchdog() {
  // Never destroyed: its thread is detached and may outlive static destructors.
  static Watchdog* w = new Watchdog();
  return *w;
}

}  // namespace

WatchToken watch_collective(const std::shared_ptr<LocalGroup>& group, uint64_t seq, Deadline::Clock::time_point at) {
  Watchdog& w = watchdog();
  std::lock_guard<std::mutex> lock(w.mu);
  WatchToken token{at, w.next_id++};
  w.entries.emplace(token, Watchdog::Entry{group, seq});
  if (!w.running) {
    w.running = true;
    std::thread([&w] { w.loop(); }).detach();
  } else if (at < w.sleeping_until) {
    w.cv.notify_one();
  }
  return token;
}

void cancel_watch(const WatchToken& token) {
  Watchdog& w = watchdog();
  std::lock_guard<std::mutex> lock(w.mu);
  w.entries.erase(token);
}

}  // namespace acl_sim::hccl
