// Streams: in-order asynchronous task queues. No OS thread per stream: a
// small dynamic set of drainer threads (stream_scheduler.h) runs whichever
// streams have work, highest priority first. A stream that waits for an event
// or a blocking callback is parked, not blocking a thread.
#pragma once

#include "runtime/export.h"

#include <acl/acl_base.h>

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "common/error.h"

namespace acl_sim {

class Device;
class Context;
class Stream;

/** A unit of stream work. It runs on a drainer thread; a throw stores the Error in the stream. */
using Task = std::function<void()>;

/** Something a stream can wait on without holding a thread (event records, blocking callbacks). */
class ACL_SIM_RT_API Waitable {
 public:
  virtual ~Waitable() = default;
  /** True if already satisfied; otherwise arrange for s->resume() when it is, and return false. Thread-safe. */
  virtual bool ready_or_subscribe(const std::shared_ptr<Stream>& s) = 0;
  /** Once ready: an error the stream stores as if a task had thrown it (a failed collective), or nullptr. */
  virtual const Error* failure() const { return nullptr; }
};

/** The work a stream recorded while capturing (aclmdlRICaptureBegin .. End): replayable on any stream. */
class ACL_SIM_RT_API TaskGraph {
 public:
  /** Enqueue copies of the recorded tasks and waits on @p s, in recording order. Thread-safe. */
  void replay(Stream& s) const;
  size_t size() const;
  /** Append one recorded entry (Stream calls this while capturing). */
  void record(Task task, std::shared_ptr<Waitable> wait, const char* name);

 private:
  struct Recorded {
    Task task;
    std::shared_ptr<Waitable> wait;
    const char* name;
  };
  mutable std::mutex mu_;
  std::vector<Recorded> entries_;
};

class ACL_SIM_RT_API Stream : public std::enable_shared_from_this<Stream> {
 public:
  static constexpr int kPriorities = 8;  // 0 highest .. 7 lowest

  /** Use create(). @p priority is clamped to [0,7]. */
  Stream(Device& device, Context* context, int priority, uint32_t flags, bool is_default);
  static std::shared_ptr<Stream> create(Device& device, Context* context, int priority = 0, uint32_t flags = 0,
                                        bool is_default = false);
  ~Stream();

  /** Append @p task; it runs after every earlier task of this stream. Returns immediately. Thread-safe.
   *  A task that throws stores its Error; later tasks still run, and the next synchronize() rethrows it.
   *  Throws ACL_ERROR_RT_PARAM_INVALID (107000) once the stream is closed. */
  void enqueue(Task task);
  /** As enqueue(task); @p name (a string literal) labels the task's span in profiler traces. */
  void enqueue(const char* name, Task task);
  /** Later tasks wait until @p w is satisfied. Thread-safe. Returns true when the stream was capturing
   *  (@p w was recorded into the graph, to be queued by each replay) rather than queued now. */
  bool enqueue_wait(std::shared_ptr<Waitable> w);
  /** Run @p fn as this stream's next task and wait for it, as enqueue(name, fn) + synchronize() would, but
   *  on the calling thread when the stream is idle (no thread hand-off, no wake-ups): the stream counts
   *  as busy meanwhile, so tasks enqueued by other threads run after it. A synchronous API (aclmdlExecute)
   *  uses it. Throws the first stored Error of an earlier task, else @p fn's own. */
  void run_and_wait(const char* name, const std::function<void()>& fn);
  /** Wait until every task enqueued so far has run; rethrows (and clears) the first stored Error. */
  void synchronize();
  /** As synchronize() with a deadline: @p timeout_ms -1 waits forever, 0 polls. False on timeout. */
  bool synchronize_for(int32_t timeout_ms);
  /** aclrtDestroyStream / context destroy: refuse new work (107000); queued tasks still run. Thread-safe. */
  void close();
  /** True when every enqueued task has run (aclrtStreamQuery). */
  bool idle() const;

  Device& device() const { return device_; }
  Context* context() const { return context_; }
  int priority() const { return priority_; }
  uint32_t flags() const { return flags_; }
  bool is_default() const { return is_default_; }
  /** Record instead of run (aclmdlRICaptureBegin): later enqueue()/enqueue_wait() calls append to @p graph
   *  until end_capture(). Throws 107000 when already capturing. */
  void begin_capture(std::shared_ptr<TaskGraph> graph);
  /** Stop recording and return the graph; throws 107000 when not capturing. */
  std::shared_ptr<TaskGraph> end_capture();
  /** The graph being recorded, or nullptr. */
  std::shared_ptr<TaskGraph> capture() const;

  /** Tasks enqueued but not yet finished. */
  uint64_t pending() const;

  /** Callback subscription (aclrtSubscribeReport): 0 when none. */
  uint64_t report_thread() const;
  void set_report_thread(uint64_t tid);

  /** A parked stream's Waitable was satisfied: schedule it again. Thread-safe. */
  void resume();
  /** Scheduler entry: run up to @p budget tasks on the calling drainer. */
  void drain(size_t budget);

 private:
  struct Entry {
    Task task;
    std::shared_ptr<Waitable> wait;
    const char* name = "task";
  };
  void schedule_locked(std::unique_lock<std::mutex>& lock);

  Device& device_;
  Context* context_;
  int priority_;
  uint32_t flags_;
  bool is_default_;

  mutable std::mutex mu_;
  std::condition_variable done_cv_;
  std::deque<Entry> queue_;
  uint64_t enqueued_ = 0;
  uint64_t completed_ = 0;
  int sync_waiters_ = 0;
  bool scheduled_ = false;  // in the ready queue, running on a drainer, or parked on a Waitable
  bool error_set_ = false;
  bool closed_ = false;
  Error error_{0, ""};
  uint64_t report_tid_ = 0;
  std::shared_ptr<TaskGraph> capture_;
};

/** The stream for a C handle: 0 → default stream of the current context (107002 if none); otherwise
 *  the live stream (107000 for unknown or destroyed handles). The caller owns a reference: hold it
 *  for the whole call (and capture it in tasks) so a concurrent aclrtDestroyStream cannot free it. */
ACL_SIM_RT_API std::shared_ptr<Stream> resolve_stream(aclrtStream s);

}  // namespace acl_sim
