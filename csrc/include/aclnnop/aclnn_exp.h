/**
 * @file aclnn_exp.h
 * acl_sim's declarations of CANN's aclnn_exp.h operators (two-phase: GetWorkspaceSize, then
 * execute on a stream). Status of each operator in acl_sim: docs/aclnn.md.
 */
#ifndef ACL_SIM_ACLNNOP_ACLNN_EXP_H_
#define ACL_SIM_ACLNNOP_ACLNN_EXP_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnExp: out = exp(self), elementwise. */
ACLNN_API aclnnStatus aclnnExpGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnExp(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

ACLNN_API aclnnStatus aclnnInplaceExpGetWorkspaceSize(aclTensor* selfRef, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceExp(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif  // ACL_SIM_ACLNNOP_ACLNN_EXP_H_
