// The profiler: a process-wide recorder of timed spans, instants and
// counters, written out as a Chrome trace-event JSON (Perfetto,
// chrome://tracing) plus an op summary CSV with roofline NPU estimates.
//
// Recording costs one relaxed atomic load when off. When on, each span is
// appended to a per-thread buffer (no lock on the hot path); buffers are
// merged at flush.
//
// pid/tid mapping: pid = device id (host = kHostPid); tid = stream id for
// stream tasks, kCoreTidBase + worker index for AI-core blocks.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace acl_sim::prof {

constexpr int kHostPid = 1000;
constexpr int64_t kCoreTidBase = 100000;

namespace detail {
extern std::atomic<bool> g_enabled;
}

inline bool enabled() { return detail::g_enabled.load(std::memory_order_relaxed); }

/** Monotonic clock in nanoseconds (the same clock as event timestamps). */
uint64_t now_ns();

/** How a model node used the thread pool (the forks it opened, execution_observer.h), for the
 *  op summary's pool_* columns: all zero for ops that never forked. Times in ns, summed over forks. */
struct PoolUse {
  uint32_t threads = 0;  // pool threads, caller included (the pool's concurrency)
  uint64_t forks = 0;    // parallelize() calls
  uint64_t fork_ns = 0;  // wall time inside them (opened to the workers .. last index finished)
  uint64_t caller_ns = 0;  // time the node's own thread spent running indices
  uint64_t worker_ns = 0;  // time the pool workers spent running indices, all workers together
  uint64_t wake_ns = 0;  // per worker share: fork opened .. that worker's first index
  uint64_t shares = 0;   // worker (not caller) shares: forks a worker helped in
  uint64_t indices = 0;      // indices (tiles) of the forks
  uint64_t index_slots = 0;  // per fork, indices rounded up to a multiple of threads: indices /
                             // index_slots bounds the efficiency when every index costs the same
  uint64_t caller_sleeps = 0;  // forks whose tail the node's thread waited out asleep, not spinning
};

/** One executed op, for the op summary (model nodes, aclop, kernel launches). */
struct OpRecord {
  std::string name;        // node or kernel name
  std::string type;        // op type (Conv, MatMul, add_custom, ...)
  std::string shapes;      // "1x64x56x56;64x64x3x3"
  uint32_t block_dim = 0;  // blocks the op ran as
  double flops = 0;        // floating-point operations (multiply-add = 2)
  double bytes = 0;        // bytes read + written
  bool cube = false;       // cube-unit op (matmul/conv) vs vector op
  uint64_t start_ns = 0, end_ns = 0;
  PoolUse pool;
  int pid = 0;
  int64_t tid = 0;
};

/** A complete ("X") span. args_json is a JSON object body without braces, e.g. "\"bytes\":64". */
void span(const std::string& name, const char* cat, int pid, int64_t tid, uint64_t start_ns, uint64_t end_ns,
          const std::string& args_json = "");
/** As span(), but extends this thread's previous span instead when it has the same name, category
 *  and track and ended less than 20 µs before @p start_ns: a kernel that forks many small jobs shows
 *  as one busy span per core, at a fraction of the recording cost. */
void busy_span(const std::string& name, const char* cat, int pid, int64_t tid, uint64_t start_ns, uint64_t end_ns);
/** An instant ("i") event, e.g. an event record. */
void instant(const std::string& name, const char* cat, int pid, int64_t tid, uint64_t ts_ns);
/** A counter ("C") sample, e.g. pool bytes in use. */
void counter(const std::string& name, int pid, uint64_t ts_ns, double value);
/** An op: recorded as a span on (pid, tid) and aggregated into the op summary. */
void op(const OpRecord& rec);
/** Name a (pid, tid) track, e.g. "stream 3" or "core 1". */
void name_thread(int pid, int64_t tid, const std::string& name);
/** Name the AI-core worker tracks 0..workers-1 of device @p pid (0: blocks run by stream threads). */
void name_core_tracks(int pid, size_t workers);

struct Config {
  std::string output_dir;           // where trace.json and op_summary.csv go
  std::vector<uint32_t> devices;    // empty: all
  std::string soc;                  // SoC whose roofline estimates the NPU time
};

/** Start recording (aclprofStart, ACL_SIM_PROFILE). Clears earlier records. */
void start(const Config& cfg);
/** Stop recording and write the files (aclprofStop / aclFinalize). Returns the files written. */
std::vector<std::string> stop_and_write();
bool device_selected(int device);

}  // namespace acl_sim::prof

namespace acl_sim::prof {
/** ACL_SIM_PROFILE=DIR starts recording at aclInit; the files are written at aclFinalize or process exit. */
void start_from_env();
/** Called by aclFinalize: writes the files if recording was started from the environment. */
void finish_env_session();
}  // namespace acl_sim::prof

namespace acl_sim::prof {
/** Where work on this thread shows up in the trace: (device pid, stream tid). */
struct Track {
  int pid = kHostPid;
  int64_t tid = 0;
};
/** The track of the calling thread: the stream's while it runs a stream task (execution_observer.h); host otherwise. */
Track current_track();
/** The op running on this thread (set by the model-node observer while profiling): each pool
 *  worker's share of the op's blocks is named after it (execution_observer.h). Empty when none. */
const std::string& op_label();
void set_op_label(const std::string& label);
/** The trace track of a stream (sequential per process; named "stream N" / "default stream N"). */
int64_t stream_track(const void* stream, int pid, bool is_default);
}  // namespace acl_sim::prof
