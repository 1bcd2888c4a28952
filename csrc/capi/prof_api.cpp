// aclprof*: the profiler's C face. State machine as in CANN:
// Init -> (CreateConfig) -> Start -> Stop -> Finalize.
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "acl/acl_prof.h"
#include "capi/api_guard.h"
#include "common/handle_table.h"
#include "prof/profiler.h"
#include "runtime/soc_profile.h"

struct aclprofConfig {
  std::vector<uint32_t> devices;
  aclprofAicoreMetrics metrics;
  uint64_t data_types;
};

namespace {

using acl_sim::fail;

struct ProfState {
  std::mutex mu;
  bool initialised = false;
  bool running = false;
  std::string result_dir;
  acl_sim::HandleTable<aclprofConfig> configs;
};

ProfState& state() {
  static ProfState* s = new ProfState();
  return *s;
}

}  // namespace

extern "C" {

ACL_FUNC_VISIBILITY aclError aclprofInit(const char* profilerResultPath, size_t length) {
  return acl_sim::capi::api_call("aclprofInit", [&] {
    ACL_SIM_REQUIRE(profilerResultPath != nullptr, ACL_ERROR_INVALID_PARAM, "profilerResultPath is NULL");
    std::string path(profilerResultPath, strnlen(profilerResultPath, length));
    ACL_SIM_REQUIRE(!path.empty() && length > 0, ACL_ERROR_INVALID_PARAM, "profilerResultPath is empty (length ", length, ")");
    ProfState& s = state();
    std::lock_guard<std::mutex> lock(s.mu);
    ACL_SIM_REQUIRE(!s.running, ACL_ERROR_PROF_ALREADY_RUN, "profiling is running; call aclprofStop first");
    s.result_dir = path;
    s.initialised = true;
  });
}

ACL_FUNC_VISIBILITY aclError aclprofFinalize(void) {
  return acl_sim::capi::api_call("aclprofFinalize", [&] {
    ProfState& s = state();
    std::lock_guard<std::mutex> lock(s.mu);
    ACL_SIM_REQUIRE(s.initialised, ACL_ERROR_PROF_NOT_RUN, "aclprofInit was not called");
    if (s.running) {
      acl_sim::prof::stop_and_write();
      s.running = false;
    }
    s.initialised = false;
  });
}

ACL_FUNC_VISIBILITY aclprofConfig* aclprofCreateConfig(uint32_t* deviceIdList, uint32_t deviceNums,
                                                       aclprofAicoreMetrics aicoreMetrics,
                                                       const aclprofAicoreEvents* aicoreEvents, uint64_t dataTypeConfig) {
  return acl_sim::capi::api_value<aclprofConfig*>("aclprofCreateConfig", nullptr, [&] {
    ACL_SIM_REQUIRE(deviceNums == 0 || deviceIdList != nullptr, ACL_ERROR_INVALID_PARAM,
                    "deviceIdList is NULL but deviceNums is ", deviceNums);
    ACL_SIM_REQUIRE(deviceNums <= 64, ACL_ERROR_INVALID_PARAM, "deviceNums ", deviceNums, " exceeds 64");
    auto cfg = std::make_shared<aclprofConfig>();
    cfg->devices.assign(deviceIdList, deviceIdList + deviceNums);
    cfg->metrics = aicoreMetrics;
    cfg->data_types = dataTypeConfig;
    return state().configs.add(cfg);
  });
}

ACL_FUNC_VISIBILITY aclError aclprofDestroyConfig(const aclprofConfig* profilerConfig) {
  return acl_sim::capi::api_call("aclprofDestroyConfig", [&] {
    ACL_SIM_REQUIRE(state().configs.remove(profilerConfig) != nullptr, ACL_ERROR_INVALID_PARAM,
                    "unknown or already destroyed config");
  });
}

ACL_FUNC_VISIBILITY aclError aclprofStart(const aclprofConfig* profilerConfig) {
  return acl_sim::capi::api_call("aclprofStart", [&] {
    ProfState& s = state();
    auto cfg = s.configs.find(profilerConfig);
    ACL_SIM_REQUIRE(cfg != nullptr, ACL_ERROR_INVALID_PARAM, "unknown or destroyed config");
    std::lock_guard<std::mutex> lock(s.mu);
    ACL_SIM_REQUIRE(s.initialised, ACL_ERROR_PROF_NOT_RUN, "call aclprofInit with a result path first");
    ACL_SIM_REQUIRE(!s.running, ACL_ERROR_PROF_ALREADY_RUN, "profiling already started");
    acl_sim::prof::Config c;
    c.output_dir = s.result_dir;
    c.devices = cfg->devices;
    c.soc = acl_sim::current_soc().name;
    acl_sim::prof::start(c);
    s.running = true;
  });
}

ACL_FUNC_VISIBILITY aclError aclprofStop(const aclprofConfig* profilerConfig) {
  return acl_sim::capi::api_call("aclprofStop", [&] {
    ProfState& s = state();
    ACL_SIM_REQUIRE(s.configs.find(profilerConfig) != nullptr, ACL_ERROR_INVALID_PARAM, "unknown or destroyed config");
    std::lock_guard<std::mutex> lock(s.mu);
    ACL_SIM_REQUIRE(s.running, ACL_ERROR_PROF_NOT_RUN, "profiling is not running");
    acl_sim::prof::stop_and_write();
    s.running = false;
  });
}

}  // extern "C"
