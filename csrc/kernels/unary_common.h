// The unary map engine: y = f(x) over a whole tensor, tiled over the pool.
// float32 runs the functor in an ISA-multiversioned loop; float16/bfloat16 are
// widened to float per tile, mapped, and narrowed back; double and integers
// call the functor's own overloads.
#pragma once

#include "kernels/elementwise_common.h"
#include "kernels/elementwise_math.h"

namespace acl_sim::kern {

/** Which element types a unary op accepts beyond the float family. */
enum class UnaryTypes { Float, Numeric, SignedNumeric, Integer };  // Integer: the integer dtypes only

template <class Op>
struct MapF32 {
  Op op;
  ACL_SIM_INLINE void operator()(const float* x, float* y, int64_t n) const {
    for (int64_t i = 0; i < n; ++i) y[i] = op(x[i]);
  }
};

template <class Op, class T>
void map_block(const Op& op, const T* x, T* y, int64_t n) {
  if constexpr (std::is_same_v<T, float>) {
    isa_call(MapF32<Op>{op}, x, y, n);
  } else if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>) {
    constexpr int64_t kTile = 1024;
    float buf[kTile];
    for (int64_t i = 0; i < n; i += kTile) {
      int64_t m = std::min(kTile, n - i);
      widen(x + i, buf, static_cast<size_t>(m));
      isa_call(MapF32<Op>{op}, buf, buf, m);
      narrow(buf, y + i, static_cast<size_t>(m));
    }
  } else {
    for (int64_t i = 0; i < n; ++i) y[i] = op(x[i]);
  }
}

/** Runs y = op(x) for the op in ctx (input 0 -> output 0, same dtype, same element count).
 *  Op::kTypes says which integer types it also accepts. */
template <class Op>
void run_unary(OpContext& ctx, const Op& op) {
  constexpr UnaryTypes types = Op::kTypes;
  require_io(ctx, 1, 1);
  const TensorView& x = input(ctx, 0);
  TensorView& y = output(ctx, 0);
  require_same_dtype(ctx, x, y, "input and output");
  ACL_SIM_REQUIRE(x.numel() == y.numel(), ACL_ERROR_OP_OUTPUT_NOT_MATCH, ctx.op_type, ": output shape ",
                  shape_str(y.shape), " does not match input ", shape_str(x.shape));
  bool ok = (types != UnaryTypes::Integer && is_float_dtype(x.dtype)) ||
            (types == UnaryTypes::Integer && is_int_dtype(x.dtype)) ||
            (types == UnaryTypes::Numeric && is_int_dtype(x.dtype)) ||
            (types == UnaryTypes::SignedNumeric &&
             (x.dtype == ACL_INT8 || x.dtype == ACL_INT16 || x.dtype == ACL_INT32 || x.dtype == ACL_INT64));
  ACL_SIM_REQUIRE(ok, ACL_ERROR_UNSUPPORTED_DATA_TYPE, ctx.op_type, ": unsupported dtype ", dtype_name(x.dtype));
  dispatch_dtype(x.dtype, ctx.op_type, [&](auto tag) {
    using T = decltype(tag);
    constexpr bool float_family = std::is_floating_point_v<T> || std::is_same_v<T, Half> ||
                                  std::is_same_v<T, BFloat16>;
    if constexpr (std::is_same_v<T, bool> || (!float_family && types == UnaryTypes::Float) ||
                  (std::is_unsigned_v<T> && types == UnaryTypes::SignedNumeric) ||
                  (float_family && types == UnaryTypes::Integer)) {
      fail(ACL_ERROR_UNSUPPORTED_DATA_TYPE, ctx.op_type, ": unsupported dtype ", dtype_name(x.dtype));
    } else {
      const T* xp = static_cast<const T*>(x.data);
      T* yp = static_cast<T*>(y.data);
      parallel_blocks(x.numel(), kBlockElems, [&](int64_t b, int64_t e) { map_block(op, xp + b, yp + b, e - b); });
    }
  });
}

}  // namespace acl_sim::kern
