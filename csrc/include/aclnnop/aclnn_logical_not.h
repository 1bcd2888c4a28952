/**
 * @file aclnn_logical_not.h
 * acl_sim's declarations of CANN's aclnn_logical_not.h operators (two-phase: GetWorkspaceSize, then
 * execute on a stream). Status of each operator in acl_sim: docs/aclnn.md.
 */
#ifndef ACL_SIM_ACLNNOP_ACLNN_LOGICAL_NOT_H_
#define ACL_SIM_ACLNNOP_ACLNN_LOGICAL_NOT_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnLogicalNot: out = logicalnot(self), elementwise. */
ACLNN_API aclnnStatus aclnnLogicalNotGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnLogicalNot(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif  // ACL_SIM_ACLNNOP_ACLNN_LOGICAL_NOT_H_
