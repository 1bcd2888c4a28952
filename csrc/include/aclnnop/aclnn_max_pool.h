/**
 * @file aclnn_max_pool.h
 * acl_sim's declarations of CANN's aclnn_max_pool.h operators (two-phase: GetWorkspaceSize, then
 * execute on a stream). Status of each operator in acl_sim: docs/aclnn.md.
 */
#ifndef ACL_SIM_ACLNNOP_ACLNN_MAX_POOL_H_
#define ACL_SIM_ACLNNOP_ACLNN_MAX_POOL_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMaxPoolGetWorkspaceSize(const aclTensor* self, const aclIntArray* kernelShape, const aclIntArray* strides, const int64_t autoPad, const aclIntArray* pads, const aclIntArray* dilations, const int64_t ceilMode, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMaxPool(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif  // ACL_SIM_ACLNNOP_ACLNN_MAX_POOL_H_
