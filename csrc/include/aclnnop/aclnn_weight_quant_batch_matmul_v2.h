/**
 * @file aclnn_weight_quant_batch_matmul_v2.h
 * acl_sim's declarations of CANN's aclnn_weight_quant_batch_matmul_v2.h operators (two-phase: GetWorkspaceSize, then
 * execute on a stream). Status of each operator in acl_sim: docs/aclnn.md.
 */
#ifndef ACL_SIM_ACLNNOP_ACLNN_WEIGHT_QUANT_BATCH_MATMUL_V2_H_
#define ACL_SIM_ACLNNOP_ACLNN_WEIGHT_QUANT_BATCH_MATMUL_V2_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnWeightQuantBatchMatmulV2GetWorkspaceSize(const aclTensor* x, const aclTensor* weight, const aclTensor* antiquantScale, const aclTensor* antiquantOffsetOptional, const aclTensor* quantScaleOptional, const aclTensor* quantOffsetOptional, const aclTensor* biasOptional, int antiquantGroupSize, const aclTensor* y, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnWeightQuantBatchMatmulV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif  // ACL_SIM_ACLNNOP_ACLNN_WEIGHT_QUANT_BATCH_MATMUL_V2_H_
