/**
 * @file aclnn_hardswish.h
 * acl_sim's declarations of CANN's aclnn_hardswish.h operators (two-phase: GetWorkspaceSize, then
 * execute on a stream). Status of each operator in acl_sim: docs/aclnn.md.
 */
#ifndef ACL_SIM_ACLNNOP_ACLNN_HARDSWISH_H_
#define ACL_SIM_ACLNNOP_ACLNN_HARDSWISH_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnHardswish: out = hardswish(self), elementwise. */
ACLNN_API aclnnStatus aclnnHardswishGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnHardswish(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif  // ACL_SIM_ACLNNOP_ACLNN_HARDSWISH_H_
