// Trace records from runtime and executor announcements (contract in execution_observer.h):
//  - a stream task is a "task" span on its stream's track, and everything recorded while it
//    runs (model nodes, kernel launches) lands on that track: the track is per thread, set at
//    task_begin and restored at task_end;
//  - each pool worker's share of an op's fork is a "blocks" span on its AI-core track, merged
//    with its previous share of the same op (busy_span);
//  - each kernel block is a "block" span on the AI-core track of the thread that ran it, and a
//    launch is one op record on the launching stream's track;
//  - pool usage is the "device memory used" counter.
// Tags handed to the executor point at the forking / launching thread's ThreadTrace, which that
// thread does not change while it waits for the fork or launch.
#include "prof/execution_observer.h"

#include <atomic>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "executor/block_launch.h"
#include "executor/executor_observer.h"
#include "prof/profiler.h"
#include "runtime/device.h"
#include "runtime/runtime_observer.h"
#include "runtime/stream.h"

namespace acl_sim::prof {
namespace {

struct ThreadTrace {
  Track track;
  bool has_track = false;
  std::string op_label;
  // Pool use of the forks this thread opened (take_pool_use). Workers add their shares while the
  // owner waits in parallelize(); the owner reads them after fork_end, so relaxed atomics suffice.
  uint32_t threads = 0;
  uint64_t forks = 0, fork_ns = 0, fork_begin_ns = 0, indices = 0, index_slots = 0, caller_sleeps = 0;
  uint64_t caller_ns = 0;
  std::atomic<uint64_t> worker_ns{0}, wake_ns{0}, shares{0};
};
thread_local ThreadTrace t_trace;

struct TaskFrame {
  Track saved;
  bool saved_has_track;
  uint64_t start_ns;
};
thread_local std::vector<TaskFrame> t_tasks;

int pid_of(const ThreadTrace& t) { return t.has_track ? t.track.pid : kHostPid; }

class ExecutionObserver final : public RuntimeObserver, public ExecutorObserver {
 public:
  void task_begin(const Stream& stream, const char* name) override {
    t_tasks.push_back(TaskFrame{t_trace.track, t_trace.has_track, now_ns()});
    const int device = stream.device().id();
    t_trace.track = Track{device, stream_track(&stream, device, stream.is_default())};
    t_trace.has_track = true;
  }

  void task_end(const Stream&, const char* name) override {
    if (t_tasks.empty()) return;  // begun before this observer was installed
    const TaskFrame frame = t_tasks.back();
    t_tasks.pop_back();
    span(name, "task", t_trace.track.pid, t_trace.track.tid, frame.start_ns, now_ns());
    t_trace.track = frame.saved;
    t_trace.has_track = frame.saved_has_track;
  }

  void memory_used(int device, size_t bytes) override {
    if (enabled()) counter("device memory used", device, now_ns(), static_cast<double>(bytes));
  }

  const void* fork_begin(size_t workers) override {
    if (!enabled() || t_trace.op_label.empty()) return nullptr;
    name_core_tracks(pid_of(t_trace), workers);
    t_trace.threads = static_cast<uint32_t>(workers);
    t_trace.fork_begin_ns = now_ns();  // fork_end brings the pool's own opening time; this is a bound for it
    return &t_trace;
  }

  void fork_share(const void* tag, size_t worker, uint64_t start_ns, uint64_t end_ns) override {
    ThreadTrace& t = *static_cast<ThreadTrace*>(const_cast<void*>(tag));
    busy_span(t.op_label, "blocks", pid_of(t), kCoreTidBase + static_cast<int64_t>(worker), start_ns, end_ns);
    if (worker == 0) {
      t.caller_ns += end_ns - start_ns;
    } else {
      t.worker_ns.fetch_add(end_ns - start_ns, std::memory_order_relaxed);
      t.wake_ns.fetch_add(start_ns > t.fork_begin_ns ? start_ns - t.fork_begin_ns : 0, std::memory_order_relaxed);
      t.shares.fetch_add(1, std::memory_order_relaxed);
    }
  }

  void fork_end(const void* tag, size_t indices, uint64_t begin_ns, uint64_t end_ns, bool caller_slept) override {
    ThreadTrace& t = *static_cast<ThreadTrace*>(const_cast<void*>(tag));
    ++t.forks;
    t.caller_sleeps += caller_slept;
    t.indices += indices;
    t.index_slots += (indices + t.threads - 1) / t.threads * t.threads;
    t.fork_ns += end_ns - begin_ns;
  }

  const void* launch_begin(const LaunchSpec&, size_t workers) override {
    if (!enabled()) return nullptr;
    name_core_tracks(pid_of(t_trace), workers);
    return &t_trace;
  }

  void launch_block(const void* tag, const LaunchSpec& spec, uint32_t block, size_t worker, uint64_t start_ns,
                    uint64_t end_ns) override {
    const ThreadTrace& t = *static_cast<const ThreadTrace*>(tag);
    span(spec.name, "block", pid_of(t), kCoreTidBase + static_cast<int64_t>(worker), start_ns, end_ns,
         "\"block\":" + std::to_string(block) + ",\"block_dim\":" + std::to_string(spec.block_dim));
  }

  void launch_end(const void*, const LaunchSpec& spec, uint64_t start_ns, uint64_t end_ns) override {
    const Track track = current_track();
    OpRecord rec;
    rec.name = spec.name;
    rec.type = spec.name;
    rec.block_dim = spec.block_dim;
    rec.start_ns = start_ns;
    rec.end_ns = end_ns;
    rec.pid = track.pid;
    rec.tid = track.tid;
    op(rec);
  }
};

ExecutionObserver& observer() {
  static ExecutionObserver* o = new ExecutionObserver();  // never destroyed: see runtime_observer.h
  return *o;
}

}  // namespace

void install_execution_observer(bool on) {
  set_runtime_observer(on ? &observer() : nullptr);
  set_executor_observer(on ? &observer() : nullptr);
}

const std::string& op_label() { return t_trace.op_label; }

PoolUse take_pool_use() {
  ThreadTrace& t = t_trace;
  PoolUse u;
  u.threads = t.threads;
  u.forks = t.forks;
  u.fork_ns = t.fork_ns;
  u.indices = t.indices;
  u.index_slots = t.index_slots;
  u.caller_sleeps = t.caller_sleeps;
  u.caller_ns = t.caller_ns;
  u.worker_ns = t.worker_ns.exchange(0, std::memory_order_relaxed);
  u.wake_ns = t.wake_ns.exchange(0, std::memory_order_relaxed);
  u.shares = t.shares.exchange(0, std::memory_order_relaxed);
  t.forks = t.fork_ns = t.caller_ns = t.indices = t.index_slots = t.caller_sleeps = 0;
  return u;
}
void set_op_label(const std::string& label) { t_trace.op_label = label; }

Track current_track() {
  if (t_trace.has_track) return t_trace.track;
  Track t;
  t.pid = kHostPid;
  t.tid = static_cast<int64_t>(std::hash<std::thread::id>{}(std::this_thread::get_id()) % 100000);
  return t;
}

int64_t stream_track(const void* stream, int pid, bool is_default) {
  static std::mutex mu;
  static std::map<const void*, int64_t>* ids = new std::map<const void*, int64_t>();
  std::lock_guard<std::mutex> lock(mu);
  auto it = ids->find(stream);
  if (it != ids->end()) return it->second;
  const int64_t id = static_cast<int64_t>(ids->size()) + 1;
  ids->emplace(stream, id);
  name_thread(pid, id, (is_default ? "default stream " : "stream ") + std::to_string(id));
  return id;
}

}  // namespace acl_sim::prof
