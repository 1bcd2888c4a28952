// Every error code the core throws, and the one table of their names.
//
// The values live in the public headers, with CANN's names: ACL_ERROR_* (acl_base.h),
// ACL_ERROR_RT_* (error_codes/rt_error_codes.h), ACL_ERROR_GE_* (error_codes/ge_error_codes.h),
// ACLNN_ERR_* (aclnn/aclnn_base.h) and HcclResult (hccl/hccl_types.h). Including this header
// gives all of them, so core code names a code instead of writing its number. The families'
// numbers do not overlap (HcclResult is 1-24, the others are six digits), so one table names them
// all, and the two translations between HCCL and ACL codes live here too.
#pragma once

#include <cstddef>

#include "acl/acl_base.h"
#include "acl/error_codes/ge_error_codes.h"
#include "acl/error_codes/rt_error_codes.h"
#include "aclnn/aclnn_base.h"
#include "common/export.h"
#include "hccl/hccl_types.h"

namespace acl_sim {

/** One error code: its value, its CANN name, and for HcclResult codes HcclGetErrorString's text. */
struct ErrorCodeInfo {
  int code;
  const char* name;  // "ACL_ERROR_RT_PARAM_INVALID", "HCCL_E_PARA", "ACLNN_ERR_PARAM_NULLPTR"
  const char* text;  // "parameter error" for HCCL codes; nullptr for the others
};

/** Every named code (success, 0, is not in the table); @p count gets the number of rows. */
ACL_SIM_EXPORT const ErrorCodeInfo* all_error_codes(size_t* count);

/** The CANN name of @p code ("ACL_SUCCESS" for 0), or nullptr when no header names it. */
ACL_SIM_EXPORT const char* error_code_name(int code);

/** HcclGetErrorString: "success", the text of an HcclResult, or "unknown error". */
ACL_SIM_EXPORT const char* hccl_error_text(int code);

/** The HcclResult an HCCL entry point returns for @p code thrown inside the core: HcclResult
 *  codes pass through; runtime and ACL codes map to the nearest one (parameter, memory, else
 *  HCCL_E_RUNTIME). */
ACL_SIM_EXPORT HcclResult hccl_result_of(int code);

/** The code a failed collective leaves in its stream (aclrtSynchronizeStream returns it): a timeout
 *  reads as the stream sync timeout, anything else as an internal runtime error. */
ACL_SIM_EXPORT int stream_code_of_hccl(int hccl_code);

}  // namespace acl_sim
