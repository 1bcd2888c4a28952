// Ops that only reinterpret or describe shapes, or fill from scalars:
// Reshape Flatten Squeeze Unsqueeze Identity Dropout(inference) Shape Size
// ConstantOfShape Range EyeLike Trilu.
//
// The copying ops move bytes only when the executor gave the output its own
// buffer (an in-place alias is a no-op).
#include <cmath>

#include "kernels/data_movement.h"

namespace acl_sim::kern {
namespace {

void run_copy(OpContext& ctx) {
  require_io(ctx, 1, 1);
  const TensorView& x = input(ctx, 0);
  TensorView& y = output(ctx, 0);
  require_same_dtype(ctx, x, y, "input and output");
  ACL_SIM_REQUIRE(x.numel() == y.numel(), ACL_ERROR_OP_OUTPUT_NOT_MATCH, ctx.op_type, ": output shape ",
                  shape_str(y.shape), " holds ", y.numel(), " elements, input ", shape_str(x.shape), " holds ",
                  x.numel());
  parallel_copy(y.data, x.data, static_cast<size_t>(x.numel()) * dtype_size(x.dtype));
}

// Dropout at inference is the identity; the optional mask output is all true.
void run_dropout(OpContext& ctx) {
  run_copy(ctx);
  if (ctx.outputs.size() > 1 && ctx.outputs[1].present()) {
    TensorView& mask = ctx.outputs[1];
    ACL_SIM_REQUIRE(mask.dtype == ACL_BOOL, ACL_ERROR_OP_OUTPUT_NOT_MATCH, "Dropout: mask must be bool");
    std::memset(mask.data, 1, static_cast<size_t>(mask.numel()));
  }
}

void run_shape(OpContext& ctx) {
  require_io(ctx, 1, 1);
  const TensorView& x = ctx.inputs[0];
  TensorView& y = output(ctx, 0);
  const int64_t rank = static_cast<int64_t>(x.shape.size());
  auto clamp = [&](int64_t v) {
    if (v < 0) v += rank;
    return std::min(std::max<int64_t>(v, 0), rank);
  };
  int64_t start = clamp(attrs_of(ctx).get_int("start", 0));
  int64_t end = clamp(attrs_of(ctx).get_int("end", rank));
  int64_t n = std::max<int64_t>(end - start, 0);
  ACL_SIM_REQUIRE(y.dtype == ACL_INT64, ACL_ERROR_OP_OUTPUT_NOT_MATCH, "Shape: output must be int64");
  require_shape(ctx, y, {n}, "output");
  for (int64_t i = 0; i < n; ++i) static_cast<int64_t*>(y.data)[i] = x.shape[start + i];
}

void run_size(OpContext& ctx) {
  require_io(ctx, 1, 1);
  TensorView& y = output(ctx, 0);
  ACL_SIM_REQUIRE(y.dtype == ACL_INT64 && y.numel() == 1, ACL_ERROR_OP_OUTPUT_NOT_MATCH,
                  "Size: output must be an int64 scalar");
  *static_cast<int64_t*>(y.data) = ctx.inputs[0].numel();
}

void fill_value(const OpContext& ctx, TensorView& y, double v) {
  dispatch_dtype(y.dtype, ctx.op_type, [&](auto tag) {
    using T = decltype(tag);
    T value;
    store_from_double(&value, v);
    T* p = static_cast<T*>(y.data);
    parallel_blocks(y.numel(), kBlockElems, [&](int64_t b, int64_t e) { std::fill(p + b, p + e, value); });
  });
}

// ConstantOfShape: ONNX's `value` is a one-element tensor attribute; ATC passes it as a float or int
// attribute (docs/op_coverage.md) and the output dtype is the tensor's dtype.
void run_constant_of_shape(OpContext& ctx) {
  TensorView& y = output(ctx, 0);
  fill_value(ctx, y, attrs_of(ctx).get_float("value", 0.0));
}

void run_range(OpContext& ctx) {
  require_io(ctx, 3, 1);
  TensorView& y = output(ctx, 0);
  for (size_t i = 0; i < 3; ++i) {
    ACL_SIM_REQUIRE(ctx.inputs[i].numel() == 1, ACL_ERROR_OP_INPUT_NOT_MATCH, "Range: input ", i,
                    " must be a scalar");
    require_same_dtype(ctx, ctx.inputs[i], y, "inputs and output");
  }
  ACL_SIM_REQUIRE(y.shape.size() == 1, ACL_ERROR_OP_OUTPUT_NOT_MATCH, "Range: output must be 1-D");
  dispatch_dtype(y.dtype, "Range", [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      T start = *static_cast<const T*>(ctx.inputs[0].data), limit = *static_cast<const T*>(ctx.inputs[1].data);
      T delta = *static_cast<const T*>(ctx.inputs[2].data);
      ACL_SIM_REQUIRE(delta != 0, ACL_ERROR_OP_INPUT_NOT_MATCH, "Range: delta is 0");
      int64_t n = std::max<int64_t>(0, (static_cast<int64_t>(limit) - start + delta + (delta > 0 ? -1 : 1)) / delta);
      require_shape(ctx, y, {n}, "output");
      for (int64_t i = 0; i < n; ++i) static_cast<T*>(y.data)[i] = static_cast<T>(start + i * delta);
    } else if constexpr (std::is_same_v<T, bool>) {
      fail(ACL_ERROR_UNSUPPORTED_DATA_TYPE, "Range: unsupported dtype bool");
    } else {
      double start = scalar_as_double(ctx.inputs[0]), limit = scalar_as_double(ctx.inputs[1]);
      double delta = scalar_as_double(ctx.inputs[2]);
      ACL_SIM_REQUIRE(delta != 0, ACL_ERROR_OP_INPUT_NOT_MATCH, "Range: delta is 0");
      int64_t n = std::max<int64_t>(0, static_cast<int64_t>(std::ceil((limit - start) / delta)));
      require_shape(ctx, y, {n}, "output");
      for (int64_t i = 0; i < n; ++i) store_from_double(static_cast<T*>(y.data) + i, start + static_cast<double>(i) * delta);
    }
  });
}

void run_eye_like(OpContext& ctx) {
  require_io(ctx, 1, 1);
  TensorView& y = output(ctx, 0);
  ACL_SIM_REQUIRE(y.shape.size() == 2, ACL_ERROR_OP_OUTPUT_NOT_MATCH, "EyeLike: output must be 2-D");
  int64_t k = attrs_of(ctx).get_int("k", 0);
  fill_value(ctx, y, 0.0);
  dispatch_dtype(y.dtype, "EyeLike", [&](auto tag) {
    using T = decltype(tag);
    T one;
    store_from_double(&one, 1.0);
    for (int64_t i = 0; i < y.shape[0]; ++i)
      if (i + k >= 0 && i + k < y.shape[1]) static_cast<T*>(y.data)[i * y.shape[1] + i + k] = one;
  });
}

// Trilu: keep the upper (j - i >= k) or lower (j - i <= k) triangle of each trailing matrix.
void run_trilu(OpContext& ctx) {
  require_io(ctx, 1, 1);
  const TensorView& x = input(ctx, 0);
  TensorView& y = output(ctx, 0);
  require_same_dtype(ctx, x, y, "input and output");
  require_shape(ctx, y, x.shape, "output");
  ACL_SIM_REQUIRE(x.shape.size() >= 2, ACL_ERROR_OP_INPUT_NOT_MATCH, "Trilu: input must be at least 2-D");
  const TensorView* kt = optional_input(ctx, 1);
  int64_t k = kt ? scalar_as_int(*kt) : 0;
  bool upper = attrs_of(ctx).get_int("upper", 1) != 0;
  int64_t rows = x.shape[x.shape.size() - 2], cols = x.shape.back(), mats = x.numel() / std::max<int64_t>(rows * cols, 1);
  size_t es = dtype_size(x.dtype);
  parallel_blocks(mats * rows, rows_grain(cols), [&](int64_t b, int64_t e) {
    for (int64_t r = b; r < e; ++r) {
      int64_t i = r % rows;
      const char* src = static_cast<const char*>(x.data) + r * cols * es;
      char* dst = static_cast<char*>(y.data) + r * cols * es;
      // Columns kept: upper: j >= i + k; lower: j <= i + k.
      int64_t lo = upper ? std::clamp<int64_t>(i + k, 0, cols) : 0;
      int64_t hi = upper ? cols : std::clamp<int64_t>(i + k + 1, 0, cols);
      if (hi <= lo) {
        std::memset(dst, 0, static_cast<size_t>(cols) * es);
        continue;
      }
      std::memset(dst, 0, static_cast<size_t>(lo) * es);
      std::memset(dst + hi * es, 0, static_cast<size_t>(cols - hi) * es);
      if (dst != src) std::memcpy(dst + lo * es, src + lo * es, static_cast<size_t>(hi - lo) * es);
    }
  });
}

}  // namespace

ACL_SIM_REGISTER_OP(Reshape, run_copy);
ACL_SIM_REGISTER_OP(Flatten, run_copy);
ACL_SIM_REGISTER_OP(Squeeze, run_copy);
ACL_SIM_REGISTER_OP(Unsqueeze, run_copy);
ACL_SIM_REGISTER_OP(Identity, run_copy);
ACL_SIM_REGISTER_OP(Dropout, run_dropout);
ACL_SIM_REGISTER_OP(Shape, run_shape);
ACL_SIM_REGISTER_OP(Size, run_size);
ACL_SIM_REGISTER_OP(ConstantOfShape, run_constant_of_shape);
ACL_SIM_REGISTER_OP(Range, run_range);
ACL_SIM_REGISTER_OP(EyeLike, run_eye_like);
ACL_SIM_REGISTER_OP(Trilu, run_trilu);

}  // namespace acl_sim::kern
