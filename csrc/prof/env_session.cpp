// ACL_SIM_PROFILE=DIR (also set by `acl-sim prof --output=DIR -- cmd`):
// profile the whole process without code changes.
#include <cstdlib>
#include <mutex>

#include "prof/profiler.h"
#include "runtime/soc_profile.h"

namespace acl_sim::prof {
namespace {
std::mutex g_mu;
bool g_env_session = false;

void write_at_exit() { finish_env_session(); }
}  // namespace

void start_from_env() {
  const char* dir = std::getenv("ACL_SIM_PROFILE");
  if (!dir || !*dir) return;
  std::lock_guard<std::mutex> lock(g_mu);
  if (g_env_session) return;
  Config c;
  c.output_dir = dir;
  c.soc = current_soc().name;
  start(c);
  static bool registered = false;
  if (!registered) {
    registered = true;
    std::atexit(write_at_exit);
  }
  g_env_session = true;
}

void finish_env_session() {
  std::lock_guard<std::mutex> lock(g_mu);
  if (!g_env_session) return;
  g_env_session = false;
  stop_and_write();
}

}  // namespace acl_sim::prof
