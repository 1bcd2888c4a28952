// aclnn status codes as thrown errors. Code under csrc/aclnn/ throws acl_sim::Error with an
// ACLNN_* code; csrc/capi/aclnn_guard.h turns it into the returned aclnnStatus and the
// aclGetRecentErrMsg message.
#pragma once

#include "aclnn/aclnn_base.h"
#include "common/error.h"

namespace acl_sim::aclnn {

/** Throws ACLNN_ERR_PARAM_NULLPTR unless @p p is non-NULL. */
inline void require_present(const void* p, const char* what) {
  if (!p) fail(ACLNN_ERR_PARAM_NULLPTR, what, " must not be NULL");
}

/** Throw ACLNN_ERR_PARAM_INVALID(message...) unless cond: the caller passed something the operator rejects. */
#define ACLNN_REQUIRE(cond, ...) ACL_SIM_REQUIRE(cond, ACLNN_ERR_PARAM_INVALID, __VA_ARGS__)

}  // namespace acl_sim::aclnn
