#include "prof/init_config.h"

#include <cctype>
#include <mutex>

#include "acl/acl_base.h"
#include "common/error.h"
#include "common/json.h"
#include "prof/dump.h"
#include "prof/profiler.h"
#include "prof/stats_file.h"
#include "runtime/soc_profile.h"

namespace acl_sim {
namespace {

bool blank(const std::string& s) {
  for (unsigned char c : s)
    if (!std::isspace(c)) return false;
  return true;
}

struct ProfilerSection {
  bool on = false;
  std::string output;
};

ProfilerSection check_profiler(const json::Value& root) {
  const int code = ACL_ERROR_INVALID_PROFILING_CONFIG;
  ProfilerSection p;
  const json::Value* s = root.find("profiler", code);
  if (!s) return p;
  ACL_SIM_REQUIRE(s->is_object(), code, "\"profiler\" must be an object");
  if (const json::Value* sw = s->find("switch", code)) {
    const std::string& v = sw->as_string(code);
    ACL_SIM_REQUIRE(v == "on" || v == "off", code, "\"profiler.switch\" must be \"on\" or \"off\" (got \"", v, "\")");
    p.on = v == "on";
  }
  if (const json::Value* out = s->find("output", code)) p.output = out->as_string(code);
  ACL_SIM_REQUIRE(!p.on || !p.output.empty(), code, "\"profiler.output\" must name a directory when the switch is on");
  return p;
}

void check_rest(const json::Value& root) {
  if (const json::Value* q = root.find("max_opqueue_num")) {
    const int code = ACL_ERROR_INVALID_MAX_OPQUEUE_NUM_CONFIG;
    int64_t n = q->is_string() ? -1 : q->as_int_in(1, INT32_MAX, code);
    if (q->is_string()) {
      const std::string& s = q->as_string(code);
      ACL_SIM_REQUIRE(!s.empty() && s.size() < 11 && s.find_first_not_of("0123456789") == std::string::npos, code,
                      "\"max_opqueue_num\" must be a positive integer (got \"", s, "\")");
      n = std::stoll(s);
      ACL_SIM_REQUIRE(n >= 1, code, "\"max_opqueue_num\" must be positive");
    }
  }
  if (const json::Value* m = root.find("err_msg_mode")) {
    const std::string& v = m->as_string(ACL_ERROR_PARSE_FILE);
    ACL_SIM_REQUIRE(v == "0" || v == "1", ACL_ERROR_PARSE_FILE, "\"err_msg_mode\" must be \"0\" or \"1\" (got \"", v, "\")");
  }
}

json::Value parse_root(const std::string& text) {
  json::ParseOptions opts;
  opts.error_code = ACL_ERROR_PARSE_FILE;
  opts.what = "aclInit config";
  opts.max_bytes = size_t(16) << 20;
  json::Value root = json::parse(text, opts);
  ACL_SIM_REQUIRE(root.is_object(), ACL_ERROR_PARSE_FILE, "the aclInit config must be a JSON object, got ",
                  json::type_name(root.type()));
  return root;
}

std::mutex g_mu;
bool g_profiler_from_config = false;

}  // namespace

void validate_init_config(const std::string& text) {
  if (blank(text)) return;
  json::Value root = parse_root(text);
  check_profiler(root);
  check_rest(root);
  // The dump section's rules live with the dump; validate by parsing it into a throwaway check.
  if (const json::Value* d = root.find("dump")) {
    const int code = ACL_ERROR_INVALID_DUMP_CONFIG;
    ACL_SIM_REQUIRE(d->is_object(), code, "\"dump\" must be an object");
    const json::Value* path = d->find("dump_path", code);
    ACL_SIM_REQUIRE(path && path->is_string() && !path->as_string().empty(), code,
                    "\"dump.dump_path\" must be a non-empty string");
    if (const json::Value* mode = d->find("dump_mode", code)) {
      const std::string& m = mode->as_string(code);
      ACL_SIM_REQUIRE(m == "input" || m == "output" || m == "all", code,
                      "\"dump.dump_mode\" must be input, output or all (got \"", m, "\")");
    }
    if (const json::Value* list = d->find("dump_list", code)) {
      for (const json::Value& e : list->as_array(code)) {
        ACL_SIM_REQUIRE(e.is_object(), code, "each \"dump.dump_list\" entry must be an object");
        if (const json::Value* n = e.find("model_name", code)) n->as_string(code);
        if (const json::Value* l = e.find("layer", code))
          for (const json::Value& x : l->as_array(code)) x.as_string(code);
      }
    }
  }
}

void apply_init_config(const std::string& text) {
  validate_init_config(text);
  std::lock_guard<std::mutex> lock(g_mu);
  if (!blank(text)) {
    json::Value root = parse_root(text);
    dump::configure(text);
    ProfilerSection p = check_profiler(root);
    if (p.on) {
      prof::Config c;
      c.output_dir = p.output;
      c.soc = current_soc().name;
      prof::start(c);
      g_profiler_from_config = true;
    }
  } else {
    dump::disable();
  }
  prof::start_from_env();
  prof::start_stats_from_env();
}

void finish_init_config() {
  std::lock_guard<std::mutex> lock(g_mu);
  if (g_profiler_from_config) {
    prof::stop_and_write();
    g_profiler_from_config = false;
  }
  prof::finish_env_session();
  prof::stop_stats();
  dump::disable();
}

}  // namespace acl_sim
