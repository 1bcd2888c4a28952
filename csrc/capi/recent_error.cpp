#include <string>

#include "capi/api_guard.h"
#include "common/log.h"

namespace acl_sim::capi {
namespace {
thread_local std::string t_recent;
thread_local bool t_has_recent = false;
}  // namespace

int record_failure(const char* fn, int code, const char* message, log::Level level) {
  t_recent = str(fn, ": ", message, " (error code ", code, ")");
  t_has_recent = true;
  ACL_SIM_LOG(level, "APP", t_recent);
  return code;
}

const char* recent_message() { return t_has_recent ? t_recent.c_str() : nullptr; }

}  // namespace acl_sim::capi

extern "C" ACL_FUNC_VISIBILITY const char* aclGetRecentErrMsg(void) { return acl_sim::capi::recent_message(); }
