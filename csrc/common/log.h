// CANN-format logging to stderr:
//   [LEVEL] MODULE(PID,PNAME):YYYY-MM-DD-hh:mm:ss.mmm.uuu [file:line]msg
// Level from ACL_SIM_LOG_LEVEL, else ASCEND_GLOBAL_LOG_LEVEL (0 debug .. 3 error, 4 null), default 3.
#pragma once

#include "common/error.h"

namespace acl_sim::log {

enum Level { kDebug = 0, kInfo = 1, kWarning = 2, kError = 3, kNull = 4 };

/** True when messages at @p level are printed; checked before formatting. */
bool enabled(Level level);
/** Re-read the environment (called by aclInit). */
void reload_level();
void write(Level level, const char* module, const char* file, int line, const std::string& msg);

}  // namespace acl_sim::log

#define ACL_SIM_LOG(level, module, ...)                                                    \
  do {                                                                                     \
    if (::acl_sim::log::enabled(level))                                                    \
      ::acl_sim::log::write(level, module, __FILE__, __LINE__, ::acl_sim::str(__VA_ARGS__)); \
  } while (0)
#define ACL_SIM_LOG_DEBUG(module, ...) ACL_SIM_LOG(::acl_sim::log::kDebug, module, __VA_ARGS__)
#define ACL_SIM_LOG_INFO(module, ...) ACL_SIM_LOG(::acl_sim::log::kInfo, module, __VA_ARGS__)
#define ACL_SIM_LOG_WARN(module, ...) ACL_SIM_LOG(::acl_sim::log::kWarning, module, __VA_ARGS__)
#define ACL_SIM_LOG_ERROR(module, ...) ACL_SIM_LOG(::acl_sim::log::kError, module, __VA_ARGS__)
