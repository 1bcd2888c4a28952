// What the runtime announces to the layers above it. The profiler (csrc/prof) installs an
// observer while it records; the runtime itself knows nothing of profiling. One observer at a
// time; with none installed each announcement costs one atomic load.
#pragma once

#include <atomic>
#include <cstddef>


namespace acl_sim {

class Stream;

class RuntimeObserver {
 public:
  /** Around every stream task (queued tasks and Stream::run_and_wait), on the thread that runs it.
   *  Begin/end pair up on that thread and nest (a task may run another stream's task inline);
   *  end goes to the observer that saw begin even if it was uninstalled in between. */
  virtual void task_begin(const Stream& stream, const char* name) = 0;
  virtual void task_end(const Stream& stream, const char* name) = 0;
  /** Device @p device's pool now has @p bytes in use (after an allocation or a free), called
   *  under the pool's lock: do not call back into the pool. */
  virtual void memory_used(int device, size_t bytes) = 0;

 protected:
  ~RuntimeObserver() = default;
};

namespace detail {
extern std::atomic<RuntimeObserver*> g_runtime_observer;
}

/** Install @p observer (nullptr: none). Observers are never destroyed while installed or while a
 *  task that began under them runs: use process-lifetime objects. Thread-safe. */
void set_runtime_observer(RuntimeObserver* observer);

/** The installed observer, or nullptr. */
inline RuntimeObserver* runtime_observer() { return detail::g_runtime_observer.load(std::memory_order_acquire); }

/** RAII: announces one stream task to the observer installed when it begins. */
class ObservedTask {
 public:
  ObservedTask(const Stream& stream, const char* name) : observer_(runtime_observer()), stream_(stream), name_(name) {
    if (observer_) observer_->task_begin(stream_, name_);
  }
  ~ObservedTask() {
    if (observer_) observer_->task_end(stream_, name_);
  }
  ObservedTask(const ObservedTask&) = delete;
  ObservedTask& operator=(const ObservedTask&) = delete;

 private:
  RuntimeObserver* observer_;
  const Stream& stream_;
  const char* name_;
};

}  // namespace acl_sim
