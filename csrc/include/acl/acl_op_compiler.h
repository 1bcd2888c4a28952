/**
 * @file acl_op_compiler.h
 * AscendCL online single-op compilation. CANN declares aclopCompile and
 * aclopCompileAndExecute here; acl_sim compiles single ops on the fly (see
 * docs/aclop.md), so aclopCompile checks the call and prepares the op, and
 * aclopCompileAndExecute (declared in acl_op.h, included here) runs it.
 * The compile options (aclSetCompileopt) are not implemented.
 */
#ifndef ACL_SIM_ACL_OP_COMPILER_H_
#define ACL_SIM_ACL_OP_COMPILER_H_

#include "acl_base.h"
#include "acl_op.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Check (type, descs, attributes) the way execution would and prepare the op; returns the
 * code execution would return (ACL_ERROR_OP_NOT_FOUND, ACL_ERROR_OP_INPUT_NOT_MATCH, ...).
 * engineType, compileFlag and opPath are accepted and ignored.
 */
ACL_FUNC_VISIBILITY aclError aclopCompile(const char *opType, int numInputs, const aclTensorDesc *const inputDesc[],
                                          int numOutputs, const aclTensorDesc *const outputDesc[],
                                          const aclopAttr *attr, aclopEngineType engineType,
                                          aclopCompileType compileFlag, const char *opPath);

#ifdef __cplusplus
}
#endif

#endif  // ACL_SIM_ACL_OP_COMPILER_H_
