// Softmax, LogSoftmax and Hardmax with opset-13 semantics: the op normalises
// along the single axis `axis` (default -1). Older opsets (1-12) flattened the
// input to 2-D at `axis`; ATC rewrites those nodes to the opset-13 form
// (docs/op_coverage.md), so only opset-13 semantics exist here.
//
// The tensor is viewed as [outer, K, inner]. inner == 1 (the common
// last-axis case) runs one vectorised row kernel per row; otherwise whole
// inner vectors are processed together so the loads stay contiguous.
#include <cmath>
#include <tuple>

#include "kernels/elementwise_cast.h"
#include "kernels/elementwise_math.h"
#include "kernels/reduce_simd.h"
#include "kernels/thread_scratch.h"

namespace acl_sim::kern {
namespace {

/** e^v for v = x - max <= 0: the float path skips vexp's overflow handling; double keeps libm's exp. */
template <class A>
ACL_SIM_INLINE A exp_shifted(A v) {
  if constexpr (std::is_same_v<A, float>) return vexp_nonpositive(v);
  else return vexp(v);
}

/** Softmax (or log-softmax) of one contiguous row. kLog is a template parameter so the exp pass
 *  has no conditional store and vectorises. */
template <class A, bool log>
struct SoftmaxRow {
  ACL_SIM_INLINE void operator()(const A* x, A* y, int64_t n) const {
    constexpr int kLanes = 16;
    int64_t i = 0;
    A m;
    if constexpr (std::is_same_v<A, float>) {
      m = row_extreme_f32(x, n, -std::numeric_limits<float>::infinity(), false);
    } else {
      m = -std::numeric_limits<A>::infinity();
      for (i = 0; i < n; ++i) m = x[i] > m ? x[i] : m;
    }
    if (m == -std::numeric_limits<A>::infinity()) m = 0;  // an all -inf row: avoid inf - inf
    A acc[kLanes] = {};
    A s = 0;
    if constexpr (log) {
      // x must survive (y may alias it, and the last pass reads x): sum without storing.
      for (i = 0; i + kLanes <= n; i += kLanes)
        for (int j = 0; j < kLanes; ++j) acc[j] += exp_shifted(x[i + j] - m);
      for (; i < n; ++i) s += exp_shifted(x[i] - m);
    } else if constexpr (std::is_same_v<A, float>) {
      // AVX-512 has a row kernel (exp through vscalefps, a masked tail: reduce_simd.h). Otherwise one pass:
      // exp of x - max (never positive, so the cheaper exp) stored and summed in kLanes accumulators, which
      // the vectoriser maps onto one register or two.
      if (!row_exp_shifted_f32(x, y, n, m, &s)) {
        for (i = 0; i + kLanes <= n; i += kLanes)
          for (int j = 0; j < kLanes; ++j) {
            const A e = exp_shifted(x[i + j] - m);
            y[i + j] = e;
            acc[j] += e;
          }
        for (; i < n; ++i) s += (y[i] = exp_shifted(x[i] - m));
      }
    } else {
      for (i = 0; i < n; ++i) y[i] = vexp(x[i] - m);
      for (i = 0; i + kLanes <= n; i += kLanes)
        for (int j = 0; j < kLanes; ++j) acc[j] += y[i + j];
      for (; i < n; ++i) s += y[i];
    }
    for (int j = 0; j < kLanes; ++j) s += acc[j];
    if constexpr (log) {
      A shift = m + vlog(s);
      for (i = 0; i < n; ++i) y[i] = x[i] - shift;
    } else {
      A inv = A(1) / s;
      for (i = 0; i < n; ++i) y[i] *= inv;
    }
  }
};

/** Softmax along K for `m` adjacent columns, rows `stride` apart; scratch holds 2*m values. */
template <class A, bool log>
struct SoftmaxCols {
  ACL_SIM_INLINE void operator()(const A* x, A* y, int64_t k_len, int64_t stride, int64_t m, A* mx, A* sum) const {
    for (int64_t j = 0; j < m; ++j) mx[j] = -std::numeric_limits<A>::infinity(), sum[j] = 0;
    for (int64_t k = 0; k < k_len; ++k) {
      const A* r = x + k * stride;
      for (int64_t j = 0; j < m; ++j) mx[j] = r[j] > mx[j] ? r[j] : mx[j];
    }
    for (int64_t j = 0; j < m; ++j) mx[j] = mx[j] == -std::numeric_limits<A>::infinity() ? A(0) : mx[j];
    for (int64_t k = 0; k < k_len; ++k) {
      const A* r = x + k * stride;
      A* o = y + k * stride;
      for (int64_t j = 0; j < m; ++j) {
        A e = vexp(r[j] - mx[j]);
        if constexpr (!log) o[j] = e;
        sum[j] += e;
      }
    }
    if constexpr (log) {
      for (int64_t j = 0; j < m; ++j) mx[j] += vlog(sum[j]);
      for (int64_t k = 0; k < k_len; ++k)
        for (int64_t j = 0; j < m; ++j) y[k * stride + j] = x[k * stride + j] - mx[j];
    } else {
      for (int64_t j = 0; j < m; ++j) sum[j] = A(1) / sum[j];
      for (int64_t k = 0; k < k_len; ++k)
        for (int64_t j = 0; j < m; ++j) y[k * stride + j] *= sum[j];
    }
  }
};

template <class K, class... Args>
ACL_SIM_INLINE void call_best(const K& k, Args... a) {
  if constexpr (std::is_same_v<std::tuple_element_t<0, std::tuple<Args...>>, const float*>) isa_call(k, a...);
  else k(a...);
}

template <class A, bool log>
void softmax_typed(const A* x, A* y, int64_t outer, int64_t k_len, int64_t inner) {
  if (inner == 1) {
    parallel_blocks(outer, rows_grain(k_len), [&](int64_t b, int64_t e) {
      for (int64_t r = b; r < e; ++r) call_best(SoftmaxRow<A, log>{}, x + r * k_len, y + r * k_len, k_len);
    });
    return;
  }
  constexpr int64_t kCols = 512;
  const int64_t tiles = (inner + kCols - 1) / kCols;
  parallel_blocks(outer * tiles, rows_grain(k_len * std::min(inner, kCols)), [&](int64_t b, int64_t e) {
    A mx[kCols], sum[kCols];
    for (int64_t u = b; u < e; ++u) {
      int64_t o = u / tiles, c0 = (u % tiles) * kCols;
      const A* xs = x + o * k_len * inner + c0;
      A* ys = y + o * k_len * inner + c0;
      call_best(SoftmaxCols<A, log>{}, xs, ys, k_len, inner, std::min(kCols, inner - c0), &mx[0], &sum[0]);
    }
  });
}

template <class A>
void hardmax_typed(const A* x, A* y, int64_t outer, int64_t k_len, int64_t inner) {
  parallel_blocks(outer * inner, rows_grain(k_len), [&](int64_t b, int64_t e) {
    for (int64_t u = b; u < e; ++u) {
      int64_t o = u / inner, j = u % inner;
      const A* xs = x + o * k_len * inner + j;
      A* ys = y + o * k_len * inner + j;
      int64_t best = 0;
      for (int64_t k = 1; k < k_len; ++k)
        if (xs[k * inner] > xs[best * inner]) best = k;  // first maximum wins
      for (int64_t k = 0; k < k_len; ++k) ys[k * inner] = k == best ? A(1) : A(0);
    }
  });
}

enum class Kind { Softmax, LogSoftmax, Hardmax };

template <Kind kind>
void run_softmax(OpContext& ctx) {
  require_io(ctx, 1, 1);
  const TensorView& x = input(ctx, 0);
  TensorView& y = output(ctx, 0);
  require_same_dtype(ctx, x, y, "input and output");
  require_shape(ctx, y, x.shape, "output");
  const int64_t rank = static_cast<int64_t>(x.shape.size());
  int64_t axis = normalize_axis(ctx, attrs_of(ctx).get_int("axis", -1), rank);
  int64_t outer = rank ? prod(x.shape, 0, static_cast<size_t>(axis)) : 1;
  int64_t k_len = rank ? x.shape[static_cast<size_t>(axis)] : 1;
  int64_t inner = rank ? prod(x.shape, static_cast<size_t>(axis) + 1) : 1;
  if (x.numel() == 0) return;
  auto run = [&](auto* xp, auto* yp) {
    if constexpr (kind == Kind::Hardmax) hardmax_typed(xp, yp, outer, k_len, inner);
    else softmax_typed<std::remove_const_t<std::remove_pointer_t<decltype(xp)>>, kind == Kind::LogSoftmax>(
        xp, yp, outer, k_len, inner);
  };
  switch (x.dtype) {
    case ACL_FLOAT: return run(static_cast<const float*>(x.data), static_cast<float*>(y.data));
    case ACL_DOUBLE: return run(static_cast<const double*>(x.data), static_cast<double*>(y.data));
    case ACL_FLOAT16:
    case ACL_BF16: {
      // Widened into this thread's grow-only staging (no allocation per call in a model run).
      thread_local Scratch<float> t_x, t_y;
      const size_t n = static_cast<size_t>(x.numel());
      float* xf = t_x.get(n);
      float* yf = t_y.get(n);
      cast_elements(ctx, x.data, x.dtype, xf, ACL_FLOAT, x.numel());
      run(static_cast<const float*>(xf), yf);
      cast_elements(ctx, yf, ACL_FLOAT, y.data, y.dtype, y.numel());
      return;
    }
    default: fail(ACL_ERROR_UNSUPPORTED_DATA_TYPE, ctx.op_type, ": unsupported dtype ", dtype_name(x.dtype));
  }
}

}  // namespace

ACL_SIM_REGISTER_OP(Softmax, run_softmax<Kind::Softmax>);
ACL_SIM_REGISTER_OP(LogSoftmax, run_softmax<Kind::LogSoftmax>);
ACL_SIM_REGISTER_OP(Hardmax, run_softmax<Kind::Hardmax>);

}  // namespace acl_sim::kern
