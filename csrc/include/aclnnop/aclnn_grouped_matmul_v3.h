/**
 * @file aclnn_grouped_matmul_v3.h
 * acl_sim's declarations of CANN's aclnn_grouped_matmul_v3.h operators (two-phase: GetWorkspaceSize, then
 * execute on a stream). Status of each operator in acl_sim: docs/aclnn.md.
 */
#ifndef ACL_SIM_ACLNNOP_ACLNN_GROUPED_MATMUL_V3_H_
#define ACL_SIM_ACLNNOP_ACLNN_GROUPED_MATMUL_V3_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ggml-cann includes this header but calls none of its operators; acl_sim declares none yet. */

#ifdef __cplusplus
}
#endif

#endif  // ACL_SIM_ACLNNOP_ACLNN_GROUPED_MATMUL_V3_H_
