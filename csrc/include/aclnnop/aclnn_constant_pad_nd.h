/**
 * @file aclnn_constant_pad_nd.h
 * acl_sim's declarations of CANN's aclnn_constant_pad_nd.h operators (two-phase: GetWorkspaceSize, then
 * execute on a stream). Status of each operator in acl_sim: docs/aclnn.md.
 */
#ifndef ACL_SIM_ACLNNOP_ACLNN_CONSTANT_PAD_ND_H_
#define ACL_SIM_ACLNNOP_ACLNN_CONSTANT_PAD_ND_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnConstantPadNdGetWorkspaceSize(const aclTensor* self, const aclIntArray* pad, const aclScalar* value, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnConstantPadNd(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif  // ACL_SIM_ACLNNOP_ACLNN_CONSTANT_PAD_ND_H_
