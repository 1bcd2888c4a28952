// QuantizeLinear / DequantizeLinear (opsets 10-23): per-tensor, per-axis (`axis`) and blocked
// (`block_size`, opset 21) scales and zero points.
//
//   QuantizeLinear:   y = saturate(round_half_even(x / scale) + zero_point)   (y: zero_point's dtype,
//                     or the output view's dtype; default uint8)
//   DequantizeLinear: y = (x - zero_point) * scale                            (y: scale's dtype)
//
// x is viewed as [outer, A, inner] around `axis`; the scale (and zero point) of an element is
// element 0 (per tensor), [a] (per axis) or [o, a / block_size, i] (blocked). Rows of `inner`
// elements share one scale, so the inner loop is a plain vectorisable map.
#include <cmath>
#include <limits>

#include "kernels/elementwise_common.h"

namespace acl_sim::kern {
namespace {

struct QuantLayout {
  int64_t outer = 1, a = 1, inner = 1, blocks = 1, block = 1;
  enum { Tensor, Axis, Blocked } kind = Tensor;

  int64_t scale_index(int64_t o, int64_t ai, int64_t i) const {
    switch (kind) {
      case Tensor: return 0;
      case Axis: return ai;
      default: return (o * blocks + ai / block) * inner + i;
    }
  }
};

QuantLayout quant_layout(const OpContext& ctx, const TensorView& x, const TensorView& scale) {
  QuantLayout l;
  if (scale.numel() == 1 && scale.shape.size() <= 1) {  // per tensor: one row of every element
    l.inner = x.numel();
    return l;
  }
  const auto rank = static_cast<int64_t>(x.shape.size());
  int64_t axis = normalize_axis(ctx, attrs_of(ctx).get_int("axis", 1), rank);
  l.outer = prod(x.shape, 0, static_cast<size_t>(axis));
  l.a = x.shape[static_cast<size_t>(axis)];
  l.inner = prod(x.shape, static_cast<size_t>(axis) + 1);
  int64_t block = attrs_of(ctx).get_int("block_size", 0);
  if (block > 0) {
    l.kind = QuantLayout::Blocked;
    l.block = block;
    l.blocks = (l.a + block - 1) / block;
    std::vector<int64_t> expect = x.shape;
    expect[static_cast<size_t>(axis)] = l.blocks;
    ACL_SIM_REQUIRE(scale.shape == expect, ACL_ERROR_OP_INPUT_NOT_MATCH, ctx.op_type, ": blocked scale ",
                    shape_str(scale.shape), " does not match ", shape_str(expect));
    return l;
  }
  ACL_SIM_REQUIRE(scale.shape.size() == 1 && scale.shape[0] == l.a, ACL_ERROR_OP_INPUT_NOT_MATCH, ctx.op_type,
                  ": per-axis scale ", shape_str(scale.shape), " must have ", l.a, " entries (axis ", axis, ")");
  l.kind = QuantLayout::Axis;
  return l;
}

bool is_quant_int(int dt) {
  return dt == ACL_INT8 || dt == ACL_UINT8 || dt == ACL_INT16 || dt == ACL_UINT16 || dt == ACL_INT32;
}

template <class X, class Y, class S>
void quantize_typed(const QuantLayout& l, const X* x, const S* scale, const Y* zp, Y* y) {
  using C = std::conditional_t<std::is_same_v<X, double> || std::is_same_v<S, double>, double, float>;
  const double lo = static_cast<double>(std::numeric_limits<Y>::lowest());
  const double hi = static_cast<double>(std::numeric_limits<Y>::max());
  parallel_blocks(l.outer * l.a, rows_grain(l.inner), [&](int64_t b, int64_t e) {
    for (int64_t r = b; r < e; ++r) {
      int64_t o = r / l.a, ai = r % l.a;
      const X* xr = x + r * l.inner;
      Y* yr = y + r * l.inner;
      for (int64_t i = 0; i < l.inner; ++i) {
        int64_t s = l.scale_index(o, ai, i);
        // x / scale in the inputs' precision (float32 unless one is double), as onnxruntime:
        // in double, 0.5 / 0.019607844f is 25.4999991 and would round to 25 instead of 26.
        auto ratio = static_cast<C>(load_as_double(xr + i)) / static_cast<C>(load_as_double(scale + s));
        double q = std::nearbyint(static_cast<double>(ratio));  // half to even
        q += zp ? static_cast<double>(zp[s]) : 0.0;
        q = q != q ? 0.0 : std::min(hi, std::max(lo, q));
        yr[i] = static_cast<Y>(q);
      }
    }
  });
}

template <class X, class Y, class S>
void dequantize_typed(const QuantLayout& l, const X* x, const S* scale, const X* zp, Y* y) {
  parallel_blocks(l.outer * l.a, rows_grain(l.inner), [&](int64_t b, int64_t e) {
    for (int64_t r = b; r < e; ++r) {
      int64_t o = r / l.a, ai = r % l.a;
      const X* xr = x + r * l.inner;
      Y* yr = y + r * l.inner;
      for (int64_t i = 0; i < l.inner; ++i) {
        int64_t s = l.scale_index(o, ai, i);
        double z = zp ? static_cast<double>(zp[s]) : 0.0;
        store_from_double(yr + i, (static_cast<double>(xr[i]) - z) * load_as_double(scale + s));
      }
    }
  });
}

// Calls f(T{}) for the quantised integer dtypes.
template <class F>
void dispatch_quant(int dt, const char* op, F&& f) {
  switch (dt) {
    case ACL_INT8: return f(int8_t{});
    case ACL_UINT8: return f(uint8_t{});
    case ACL_INT16: return f(int16_t{});
    case ACL_UINT16: return f(uint16_t{});
    case ACL_INT32: return f(int32_t{});
    default: fail(ACL_ERROR_UNSUPPORTED_DATA_TYPE, op, ": unsupported quantised dtype ", dtype_name(dt));
  }
}

void run_quantize(OpContext& ctx) {
  require_io(ctx, 2, 1);
  const TensorView& x = input(ctx, 0);
  const TensorView& scale = input(ctx, 1);
  const TensorView* zp = optional_input(ctx, 2);
  TensorView& y = output(ctx, 0);
  require_shape(ctx, y, x.shape, "output");
  ACL_SIM_REQUIRE(is_float_dtype(x.dtype) || x.dtype == ACL_INT32, ACL_ERROR_UNSUPPORTED_DATA_TYPE, ctx.op_type,
                  ": unsupported input dtype ", dtype_name(x.dtype));
  ACL_SIM_REQUIRE(is_float_dtype(scale.dtype), ACL_ERROR_UNSUPPORTED_DATA_TYPE, ctx.op_type,
                  ": scale must be a float tensor");
  ACL_SIM_REQUIRE(is_quant_int(y.dtype), ACL_ERROR_UNSUPPORTED_DATA_TYPE, ctx.op_type,
                  ": unsupported output dtype ", dtype_name(y.dtype), " (int8, uint8, int16, uint16, int32)");
  if (zp != nullptr) {
    require_same_dtype(ctx, *zp, y, "zero point and output");
    require_shape(ctx, *zp, scale.shape, "zero point");
  }
  QuantLayout l = quant_layout(ctx, x, scale);
  dispatch_dtype(x.dtype, ctx.op_type, [&](auto xt) {
    using X = decltype(xt);
    dispatch_dtype(scale.dtype, ctx.op_type, [&](auto st) {
      using S = decltype(st);
      dispatch_quant(y.dtype, ctx.op_type, [&](auto yt) {
        using Y = decltype(yt);
        if constexpr (std::is_same_v<X, bool> || std::is_same_v<S, bool>) {
          fail(ACL_ERROR_UNSUPPORTED_DATA_TYPE, ctx.op_type, ": unsupported dtype bool");
        } else {
          quantize_typed<X, Y, S>(l, static_cast<const X*>(x.data), static_cast<const S*>(scale.data),
                                  zp ? static_cast<const Y*>(zp->data) : nullptr, static_cast<Y*>(y.data));
        }
      });
    });
  });
}

void run_dequantize(OpContext& ctx) {
  require_io(ctx, 2, 1);
  const TensorView& x = input(ctx, 0);
  const TensorView& scale = input(ctx, 1);
  const TensorView* zp = optional_input(ctx, 2);
  TensorView& y = output(ctx, 0);
  require_shape(ctx, y, x.shape, "output");
  ACL_SIM_REQUIRE(is_float_dtype(scale.dtype) && is_float_dtype(y.dtype), ACL_ERROR_UNSUPPORTED_DATA_TYPE,
                  ctx.op_type, ": scale and output must be float tensors");
  if (zp != nullptr) {
    require_same_dtype(ctx, *zp, x, "zero point and input");
    require_shape(ctx, *zp, scale.shape, "zero point");
  }
  QuantLayout l = quant_layout(ctx, x, scale);
  dispatch_quant(x.dtype, ctx.op_type, [&](auto xt) {
    using X = decltype(xt);
    dispatch_dtype(scale.dtype, ctx.op_type, [&](auto st) {
      using S = decltype(st);
      dispatch_dtype(y.dtype, ctx.op_type, [&](auto yt) {
        using Y = decltype(yt);
        if constexpr (std::is_integral_v<S> || std::is_integral_v<Y>) {
          fail(ACL_ERROR_UNSUPPORTED_DATA_TYPE, ctx.op_type, ": float scale and output only");
        } else {
          dequantize_typed<X, Y, S>(l, static_cast<const X*>(x.data), static_cast<const S*>(scale.data),
                                    zp ? static_cast<const X*>(zp->data) : nullptr, static_cast<Y*>(y.data));
        }
      });
    });
  });
}

}  // namespace

ACL_SIM_REGISTER_OP(QuantizeLinear, run_quantize);
ACL_SIM_REGISTER_OP(DequantizeLinear, run_dequantize);

}  // namespace acl_sim::kern
