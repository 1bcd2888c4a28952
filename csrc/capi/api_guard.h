// The C boundary. Every extern "C" entry point runs its body through
// api_call(); exceptions become a CANN code, and the message is stored per
// thread for aclGetRecentErrMsg and logged at ERROR level. No C++ exception
// ever crosses the boundary.
#pragma once

#include <new>
#include <string>

#include "acl/acl_base.h"
#include "common/error.h"

namespace acl_sim::capi {

/** Record "fn: message" for aclGetRecentErrMsg on this thread, log it, and return code. */
int record_failure(const char* fn, int code, const char* message);
/** As record_failure, logging at INFO: for expected outcomes such as a polling timeout. */
int record_failure_quiet(const char* fn, int code, const char* message);
/** The calling thread's last message, or nullptr. */
const char* recent_message();

/** Run body(); map exceptions to codes. Use for functions returning aclError. */
template <class Body>
aclError api_call(const char* fn, Body&& body) noexcept {
  try {
    body();
    return ACL_SUCCESS;
  } catch (const Error& e) {
    return record_failure(fn, e.code(), e.what());
  } catch (const std::bad_alloc&) {
    return record_failure(fn, ACL_ERROR_BAD_ALLOC, "host memory allocation failed");
  } catch (const std::exception& e) {
    return record_failure(fn, ACL_ERROR_INTERNAL_ERROR, e.what());
  } catch (...) {
    return record_failure(fn, ACL_ERROR_INTERNAL_ERROR, "unknown internal error");
  }
}

/** As api_call, but Error outcomes are logged at INFO (aclrtProcessReport timeouts are routine). */
template <class Body>
aclError api_call_quiet(const char* fn, Body&& body) noexcept {
  try {
    body();
    return ACL_SUCCESS;
  } catch (const Error& e) {
    return record_failure_quiet(fn, e.code(), e.what());
  } catch (...) {
    return api_call(fn, [] { throw; });
  }
}

/** As api_call, for functions that return a value (pointer, size): @p on_error is returned on failure. */
template <class T, class Body>
T api_value(const char* fn, T on_error, Body&& body) noexcept {
  try {
    return body();
  } catch (const Error& e) {
    record_failure(fn, e.code(), e.what());
  } catch (const std::bad_alloc&) {
    record_failure(fn, ACL_ERROR_BAD_ALLOC, "host memory allocation failed");
  } catch (const std::exception& e) {
    record_failure(fn, ACL_ERROR_INTERNAL_ERROR, e.what());
  } catch (...) {
    record_failure(fn, ACL_ERROR_INTERNAL_ERROR, "unknown internal error");
  }
  return on_error;
}

}  // namespace acl_sim::capi
