/**
 * @file ge_error_codes.h
 * Graph-engine error codes (ACL_ERROR_GE_*), with CANN's names and values.
 * aclmdl passes them through unchanged, as CANN does (included by acl_mdl.h).
 */
#ifndef ACL_SIM_GE_ERROR_CODES_H_
#define ACL_SIM_GE_ERROR_CODES_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

static const uint32_t ACL_ERROR_GE_PARAM_INVALID = 145000;
static const uint32_t ACL_ERROR_GE_EXEC_MODEL_PATH_INVALID = 145002;
static const uint32_t ACL_ERROR_GE_EXEC_MODEL_ID_INVALID = 145003;
static const uint32_t ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID = 145006;
static const uint32_t ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID = 145013;
static const uint32_t ACL_ERROR_GE_SHAPE_INVALID = 145021;
static const uint32_t ACL_ERROR_GE_MEMORY_ALLOCATION = 245000;
static const uint32_t ACL_ERROR_GE_INTERNAL_ERROR = 545000;
static const uint32_t ACL_ERROR_GE_LOAD_MODEL = 545001;

#ifdef __cplusplus
}
#endif

#endif  // ACL_SIM_GE_ERROR_CODES_H_
