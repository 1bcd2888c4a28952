// aclAppLog: application messages through the runtime's CANN-format log.
#include <cstdarg>
#include <cstdio>
#include <string>

#include "acl/acl_base.h"
#include "common/log.h"

extern "C" ACL_FUNC_VISIBILITY void aclAppLog(aclLogLevel logLevel, const char* func, const char* file, uint32_t line,
                                              const char* fmt, ...) {
  const int lv = static_cast<int>(logLevel);
  if (lv < ACL_DEBUG || lv > ACL_ERROR || !fmt) return;  // a void function: bad arguments are dropped
  const auto level = static_cast<acl_sim::log::Level>(lv);
  if (!acl_sim::log::enabled(level)) return;
  va_list ap;
  va_start(ap, fmt);
  char buf[1024];
  std::vsnprintf(buf, sizeof(buf), fmt, ap);
  va_end(ap);
  std::string msg = std::string(func ? func : "") + ": " + buf;
  acl_sim::log::write(level, "APP", file ? file : "", static_cast<int>(line), msg);
}
