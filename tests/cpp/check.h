// The one assertion helper of the C++ tests. Each test is a plain executable
// (ggml-style): a check records a failure, prints where and why, and goes on;
// main ends with `return check_exit("test_name");`, non-zero when any check failed.
//
//   CHECK(cond)             cond must hold
//   CHECK_MSG(cond, text)   same, printing `text` (a std::string or const char*) on failure
//   CHECK_OK(call)          an aclError / HcclResult call must return 0; prints the code and
//                           aclGetRecentErrMsg()
//   REQUIRE_OK(call)        CHECK_OK, then `return;` from the (void) function: later steps need it
//
// Thread-safe. A thread may set g_check_scope (e.g. "rank 2") to prefix its messages.
#pragma once

#include <atomic>
#include <cstdio>
#include <string>

#include "acl/acl_base.h"

inline std::atomic<int> g_failures{0};
inline thread_local std::string g_check_scope;

inline void check_failed(const char* file, int line, const std::string& what) {
  std::fprintf(stderr, "%s:%d: %s%s%s\n", file, line, g_check_scope.c_str(), g_check_scope.empty() ? "" : ": ",
               what.c_str());
  ++g_failures;
}

/** 0 (after printing "name: ok") or 1 (after printing the failure count): main's return value. */
inline int check_exit(const char* name) {
  const int n = g_failures.load();
  if (n == 0) std::printf("%s: ok\n", name);
  else std::printf("%s: FAILED (%d failed checks)\n", name, n);
  return n == 0 ? 0 : 1;
}

#define CHECK(cond)                                                               \
  do {                                                                            \
    if (!(cond)) check_failed(__FILE__, __LINE__, std::string("CHECK failed: ") + #cond); \
  } while (0)

#define CHECK_MSG(cond, text)                                 \
  do {                                                        \
    if (!(cond)) check_failed(__FILE__, __LINE__, std::string(text)); \
  } while (0)

#define CHECK_OK_IMPL(call, on_fail)                                                                   \
  do {                                                                                                 \
    const int check_rc_ = static_cast<int>(call);                                                      \
    if (check_rc_ != 0) {                                                                              \
      const char* check_msg_ = aclGetRecentErrMsg();                                                   \
      check_failed(__FILE__, __LINE__, std::string(#call) + " returned " + std::to_string(check_rc_) + \
                                           " (" + (check_msg_ ? check_msg_ : "") + ")");              \
      on_fail;                                                                                         \
    }                                                                                                  \
  } while (0)

#define CHECK_OK(call) CHECK_OK_IMPL(call, (void)0)
#define REQUIRE_OK(call) CHECK_OK_IMPL(call, return)
