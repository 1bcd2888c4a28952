/**
 * @file aclnn_im2col.h
 * acl_sim's declarations of CANN's aclnn_im2col.h operators (two-phase: GetWorkspaceSize, then
 * execute on a stream). Status of each operator in acl_sim: docs/aclnn.md.
 */
#ifndef ACL_SIM_ACLNNOP_ACLNN_IM2COL_H_
#define ACL_SIM_ACLNNOP_ACLNN_IM2COL_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnIm2colGetWorkspaceSize(const aclTensor* self, const aclIntArray* kernelSize, const aclIntArray* dilation, const aclIntArray* padding, const aclIntArray* stride, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnIm2col(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif  // ACL_SIM_ACLNNOP_ACLNN_IM2COL_H_
