#include "prof/dump.h"

#include <sys/stat.h>

#include <atomic>
#include <cstdio>
#include <map>
#include <mutex>
#include <set>
#include <vector>

#include "acl/acl_base.h"
#include "common/error.h"
#include "common/json.h"
#include "kernels/op_registry.h"
#include "model/model.h"
#include "prof/dump_writer.h"
#include "prof/node_observer.h"

namespace acl_sim::dump {
namespace {

struct ModelFilter {
  bool all_layers = true;
  std::set<std::string> layers;
};

struct DumpConfig {
  std::string path;
  bool inputs = false;
  bool outputs = true;
  bool all_models = true;
  std::map<std::string, ModelFilter> models;
};

std::mutex g_mu;
std::shared_ptr<const DumpConfig> g_config;
std::atomic<bool> g_enabled{false};

std::shared_ptr<const DumpConfig> config() {
  std::lock_guard<std::mutex> lock(g_mu);
  return g_config;
}

}  // namespace

bool enabled() { return g_enabled.load(std::memory_order_relaxed); }

void disable() {
  std::lock_guard<std::mutex> lock(g_mu);
  g_config.reset();
  g_enabled.store(false);
}

void configure(const std::string& config_json) {
  if (config_json.empty()) return disable();
  json::ParseOptions opts;
  opts.error_code = ACL_ERROR_INVALID_DUMP_CONFIG;
  opts.what = "aclInit config";
  json::Value root = json::parse(config_json, opts);
  const int code = ACL_ERROR_INVALID_DUMP_CONFIG;
  ACL_SIM_REQUIRE(root.is_object(), code, "the aclInit config must be a JSON object");
  const json::Value* d = root.find("dump", code);
  if (!d) return disable();
  ACL_SIM_REQUIRE(d->is_object(), code, "\"dump\" must be an object");
  auto cfg = std::make_shared<DumpConfig>();
  const json::Value* path = d->find("dump_path", code);
  ACL_SIM_REQUIRE(path && path->is_string() && !path->as_string().empty(), code,
                  "\"dump.dump_path\" must be a non-empty string");
  cfg->path = path->as_string();
  if (const json::Value* mode = d->find("dump_mode", code)) {
    const std::string& m = mode->as_string(code);
    ACL_SIM_REQUIRE(m == "input" || m == "output" || m == "all", code,
                    "\"dump.dump_mode\" must be input, output or all (got \"", m, "\")");
    cfg->inputs = m != "output";
    cfg->outputs = m != "input";
  }
  if (const json::Value* list = d->find("dump_list", code)) {
    for (const json::Value& entry : list->as_array(code)) {
      ACL_SIM_REQUIRE(entry.is_object(), code, "each \"dump.dump_list\" entry must be an object");
      const json::Value* name = entry.find("model_name", code);
      if (!name) continue;
      cfg->all_models = false;
      ModelFilter f;
      if (const json::Value* layers = entry.find("layer", code)) {
        f.all_layers = layers->size() == 0;
        for (const json::Value& l : layers->as_array(code)) f.layers.insert(l.as_string(code));
      }
      cfg->models[name->as_string(code)] = f;
    }
  }
  ::mkdir(cfg->path.c_str(), 0755);
  {
    std::lock_guard<std::mutex> lock(g_mu);
    g_config = cfg;
  }
  g_enabled.store(true);
  prof::install_node_observer();
}

namespace detail {

bool wants(const std::string& model_name, const std::string& node_name, bool* inputs, bool* outputs,
           std::string* path) {
  auto cfg = config();
  if (!cfg) return false;
  if (!cfg->all_models) {
    auto it = cfg->models.find(model_name);
    if (it == cfg->models.end()) return false;
    if (!it->second.all_layers && !it->second.layers.count(node_name)) return false;
  }
  *inputs = cfg->inputs;
  *outputs = cfg->outputs;
  *path = cfg->path;
  return true;
}

}  // namespace detail
}  // namespace acl_sim::dump
