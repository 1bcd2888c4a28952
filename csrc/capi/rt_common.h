// Helpers shared by the runtime's extern "C" entry points.
#pragma once

#include "acl/acl.h"
#include "capi/api_guard.h"
#include "common/error.h"
#include "runtime/runtime.h"

namespace acl_sim::capi {

/** Runtime after checking aclInit was called (100001 otherwise). */
inline Runtime& rt() {
  Runtime& r = Runtime::get();
  r.require_initialized();
  return r;
}

/** Throw ACL_ERROR_INVALID_PARAM (100000) naming @p what when @p p is NULL. */
inline void require_not_null(const void* p, const char* what) {
  if (!p) fail(ACL_ERROR_INVALID_PARAM, what, " must not be NULL");
}

}  // namespace acl_sim::capi
