/**
 * @file aclnn_softmax_cross_entropy_with_logits.h
 * acl_sim's declarations of CANN's aclnn_softmax_cross_entropy_with_logits.h operators (two-phase: GetWorkspaceSize, then
 * execute on a stream). Status of each operator in acl_sim: docs/aclnn.md.
 */
#ifndef ACL_SIM_ACLNNOP_ACLNN_SOFTMAX_CROSS_ENTROPY_WITH_LOGITS_H_
#define ACL_SIM_ACLNNOP_ACLNN_SOFTMAX_CROSS_ENTROPY_WITH_LOGITS_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSoftmaxCrossEntropyWithLogitsGetWorkspaceSize(const aclTensor* features, const aclTensor* labels, aclTensor* loss, aclTensor* backprop, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSoftmaxCrossEntropyWithLogits(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif  // ACL_SIM_ACLNNOP_ACLNN_SOFTMAX_CROSS_ENTROPY_WITH_LOGITS_H_
