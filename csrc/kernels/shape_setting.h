// Helpers of the shape-setting ops (op_registry.h): ops whose output shapes
// depend on input values. Each output view arrives with its capacity as shape;
// the op checks the actual shape fits before writing and then stores it.
#pragma once

#include "kernels/elementwise_common.h"
#include "kernels/op_shape_traits.h"

namespace acl_sim::kern {

/** Throws ACL_ERROR_OP_OUTPUT_NOT_MATCH unless @p shape fits @p out's capacity (same rank, every dim <= the
 *  capacity's); then makes @p shape the view's shape. Call before writing the output's data. */
inline void set_output_shape(const OpContext& ctx, TensorView& out, const std::vector<int64_t>& shape, const char* what) {
  bool fits = shape.size() == out.shape.size();
  for (size_t d = 0; fits && d < shape.size(); ++d) fits = shape[d] >= 0 && shape[d] <= out.shape[d];
  ACL_SIM_REQUIRE(fits, ACL_ERROR_OP_OUTPUT_NOT_MATCH, ctx.op_type, ": ", what, " needs shape ", shape_str(shape),
                  ", its buffer holds ", shape_str(out.shape));
  out.shape = shape;
}

/** True when element p is not zero (NaN counts as non-zero, -0.0 as zero). */
template <class T>
ACL_SIM_INLINE bool is_nonzero(const T* p) {
  if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>) return (p->bits & 0x7fff) != 0;
  else return *p != T(0);
}

}  // namespace acl_sim::kern
