/**
 * @file aclnn_recurrent_gated_delta_rule.h
 * acl_sim's declarations of CANN's aclnn_recurrent_gated_delta_rule.h operators (two-phase: GetWorkspaceSize, then
 * execute on a stream). Status of each operator in acl_sim: docs/aclnn.md.
 */
#ifndef ACL_SIM_ACLNNOP_ACLNN_RECURRENT_GATED_DELTA_RULE_H_
#define ACL_SIM_ACLNNOP_ACLNN_RECURRENT_GATED_DELTA_RULE_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ggml-cann includes this header but calls none of its operators; acl_sim declares none yet. */

#ifdef __cplusplus
}
#endif

#endif  // ACL_SIM_ACLNNOP_ACLNN_RECURRENT_GATED_DELTA_RULE_H_
