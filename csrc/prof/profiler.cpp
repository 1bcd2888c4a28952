#include "prof/profiler.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <sys/stat.h>

#include <functional>
#include <thread>

#include "common/clock.h"
#include "prof/execution_observer.h"
#include "prof/node_observer.h"
#include "prof/op_summary.h"

namespace acl_sim::prof {
namespace detail {
std::atomic<bool> g_enabled{false};
}

namespace {

struct Record {
  char ph;  // 'X', 'i', 'C'
  std::string name;
  const char* cat;
  int pid;
  int64_t tid;
  uint64_t start_ns;
  uint64_t end_ns;
  std::string args;  // JSON object body
};

// Each recording thread owns a buffer; the registry keeps them alive after
// the thread exits so nothing recorded is lost.
struct ThreadBuffer {
  std::mutex mu;  // taken by the owner per append (uncontended) and by the flusher
  std::vector<Record> records;
  std::vector<OpRecord> ops;
};

struct Registry {
  std::mutex mu;
  std::vector<std::shared_ptr<ThreadBuffer>> buffers;
  std::map<std::pair<int, int64_t>, std::string> thread_names;
  Config config;
  uint64_t epoch_ns = 0;
  uint64_t generation = 0;
};

Registry& registry() {
  static Registry* r = new Registry();  // never destroyed: threads may record during exit
  return *r;
}

struct LocalSlot {
  std::shared_ptr<ThreadBuffer> buf;
  uint64_t generation = ~0ull;
};
thread_local LocalSlot t_slot;

ThreadBuffer& local_buffer() {
  Registry& r = registry();
  if (!t_slot.buf) {
    t_slot.buf = std::make_shared<ThreadBuffer>();
    std::lock_guard<std::mutex> lock(r.mu);
    r.buffers.push_back(t_slot.buf);
  }
  return *t_slot.buf;
}

void json_escape(std::ostream& os, const std::string& s) {
  for (unsigned char c : s) {
    switch (c) {
      case '"': os << "\\\""; break;
      case '\\': os << "\\\\"; break;
      case '\n': os << "\\n"; break;
      case '\t': os << "\\t"; break;
      default:
        if (c < 0x20) {
          char tmp[8];
          std::snprintf(tmp, sizeof(tmp), "\\u%04x", c);
          os << tmp;
        } else {
          os << c;
        }
    }
  }
}

void make_dirs(const std::string& path) {
  std::string cur;
  for (size_t i = 0; i < path.size(); ++i) {
    cur.push_back(path[i]);
    if (path[i] == '/' || i + 1 == path.size()) ::mkdir(cur.c_str(), 0755);
  }
}

}  // namespace

uint64_t now_ns() { return monotonic_ns(); }

void span(const std::string& name, const char* cat, int pid, int64_t tid, uint64_t start_ns, uint64_t end_ns,
          const std::string& args_json) {
  if (!enabled()) return;
  ThreadBuffer& b = local_buffer();
  std::lock_guard<std::mutex> lock(b.mu);
  b.records.push_back(Record{'X', name, cat, pid, tid, start_ns, end_ns, args_json});
}

void busy_span(const std::string& name, const char* cat, int pid, int64_t tid, uint64_t start_ns, uint64_t end_ns) {
  if (!enabled()) return;
  ThreadBuffer& b = local_buffer();
  std::lock_guard<std::mutex> lock(b.mu);
  if (!b.records.empty()) {
    Record& last = b.records.back();
    if (last.ph == 'X' && last.cat == cat && last.tid == tid && last.pid == pid && start_ns >= last.end_ns &&
        start_ns - last.end_ns < 20000 && last.name == name) {
      last.end_ns = end_ns;
      return;
    }
  }
  b.records.push_back(Record{'X', name, cat, pid, tid, start_ns, end_ns, ""});
}

void instant(const std::string& name, const char* cat, int pid, int64_t tid, uint64_t ts_ns) {
  if (!enabled()) return;
  ThreadBuffer& b = local_buffer();
  std::lock_guard<std::mutex> lock(b.mu);
  b.records.push_back(Record{'i', name, cat, pid, tid, ts_ns, ts_ns, ""});
}

void counter(const std::string& name, int pid, uint64_t ts_ns, double value) {
  if (!enabled()) return;
  std::ostringstream args;
  args << "\"value\":" << value;
  ThreadBuffer& b = local_buffer();
  std::lock_guard<std::mutex> lock(b.mu);
  b.records.push_back(Record{'C', name, "memory", pid, 0, ts_ns, ts_ns, args.str()});
}

void op(const OpRecord& rec) {
  if (!enabled()) return;
  std::ostringstream args;
  args << "\"type\":\"";
  json_escape(args, rec.type);
  args << "\",\"shapes\":\"";
  json_escape(args, rec.shapes);
  args << "\",\"block_dim\":" << rec.block_dim << ",\"flops\":" << rec.flops << ",\"bytes\":" << rec.bytes;
  ThreadBuffer& b = local_buffer();
  std::lock_guard<std::mutex> lock(b.mu);
  b.records.push_back(Record{'X', rec.name, "op", rec.pid, rec.tid, rec.start_ns, rec.end_ns, args.str()});
  b.ops.push_back(rec);
}

void name_thread(int pid, int64_t tid, const std::string& name) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  r.thread_names[{pid, tid}] = name;
}

void name_core_tracks(int pid, size_t workers) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  for (size_t w = 0; w < workers; ++w) {
    auto key = std::make_pair(pid, kCoreTidBase + static_cast<int64_t>(w));
    if (!r.thread_names.count(key))
      r.thread_names[key] = w ? "AI-core worker " + std::to_string(w) : std::string("AI-core blocks on stream threads");
  }
}

bool device_selected(int device) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  const auto& d = r.config.devices;
  return d.empty() || std::find(d.begin(), d.end(), static_cast<uint32_t>(device)) != d.end();
}

void start(const Config& cfg) {
  Registry& r = registry();
  {
    std::lock_guard<std::mutex> lock(r.mu);
    r.config = cfg;
    r.epoch_ns = now_ns();
    for (auto& b : r.buffers) {
      std::lock_guard<std::mutex> bl(b->mu);
      b->records.clear();
      b->ops.clear();
    }
  }
  install_node_observer();
  install_execution_observer(true);
  detail::g_enabled.store(true, std::memory_order_release);
}

std::vector<std::string> stop_and_write() {
  detail::g_enabled.store(false, std::memory_order_release);
  install_execution_observer(false);
  Registry& r = registry();
  std::vector<Record> records;
  std::vector<OpRecord> ops;
  std::map<std::pair<int, int64_t>, std::string> names;
  Config cfg;
  uint64_t epoch;
  {
    std::lock_guard<std::mutex> lock(r.mu);
    for (auto& b : r.buffers) {
      std::lock_guard<std::mutex> bl(b->mu);
      records.insert(records.end(), std::make_move_iterator(b->records.begin()), std::make_move_iterator(b->records.end()));
      ops.insert(ops.end(), b->ops.begin(), b->ops.end());
      b->records.clear();
      b->ops.clear();
    }
    names = r.thread_names;
    cfg = r.config;
    epoch = r.epoch_ns;
  }
  std::vector<std::string> written;
  if (cfg.output_dir.empty()) return written;
  make_dirs(cfg.output_dir);
  std::sort(records.begin(), records.end(), [](const Record& a, const Record& b) { return a.start_ns < b.start_ns; });

  const std::string trace_path = cfg.output_dir + "/trace.json";
  std::ofstream os(trace_path);
  os << "{\"displayTimeUnit\":\"ms\",\"otherData\":{\"producer\":\"acl_sim\",\"soc\":\"";
  json_escape(os, cfg.soc);
  os << "\"},\"traceEvents\":[\n";
  bool first = true;
  auto sep = [&] {
    if (!first) os << ",\n";
    first = false;
  };
  std::map<int, bool> pids;
  for (const auto& rec : records) pids[rec.pid] = true;
  for (const auto& kv : names) pids[kv.first.first] = true;
  for (const auto& kv : pids) {
    sep();
    os << "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" << kv.first << ",\"tid\":0,\"args\":{\"name\":\""
       << (kv.first == kHostPid ? std::string("host") : "device " + std::to_string(kv.first)) << "\"}}";
  }
  for (const auto& kv : names) {
    sep();
    os << "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" << kv.first.first << ",\"tid\":" << kv.first.second
       << ",\"args\":{\"name\":\"";
    json_escape(os, kv.second);
    os << "\"}}";
  }
  char num[64];
  for (const auto& rec : records) {
    sep();
    double ts = rec.start_ns >= epoch ? (rec.start_ns - epoch) / 1000.0 : 0.0;
    os << "{\"ph\":\"" << rec.ph << "\",\"name\":\"";
    json_escape(os, rec.name);
    os << "\",\"cat\":\"" << rec.cat << "\",\"pid\":" << rec.pid << ",\"tid\":" << rec.tid;
    std::snprintf(num, sizeof(num), "%.3f", ts);
    os << ",\"ts\":" << num;
    if (rec.ph == 'X') {
      std::snprintf(num, sizeof(num), "%.3f", (rec.end_ns - rec.start_ns) / 1000.0);
      os << ",\"dur\":" << num;
    }
    if (rec.ph == 'i') os << ",\"s\":\"t\"";
    os << ",\"args\":{" << rec.args << "}}";
  }
  os << "\n]}\n";
  os.close();
  written.push_back(trace_path);

  const std::string csv_path = cfg.output_dir + "/op_summary.csv";
  write_op_summary(csv_path, ops, cfg.soc);
  written.push_back(csv_path);
  return written;
}

}  // namespace acl_sim::prof
