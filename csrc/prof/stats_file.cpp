#include "prof/stats_file.h"

#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <sstream>
#include <thread>

#include "runtime/runtime.h"
#include "runtime/soc_profile.h"

namespace acl_sim::prof {
namespace {

struct Publisher {
  std::mutex mu;
  std::condition_variable cv;
  std::thread thread;
  bool stop = false;
  std::string path;
};

Publisher& publisher() {
  static Publisher* p = new Publisher();
  return *p;
}

void write_file(const std::string& path) {
  // Write then rename, so a reader never sees half a file.
  std::string tmp = path + ".tmp" + std::to_string(getpid());
  FILE* f = std::fopen(tmp.c_str(), "w");
  if (!f) return;
  std::string body = device_stats_json();
  std::fwrite(body.data(), 1, body.size(), f);
  std::fclose(f);
  std::rename(tmp.c_str(), path.c_str());
}

}  // namespace

std::string device_stats_json() {
  Runtime& rt = Runtime::get();
  std::ostringstream os;
  os << "{\"pid\":" << getpid() << ",\"soc\":\"" << current_soc().name << "\",\"device_count\":" << rt.device_count()
     << ",\"devices\":[";
  bool first = true;
  for (uint32_t i = 0; i < rt.device_count() && i < Runtime::kMaxDevices; ++i) {
    Device* d = rt.opened_device(static_cast<int32_t>(i));
    if (!d) continue;
    if (!first) os << ",";
    first = false;
    os << "{\"id\":" << i << ",\"memory_used\":" << d->pool().used() << ",\"memory_total\":" << d->pool().capacity()
       << ",\"streams\":" << d->streams().size() << "}";
  }
  os << "]}\n";
  return os.str();
}

void start_stats_from_env() {
  const char* path = std::getenv("ACL_SIM_STATS_FILE");
  if (!path || !*path) return;
  Publisher& p = publisher();
  std::lock_guard<std::mutex> lock(p.mu);
  if (p.thread.joinable()) return;
  p.stop = false;
  p.path = path;
  p.thread = std::thread([&p] {
    std::unique_lock<std::mutex> lk(p.mu);
    while (!p.stop) {
      lk.unlock();
      write_file(p.path);
      lk.lock();
      p.cv.wait_for(lk, std::chrono::milliseconds(500), [&] { return p.stop; });
    }
  });
}

void stop_stats() {
  Publisher& p = publisher();
  {
    std::lock_guard<std::mutex> lock(p.mu);
    if (!p.thread.joinable()) return;
    p.stop = true;
  }
  p.cv.notify_all();
  p.thread.join();
  write_file(p.path);
}

}  // namespace acl_sim::prof
