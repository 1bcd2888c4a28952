/**
 * @file aclnn_roll.h
 * acl_sim's declarations of CANN's aclnn_roll.h operators (two-phase: GetWorkspaceSize, then
 * execute on a stream). Status of each operator in acl_sim: docs/aclnn.md.
 */
#ifndef ACL_SIM_ACLNNOP_ACLNN_ROLL_H_
#define ACL_SIM_ACLNNOP_ACLNN_ROLL_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnRollGetWorkspaceSize(const aclTensor* x, const aclIntArray* shifts, const aclIntArray* dims, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnRoll(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif  // ACL_SIM_ACLNNOP_ACLNN_ROLL_H_
