// Selection along one axis: ArgMax, ArgMin, TopK, and the running CumSum / CumProd.
// The tensor is viewed as [outer, K, inner]; each (outer, inner) column is
// independent, so blocks of columns run on the pool.
#include <numeric>

#include "kernels/data_movement.h"

namespace acl_sim::kern {
namespace {

struct AxisView {
  int64_t outer, k, inner;
};

AxisView axis_view(const OpContext& ctx, const TensorView& x, int64_t* axis_io) {
  const int64_t rank = static_cast<int64_t>(x.shape.size());
  int64_t axis = normalize_axis(ctx, *axis_io, rank);
  *axis_io = axis;
  if (rank == 0) return {1, 1, 1};
  return {prod(x.shape, 0, axis), x.shape[axis], prod(x.shape, axis + 1)};
}

template <bool kMax>
void run_arg(OpContext& ctx) {
  require_io(ctx, 1, 1);
  const TensorView& x = input(ctx, 0);
  TensorView& y = output(ctx, 0);
  const Attrs& at = attrs_of(ctx);
  int64_t axis = at.get_int("axis", 0);
  AxisView v = axis_view(ctx, x, &axis);
  bool last = at.get_int("select_last_index", 0) != 0;
  ACL_SIM_REQUIRE(y.dtype == ACL_INT64, ACL_ERROR_OP_OUTPUT_NOT_MATCH, ctx.op_type, ": output must be int64");
  ACL_SIM_REQUIRE(y.numel() == v.outer * v.inner, ACL_ERROR_OP_OUTPUT_NOT_MATCH, ctx.op_type, ": output shape ",
                  shape_str(y.shape), " does not match input ", shape_str(x.shape), " reduced on axis ", axis);
  ACL_SIM_REQUIRE(v.k > 0, ACL_ERROR_OP_INPUT_NOT_MATCH, ctx.op_type, ": axis ", axis, " is empty");
  int64_t* out = static_cast<int64_t*>(y.data);
  dispatch_dtype(x.dtype, ctx.op_type, [&](auto tag) {
    using T = decltype(tag);
    const T* xp = static_cast<const T*>(x.data);
    parallel_blocks(v.outer * v.inner, rows_grain(v.k), [&](int64_t b, int64_t e) {
      for (int64_t u = b; u < e; ++u) {
        int64_t o = u / v.inner, j = u % v.inner;
        const T* col = xp + o * v.k * v.inner + j;
        double best = load_as_double(col);
        int64_t bi = 0;
        for (int64_t i = 1; i < v.k; ++i) {
          double c = load_as_double(col + i * v.inner);
          bool better = kMax ? (last ? c >= best : c > best) : (last ? c <= best : c < best);
          if (better) best = c, bi = i;
        }
        out[u] = bi;
      }
    });
  });
}

// TopK(X, K): values and int64 indices of the k largest (or smallest) along axis.
// Ties keep the lower index first, as onnxruntime does.
void run_topk(OpContext& ctx) {
  require_io(ctx, 2, 2);
  const TensorView& x = input(ctx, 0);
  TensorView& vals = output(ctx, 0);
  TensorView& inds = output(ctx, 1);
  const Attrs& at = attrs_of(ctx);
  int64_t axis = at.get_int("axis", -1);
  AxisView v = axis_view(ctx, x, &axis);
  int64_t k = scalar_as_int(input(ctx, 1));
  ACL_SIM_REQUIRE(k >= 0 && k <= v.k, ACL_ERROR_OP_INPUT_NOT_MATCH, "TopK: k=", k, " out of range for axis size ", v.k);
  bool largest = at.get_int("largest", 1) != 0;
  require_same_dtype(ctx, x, vals, "input and values");
  ACL_SIM_REQUIRE(inds.dtype == ACL_INT64, ACL_ERROR_OP_OUTPUT_NOT_MATCH, "TopK: indices must be int64");
  std::vector<int64_t> out_shape = x.shape;
  out_shape[axis] = k;
  require_shape(ctx, vals, out_shape, "values");
  require_shape(ctx, inds, out_shape, "indices");
  if (k == 0) return;
  int64_t* ip = static_cast<int64_t*>(inds.data);
  dispatch_dtype(x.dtype, "TopK", [&](auto tag) {
    using T = decltype(tag);
    const T* xp = static_cast<const T*>(x.data);
    T* vp = static_cast<T*>(vals.data);
    parallel_blocks(v.outer * v.inner, rows_grain(v.k * 4), [&](int64_t b, int64_t e) {
      std::vector<double> col(static_cast<size_t>(v.k));
      std::vector<int64_t> order(static_cast<size_t>(v.k));
      for (int64_t u = b; u < e; ++u) {
        int64_t o = u / v.inner, j = u % v.inner;
        for (int64_t i = 0; i < v.k; ++i) col[i] = load_as_double(xp + (o * v.k + i) * v.inner + j);
        std::iota(order.begin(), order.end(), 0);
        auto cmp = [&](int64_t a, int64_t c) {
          if (col[a] != col[c]) return largest ? col[a] > col[c] : col[a] < col[c];
          return a < c;
        };
        std::partial_sort(order.begin(), order.begin() + k, order.end(), cmp);
        for (int64_t i = 0; i < k; ++i) {
          int64_t dst = (o * k + i) * v.inner + j;
          ip[dst] = order[i];
          vp[dst] = xp[(o * v.k + order[i]) * v.inner + j];
        }
      }
    });
  });
}

// CumSum / CumProd(x, axis): running sums (products) along axis; exclusive shifts by one
// (the first output is the identity), reverse runs from the end.
template <bool kProduct>
void run_cumulative(OpContext& ctx) {
  require_io(ctx, 2, 1);
  const TensorView& x = input(ctx, 0);
  TensorView& y = output(ctx, 0);
  require_same_dtype(ctx, x, y, "input and output");
  require_shape(ctx, y, x.shape, "output");
  int64_t axis = scalar_as_int(input(ctx, 1));
  AxisView v = axis_view(ctx, x, &axis);
  bool exclusive = attrs_of(ctx).get_int("exclusive", 0) != 0;
  bool reverse = attrs_of(ctx).get_int("reverse", 0) != 0;
  dispatch_dtype(x.dtype, ctx.op_type, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, bool>) {
      fail(ACL_ERROR_UNSUPPORTED_DATA_TYPE, ctx.op_type, ": unsupported dtype bool");
    } else {
      using Acc = std::conditional_t<std::is_integral_v<T>, T, double>;
      const T* xp = static_cast<const T*>(x.data);
      T* yp = static_cast<T*>(y.data);
      // Sweep whole inner rows at a time so the loads and the accumulator updates stay
      // contiguous (the inner loop vectorises across the row).
      parallel_blocks(v.outer, rows_grain(v.k * v.inner), [&](int64_t b, int64_t e) {
        std::vector<Acc> acc(static_cast<size_t>(v.inner));
        for (int64_t o = b; o < e; ++o) {
          std::fill(acc.begin(), acc.end(), Acc(kProduct ? 1 : 0));
          for (int64_t s = 0; s < v.k; ++s) {
            int64_t i = reverse ? v.k - 1 - s : s;
            const T* xr = xp + (o * v.k + i) * v.inner;
            T* yr = yp + (o * v.k + i) * v.inner;
            for (int64_t j = 0; j < v.inner; ++j) {
              Acc xv;
              if constexpr (std::is_integral_v<T>) xv = xr[j];
              else xv = load_as_double(xr + j);
              Acc before = acc[j];
              Acc after;
              if constexpr (kProduct) after = static_cast<Acc>(before * xv);
              else after = static_cast<Acc>(before + xv);
              acc[j] = after;
              Acc out = exclusive ? before : after;
              if constexpr (std::is_integral_v<T>) yr[j] = out;
              else store_from_double(yr + j, out);
            }
          }
        }
      });
    }
  });
}

}  // namespace

ACL_SIM_REGISTER_OP(ArgMax, run_arg<true>);
ACL_SIM_REGISTER_OP(ArgMin, run_arg<false>);
ACL_SIM_REGISTER_OP(TopK, run_topk);
ACL_SIM_REGISTER_OP(CumSum, run_cumulative<false>);
ACL_SIM_REGISTER_OP(CumProd, run_cumulative<true>);

}  // namespace acl_sim::kern
