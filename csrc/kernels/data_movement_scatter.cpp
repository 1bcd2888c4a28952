// ScatterND and ScatterElements (with the opset-16/18 `reduction`
// none/add/mul/max/min). The output starts as a copy of data; updates are
// applied in index order on the calling thread, so duplicate indices resolve
// deterministically (last write wins for "none", as onnxruntime).
#include "kernels/data_movement.h"

namespace acl_sim::kern {
namespace {

enum class Reduction { None, Add, Mul, Max, Min };

Reduction reduction_of(const OpContext& ctx) {
  std::string r = attrs_of(ctx).get_string("reduction", "none");
  if (r == "none") return Reduction::None;
  if (r == "add") return Reduction::Add;
  if (r == "mul") return Reduction::Mul;
  if (r == "max") return Reduction::Max;
  if (r == "min") return Reduction::Min;
  fail(ACL_ERROR_OP_ATTR_NOT_MATCH, ctx.op_type, ": unknown reduction '", r, "'");
}

template <class T>
void apply(T* dst, const T* src, Reduction red) {
  if (red == Reduction::None) {
    *dst = *src;
    return;
  }
  double a = load_as_double(dst), b = load_as_double(src), r = a;
  switch (red) {
    case Reduction::Add: r = a + b; break;
    case Reduction::Mul: r = a * b; break;
    case Reduction::Max: r = std::max(a, b); break;
    case Reduction::Min: r = std::min(a, b); break;
    default: break;
  }
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    // Exact integer arithmetic (doubles lose int64 precision).
    T x = *dst, y = *src;
    switch (red) {
      case Reduction::Add: *dst = static_cast<T>(x + y); return;
      case Reduction::Mul: *dst = static_cast<T>(x * y); return;
      case Reduction::Max: *dst = std::max(x, y); return;
      case Reduction::Min: *dst = std::min(x, y); return;
      default: return;
    }
  } else {
    store_from_double(dst, r);
  }
}

int64_t read_index(const OpContext& ctx, const TensorView& t, int64_t i, int64_t dim) {
  int64_t v = scalar_as_int(t, i);
  int64_t n = v < 0 ? v + dim : v;
  ACL_SIM_REQUIRE(n >= 0 && n < dim, ACL_ERROR_OP_INPUT_NOT_MATCH, ctx.op_type, ": index ", v,
                  " is out of range for a dimension of size ", dim);
  return n;
}

void run_scatter_nd(OpContext& ctx) {
  require_io(ctx, 3, 1);
  const TensorView& x = input(ctx, 0);
  const TensorView& ind = input(ctx, 1);
  const TensorView& upd = input(ctx, 2);
  TensorView& y = output(ctx, 0);
  require_same_dtype(ctx, x, y, "data and output");
  require_same_dtype(ctx, x, upd, "data and updates");
  require_shape(ctx, y, x.shape, "output");
  ACL_SIM_REQUIRE(ind.dtype == ACL_INT64 || ind.dtype == ACL_INT32, ACL_ERROR_OP_INPUT_NOT_MATCH,
                  "ScatterND: indices must be int64 or int32");
  ACL_SIM_REQUIRE(!ind.shape.empty(), ACL_ERROR_OP_INPUT_NOT_MATCH, "ScatterND: indices must have rank >= 1");
  const int64_t k = ind.shape.back(), r = static_cast<int64_t>(x.shape.size());
  ACL_SIM_REQUIRE(k >= 1 && k <= r, ACL_ERROR_OP_INPUT_NOT_MATCH, "ScatterND: indices last dim ", k,
                  " out of range for data rank ", r);
  std::vector<int64_t> want(ind.shape.begin(), ind.shape.end() - 1);
  want.insert(want.end(), x.shape.begin() + k, x.shape.end());
  ACL_SIM_REQUIRE(upd.shape == want, ACL_ERROR_OP_INPUT_NOT_MATCH, "ScatterND: updates shape ", shape_str(upd.shape),
                  ", expected ", shape_str(want));
  Reduction red = reduction_of(ctx);
  parallel_copy(y.data, x.data, static_cast<size_t>(x.numel()) * dtype_size(x.dtype));
  std::vector<int64_t> xs = strides_of(x.shape);
  const int64_t slice = prod(x.shape, static_cast<size_t>(k)), tuples = ind.numel() / k;
  dispatch_dtype(x.dtype, "ScatterND", [&](auto tag) {
    using T = decltype(tag);
    T* dst = static_cast<T*>(y.data);
    const T* src = static_cast<const T*>(upd.data);
    for (int64_t t = 0; t < tuples; ++t) {
      int64_t off = 0;
      for (int64_t j = 0; j < k; ++j) off += read_index(ctx, ind, t * k + j, x.shape[j]) * xs[j];
      for (int64_t e = 0; e < slice; ++e) apply(dst + off + e, src + t * slice + e, red);
    }
  });
}

void run_scatter_elements(OpContext& ctx) {
  require_io(ctx, 3, 1);
  const TensorView& x = input(ctx, 0);
  const TensorView& ind = input(ctx, 1);
  const TensorView& upd = input(ctx, 2);
  TensorView& y = output(ctx, 0);
  require_same_dtype(ctx, x, y, "data and output");
  require_same_dtype(ctx, x, upd, "data and updates");
  require_shape(ctx, y, x.shape, "output");
  ACL_SIM_REQUIRE(ind.shape == upd.shape && ind.shape.size() == x.shape.size(), ACL_ERROR_OP_INPUT_NOT_MATCH,
                  ctx.op_type, ": indices ", shape_str(ind.shape), " and updates ", shape_str(upd.shape),
                  " must match and have the data's rank");
  const int64_t rank = static_cast<int64_t>(x.shape.size());
  int64_t axis = normalize_axis(ctx, attrs_of(ctx).get_int("axis", 0), rank);
  Reduction red = reduction_of(ctx);
  parallel_copy(y.data, x.data, static_cast<size_t>(x.numel()) * dtype_size(x.dtype));
  std::vector<int64_t> xs = strides_of(x.shape);
  dispatch_dtype(x.dtype, ctx.op_type, [&](auto tag) {
    using T = decltype(tag);
    T* dst = static_cast<T*>(y.data);
    const T* src = static_cast<const T*>(upd.data);
    for (int64_t i = 0; i < ind.numel(); ++i) {
      int64_t rem = i, off = 0;
      for (int64_t d = rank - 1; d >= 0; --d) {
        int64_t c = rem % ind.shape[d];
        rem /= ind.shape[d];
        off += (d == axis ? read_index(ctx, ind, i, x.shape[d]) : c) * xs[d];
      }
      apply(dst + off, src + i, red);
    }
  });
}

}  // namespace

ACL_SIM_REGISTER_OP(ScatterND, run_scatter_nd);
ACL_SIM_REGISTER_OP(ScatterElements, run_scatter_elements);
ACL_SIM_REGISTER_OP(Scatter, run_scatter_elements);  // opset 9-10 name of ScatterElements

}  // namespace acl_sim::kern
