// Element type conversion between every supported aclDataType (the Cast op and
// internal dtype normalisation, e.g. Pow's exponent).
#pragma once

#include "kernels/elementwise_common.h"

namespace acl_sim::kern {

/** Converts n elements from src (dtype sdt) to dst (dtype ddt), tiled over the pool. Floats to integers
 *  truncate toward zero; anything to bool is `!= 0`; float16/bfloat16 round to nearest even.
 *  Throws ACL_ERROR_UNSUPPORTED_DATA_TYPE (naming ctx.op_type) for other dtypes. */
void cast_elements(const OpContext& ctx, const void* src, int sdt, void* dst, int ddt, int64_t n);

}  // namespace acl_sim::kern
