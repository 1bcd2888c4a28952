#include "common/log.h"

#include <sys/time.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

namespace acl_sim::log {
namespace {

int level_from_env() {
  const char* v = std::getenv("ACL_SIM_LOG_LEVEL");
  if (!v || !*v) v = std::getenv("ASCEND_GLOBAL_LOG_LEVEL");
  if (!v || !*v) return kError;
  char* end = nullptr;
  long n = std::strtol(v, &end, 10);
  if (end == v || n < kDebug || n > kNull) return kError;
  return static_cast<int>(n);
}

std::atomic<int>& current_level() {
  static std::atomic<int> level{level_from_env()};
  return level;
}

const char* level_name(Level level) {
  switch (level) {
    case kDebug: return "DEBUG";
    case kInfo: return "INFO";
    case kWarning: return "WARNING";
    default: return "ERROR";
  }
}

const char* process_name() {
  static char name[64] = {0};
  if (!name[0]) {
    FILE* f = std::fopen("/proc/self/comm", "r");
    if (f) {
      if (std::fgets(name, sizeof(name), f)) name[std::strcspn(name, "\n")] = 0;
      std::fclose(f);
    }
    if (!name[0]) std::strcpy(name, "acl_sim");
  }
  return name;
}

}  // namespace

bool enabled(Level level) { return level != kNull && static_cast<int>(level) >= current_level().load(std::memory_order_relaxed); }

void reload_level() { current_level().store(level_from_env()); }

void write(Level level, const char* module, const char* file, int line, const std::string& msg) {
  timeval tv{};
  gettimeofday(&tv, nullptr);
  tm t{};
  localtime_r(&tv.tv_sec, &t);
  const char* base = std::strrchr(file, '/');
  base = base ? base + 1 : file;
  char head[256];
  std::snprintf(head, sizeof(head), "[%s] %s(%d,%s):%04d-%02d-%02d-%02d:%02d:%02d.%03ld.%03ld [%s:%d]", level_name(level),
                module, static_cast<int>(getpid()), process_name(), t.tm_year + 1900, t.tm_mon + 1, t.tm_mday, t.tm_hour,
                t.tm_min, t.tm_sec, static_cast<long>(tv.tv_usec / 1000), static_cast<long>(tv.tv_usec % 1000), base, line);
  std::string out = std::string(head) + msg + "\n";
  // One write() per line keeps lines from different threads whole.
  ssize_t ignored = ::write(2, out.data(), out.size());
  (void)ignored;
}

}  // namespace acl_sim::log
