// The C boundary for hccl.h: like api_call (api_guard.h), but the functions
// return HcclResult. Errors thrown with an HcclResult code pass through;
// runtime (ACL) codes are mapped to the nearest HcclResult (hccl_result_of,
// common/error_codes.h), and the message
// (naming the function and the original code) is recorded for
// aclGetRecentErrMsg.
#pragma once

#include <new>

#include "capi/api_guard.h"
#include "common/error.h"
#include "common/error_codes.h"
#include "hccl/hccl_types.h"

namespace acl_sim::capi {

/** Run body(); map exceptions to HcclResult and record the message. */
template <class Body>
HcclResult hccl_call(const char* fn, Body&& body) noexcept {
  CallGate::Scope in_flight;  // aclFinalize waits for it
  try {
    body();
    return HCCL_SUCCESS;
  } catch (const Error& e) {
    HcclResult r = hccl_result_of(e.code());
    if (r == e.code()) {
      record_failure(fn, r, e.what());
    } else {
      record_failure(fn, r, str(e.what(), " [runtime error ", e.code(), "]").c_str());
    }
    return r;
  } catch (const std::bad_alloc&) {
    return static_cast<HcclResult>(record_failure(fn, HCCL_E_MEMORY, "host memory allocation failed"));
  } catch (const std::exception& e) {
    return static_cast<HcclResult>(record_failure(fn, HCCL_E_INTERNAL, e.what()));
  } catch (...) {
    return static_cast<HcclResult>(record_failure(fn, HCCL_E_INTERNAL, "unknown internal error"));
  }
}

}  // namespace acl_sim::capi
