// OneHot(indices, depth, values[off, on]) with `axis`: the output is indices' shape with a
// depth axis inserted at `axis`, `on` where the (wrapped) index points and `off` elsewhere.
// Values are moved as raw elements (any dtype); indices may be any integer or float dtype.
#include <cmath>
#include <cstring>

#include "kernels/elementwise_common.h"

namespace acl_sim::kern {
namespace {

template <class E>
void fill_one_hot(const std::vector<int64_t>& idx, int64_t outer, int64_t depth, int64_t inner, E off, E on,
                  E* y) {
  // Row (o, d, *) of the output: `off` everywhere, then `on` where idx[o, j] == d.
  parallel_blocks(outer * depth, rows_grain(inner), [&](int64_t b, int64_t e) {
    for (int64_t r = b; r < e; ++r) {
      int64_t o = r / depth, d = r % depth;
      E* row = y + r * inner;
      const int64_t* ix = idx.data() + o * inner;
      for (int64_t j = 0; j < inner; ++j) row[j] = ix[j] == d ? on : off;
    }
  });
}

template <class E>
void one_hot_typed(const std::vector<int64_t>& idx, int64_t outer, int64_t depth, int64_t inner,
                   const TensorView& values, TensorView& y) {
  const auto* v = static_cast<const E*>(values.data);
  fill_one_hot<E>(idx, outer, depth, inner, v[0], v[1], static_cast<E*>(y.data));
}

void run_one_hot(OpContext& ctx) {
  require_io(ctx, 3, 1);
  const TensorView& indices = input(ctx, 0);
  const TensorView& depth_t = input(ctx, 1);
  const TensorView& values = input(ctx, 2);
  TensorView& y = output(ctx, 0);
  ACL_SIM_REQUIRE(depth_t.numel() == 1, ACL_ERROR_OP_INPUT_NOT_MATCH, ctx.op_type,
                  ": depth must hold one value, has ", depth_t.numel());
  double depth_value = scalar_as_double(depth_t);
  ACL_SIM_REQUIRE(std::isfinite(depth_value) && depth_value >= 1, ACL_ERROR_OP_INPUT_NOT_MATCH, ctx.op_type,
                  ": depth must be >= 1, got ", depth_value);
  auto depth = static_cast<int64_t>(depth_value);
  ACL_SIM_REQUIRE(values.numel() == 2, ACL_ERROR_OP_INPUT_NOT_MATCH, ctx.op_type,
                  ": values must hold [off, on], has ", values.numel(), " elements");
  require_same_dtype(ctx, values, y, "values and output");
  ACL_SIM_REQUIRE(is_int_dtype(indices.dtype) || is_float_dtype(indices.dtype), ACL_ERROR_UNSUPPORTED_DATA_TYPE,
                  ctx.op_type, ": unsupported indices dtype ", dtype_name(indices.dtype));
  const auto rank = static_cast<int64_t>(indices.shape.size());
  int64_t axis = normalize_axis(ctx, attrs_of(ctx).get_int("axis", -1), rank + 1);
  std::vector<int64_t> expect(indices.shape.begin(), indices.shape.begin() + axis);
  expect.push_back(depth);
  expect.insert(expect.end(), indices.shape.begin() + axis, indices.shape.end());
  require_shape(ctx, y, expect, "output");
  int64_t outer = prod(indices.shape, 0, static_cast<size_t>(axis));
  int64_t inner = prod(indices.shape, static_cast<size_t>(axis));
  // Indices as int64, wrapped once (negative counts from the end); out of range matches nothing.
  std::vector<int64_t> idx(static_cast<size_t>(indices.numel()));
  dispatch_dtype(indices.dtype, ctx.op_type, [&](auto tag) {
    using T = decltype(tag);
    const T* p = static_cast<const T*>(indices.data);
    parallel_blocks(indices.numel(), kBlockElems, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) {
        auto k = static_cast<int64_t>(load_as_double(p + i));  // floats truncate, as onnxruntime
        if (k < 0) k += depth;
        idx[static_cast<size_t>(i)] = (k >= 0 && k < depth) ? k : -1;
      }
    });
  });
  switch (dtype_size(y.dtype)) {
    case 1: one_hot_typed<uint8_t>(idx, outer, depth, inner, values, y); break;
    case 2: one_hot_typed<uint16_t>(idx, outer, depth, inner, values, y); break;
    case 4: one_hot_typed<uint32_t>(idx, outer, depth, inner, values, y); break;
    case 8: one_hot_typed<uint64_t>(idx, outer, depth, inner, values, y); break;
    default: fail(ACL_ERROR_UNSUPPORTED_DATA_TYPE, ctx.op_type, ": unsupported values dtype ", dtype_name(y.dtype));
  }
}

}  // namespace

ACL_SIM_REGISTER_OP(OneHot, run_one_hot);

}  // namespace acl_sim::kern
