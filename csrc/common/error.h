// Internal error type. Code inside the core throws acl_sim::Error carrying a
// CANN error code; only csrc/capi/ turns it into a return value (api_guard.h).
#pragma once

#include <exception>
#include <sstream>
#include <string>
#include <utility>

namespace acl_sim {

/** Concatenate any streamable values into a string: str("size ", n, " > ", m). */
template <class... Args>
std::string str(Args&&... args) {
  std::ostringstream os;
  (os << ... << std::forward<Args>(args));
  return os.str();
}

class Error : public std::exception {
 public:
  Error(int code, std::string message) : code_(code), message_(std::move(message)) {}
  int code() const noexcept { return code_; }
  const char* what() const noexcept override { return message_.c_str(); }

 private:
  int code_;
  std::string message_;
};

/** Throw Error(code, str(args...)). */
template <class... Args>
[[noreturn]] void fail(int code, Args&&... args) {
  throw Error(code, str(std::forward<Args>(args)...));
}

}  // namespace acl_sim

/** Throw Error(code, message...) unless cond holds. The message says what the caller can do. */
#define ACL_SIM_REQUIRE(cond, code, ...)          \
  do {                                            \
    if (!(cond)) ::acl_sim::fail((code), __VA_ARGS__); \
  } while (0)
