// The C boundary. Every extern "C" entry point runs its body through
// api_call(); exceptions become a CANN code, and the message is stored per
// thread for aclGetRecentErrMsg and logged at ERROR level. No C++ exception
// ever crosses the boundary. api_call and api_value also mark the call as in
// flight (runtime/call_gate.h), so aclFinalize waits for it before freeing.
#pragma once

#include <new>
#include <utility>
#include <string>

#include "acl/acl_base.h"
#include "common/error.h"
#include "common/log.h"
#include "runtime/call_gate.h"

namespace acl_sim::capi {

/** Record "fn: message" for aclGetRecentErrMsg on this thread, log it at @p level (ERROR unless the outcome is
 *  one callers expect and handle, such as a polling timeout or a repeated aclInit), and return code. */
int record_failure(const char* fn, int code, const char* message, log::Level level = log::kError);
/** The calling thread's last message, or nullptr. */
const char* recent_message();

/** As api_call, without marking the call in flight: only for aclInit / aclFinalize themselves
 *  (a concurrent aclFinalize waiting for them would deadlock). */
template <class Body>
aclError api_call_ungated(const char* fn, Body&& body) noexcept {
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

/** Run body(); map exceptions to codes. Use for functions returning aclError. */
template <class Body>
aclError api_call(const char* fn, Body&& body) noexcept {
  CallGate::Scope in_flight;
  return api_call_ungated(fn, std::forward<Body>(body));
}

/** As api_call_ungated, but Error outcomes are logged at INFO. For aclrtProcessReport: its timeouts
 *  are routine, and it is not an in-flight call for aclFinalize, which needs report threads to keep
 *  running blocking callbacks while it drains the streams (and would wait forever for a thread
 *  parked in aclrtProcessReport(-1)). */
template <class Body>
aclError api_call_quiet(const char* fn, Body&& body) noexcept {
  try {
    body();
    return ACL_SUCCESS;
  } catch (const Error& e) {
    return record_failure(fn, e.code(), e.what(), log::kInfo);
  } catch (...) {
    return api_call_ungated(fn, [] { throw; });
  }
}

/** As api_call, for functions that return a value (pointer, size): @p on_error is returned on failure. */
template <class T, class Body>
T api_value(const char* fn, T on_error, Body&& body) noexcept {
  CallGate::Scope in_flight;
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
