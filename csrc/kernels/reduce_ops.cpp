// ONNX Reduce* ops: Sum Mean Max Min Prod L1 L2 LogSum LogSumExp SumSquare.
//
// The input is collapsed into alternating kept / reduced dimension groups.
// If the innermost group is reduced, each output reduces contiguous rows
// (vectorised with several accumulators); if it is kept, each output row
// accumulates whole contiguous vectors (vectorised across the kept axis).
// float16/bfloat16 are widened to float first; integers reduce in their own type.
#include <cmath>
#include <limits>

#include "kernels/elementwise_cast.h"
#include "kernels/elementwise_math.h"
#include "kernels/reduce_simd.h"
#include "kernels/thread_scratch.h"

namespace acl_sim::kern {
namespace {

template <class A>
ACL_SIM_INLINE A lowest_of() {
  if constexpr (std::numeric_limits<A>::has_infinity) return -std::numeric_limits<A>::infinity();
  else return std::numeric_limits<A>::lowest();
}
template <class A>
ACL_SIM_INLINE A highest_of() {
  if constexpr (std::numeric_limits<A>::has_infinity) return std::numeric_limits<A>::infinity();
  else return std::numeric_limits<A>::max();
}
template <class A>
ACL_SIM_INLINE A mean_of(A sum, int64_t n) {
  if (n == 0) return std::numeric_limits<A>::has_quiet_NaN ? std::numeric_limits<A>::quiet_NaN() : A(0);
  return static_cast<A>(sum / static_cast<A>(n));
}

// Reducer: init, map (per element, with a per-output context value), combine, finish.
#define ACL_SIM_REDUCER(Name, init_v, map_e, comb_e, fin_e)                               \
  struct Name {                                                                            \
    template <class A>                                                                     \
    ACL_SIM_INLINE static A init() { return init_v; }                                      \
    template <class A>                                                                     \
    ACL_SIM_INLINE static A map(A x, A c) { return map_e; }                                \
    template <class A>                                                                     \
    ACL_SIM_INLINE static A combine(A a, A v) { return comb_e; }                           \
    template <class A>                                                                     \
    ACL_SIM_INLINE static A finish(A a, int64_t n, A c) { return fin_e; }                  \
  };

ACL_SIM_REDUCER(SumR, A(0), x, a + v, a)
ACL_SIM_REDUCER(MeanR, A(0), x, a + v, mean_of(a, n))
ACL_SIM_REDUCER(ProdR, A(1), x, a* v, a)
ACL_SIM_REDUCER(MaxR, lowest_of<A>(), x, (v != v || v > a) ? v : a, a)
ACL_SIM_REDUCER(MinR, highest_of<A>(), x, (v != v || v < a) ? v : a, a)
ACL_SIM_REDUCER(L1R, A(0), (x < 0 ? A(-x) : x), a + v, a)
ACL_SIM_REDUCER(L2R, A(0), x* x, a + v, static_cast<A>(std::sqrt(a)))
ACL_SIM_REDUCER(SumSquareR, A(0), x* x, a + v, a)
ACL_SIM_REDUCER(LogSumR, A(0), x, a + v, vlog(a))
ACL_SIM_REDUCER(LogSumExpR, A(0), vexp(x - c), a + v, vlog(a) + c)
#undef ACL_SIM_REDUCER

/** Reduce one contiguous row of n elements: 16 independent accumulators so float adds vectorise. */
template <class R, class A>
struct RowReduce {
  ACL_SIM_INLINE void operator()(const A* x, int64_t n, A c, A* result) const {
    if constexpr (std::is_same_v<A, float> && (std::is_same_v<R, MaxR> || std::is_same_v<R, MinR>)) {
      *result = row_extreme_f32(x, n, *result, std::is_same_v<R, MinR>);
      return;
    }
    constexpr int kLanes = 16;
    A acc[kLanes];
    for (int j = 0; j < kLanes; ++j) acc[j] = R::template init<A>();
    int64_t i = 0;
    for (; i + kLanes <= n; i += kLanes)
      for (int j = 0; j < kLanes; ++j) acc[j] = R::combine(acc[j], R::map(x[i + j], c));
    A a = *result;
    for (int j = 0; j < kLanes; ++j) a = R::combine(a, acc[j]);
    for (; i < n; ++i) a = R::combine(a, R::map(x[i], c));
    *result = a;
  }
};

/** acc[j] = combine(acc[j], map(x[j], c[j])) for a kept innermost axis. */
template <class R, class A>
struct VecAccumulate {
  ACL_SIM_INLINE void operator()(const A* x, int64_t n, const A* c, A* acc) const {
    for (int64_t j = 0; j < n; ++j) acc[j] = R::combine(acc[j], R::map(x[j], c ? c[j] : A(0)));
  }
};

struct Group {
  int64_t size, stride;
  bool reduced;
};

/** Collapsed reduction plan for one input shape and axis set. */
struct ReducePlan {
  std::vector<Group> kept;          // kept groups (outer to inner), excluding an innermost kept group
  std::vector<int64_t> red_offsets;  // input offsets of every combination of outer reduced groups
  int64_t inner = 1;                // innermost group length
  bool inner_reduced = true;
  int64_t count = 1;                 // elements reduced into each output
  int64_t outputs = 1;
};

ReducePlan make_plan(const std::vector<int64_t>& shape, const std::vector<bool>& reduce) {
  std::vector<Group> g;
  int64_t stride = 1;
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    int64_t s = shape[static_cast<size_t>(d)];
    bool r = reduce[static_cast<size_t>(d)];
    if (s != 1) {
      if (!g.empty() && g.back().reduced == r && g.back().stride * g.back().size == stride) g.back().size *= s;
      else g.push_back({s, stride, r});
    }
    stride *= s;
  }
  std::reverse(g.begin(), g.end());  // outer to inner
  ReducePlan p;
  if (g.empty() || !g.back().reduced) {
    if (!g.empty()) {
      p.inner_reduced = false;
      p.inner = g.back().size;
      g.pop_back();
    } else {
      p.inner = 1;  // scalar / all-ones: a reduced row of length 1
    }
  } else {
    p.inner = g.back().size;
    g.pop_back();
  }
  std::vector<Group> red;
  for (const Group& x : g) (x.reduced ? red : p.kept).push_back(x);
  p.red_offsets.assign(1, 0);
  for (const Group& r : red) {
    std::vector<int64_t> next;
    next.reserve(p.red_offsets.size() * static_cast<size_t>(r.size));
    for (int64_t base : p.red_offsets)
      for (int64_t i = 0; i < r.size; ++i) next.push_back(base + i * r.stride);
    p.red_offsets.swap(next);
  }
  p.count = static_cast<int64_t>(p.red_offsets.size()) * (p.inner_reduced ? p.inner : 1);
  for (const Group& k : p.kept) p.outputs *= k.size;
  if (!p.inner_reduced) p.outputs *= p.inner;
  return p;
}

int64_t kept_base(const ReducePlan& p, int64_t q) {
  int64_t off = 0;
  for (int64_t k = static_cast<int64_t>(p.kept.size()) - 1; k >= 0; --k) {
    const Group& g = p.kept[static_cast<size_t>(k)];
    off += (q % g.size) * g.stride;
    q /= g.size;
  }
  return off;
}

/** out[o] = finish(reduce over the group of o); ctx (may be null) is the per-output context value. */
template <class R, class A>
void reduce_plan(const ReducePlan& p, const A* x, A* out, const A* ctxv) {
  const int64_t red_n = static_cast<int64_t>(p.red_offsets.size());
  if (p.inner_reduced) {
    int64_t grain = std::max<int64_t>(1, kBlockElems / std::max<int64_t>(p.count, 1));
    parallel_blocks(p.outputs, grain, [&](int64_t b, int64_t e) {
      for (int64_t o = b; o < e; ++o) {
        const A* base = x + kept_base(p, o);
        A c = ctxv ? ctxv[o] : A(0);
        A acc = R::template init<A>();
        for (int64_t r = 0; r < red_n; ++r) {
          if constexpr (std::is_same_v<A, float>) isa_call(RowReduce<R, A>{}, base + p.red_offsets[r], p.inner, c, &acc);
          else RowReduce<R, A>{}(base + p.red_offsets[r], p.inner, c, &acc);
        }
        out[o] = R::finish(acc, p.count, c);
      }
    });
  } else {
    const int64_t n = p.inner;
    const int64_t rows = p.outputs / n;
    constexpr int64_t kCols = 2048;
    const int64_t col_tiles = (n + kCols - 1) / kCols;
    int64_t grain = std::max<int64_t>(1, kBlockElems / std::max<int64_t>(red_n * std::min(n, kCols), 1));
    parallel_blocks(rows * col_tiles, grain, [&](int64_t b, int64_t e) {
      A acc[kCols];
      for (int64_t u = b; u < e; ++u) {
        int64_t q = u / col_tiles, c0 = (u % col_tiles) * kCols, m = std::min(kCols, n - c0);
        const A* base = x + kept_base(p, q) + c0;
        A* o = out + q * n + c0;
        const A* cx = ctxv ? ctxv + q * n + c0 : nullptr;
        for (int64_t j = 0; j < m; ++j) acc[j] = R::template init<A>();
        for (int64_t r = 0; r < red_n; ++r) {
          if constexpr (std::is_same_v<A, float>) isa_call(VecAccumulate<R, A>{}, base + p.red_offsets[r], m, cx, acc);
          else VecAccumulate<R, A>{}(base + p.red_offsets[r], m, cx, acc);
        }
        for (int64_t j = 0; j < m; ++j) o[j] = R::finish(acc[j], p.count, cx ? cx[j] : A(0));
      }
    });
  }
}

template <class R, class A>
void reduce_typed(const ReducePlan& p, const A* x, A* out) {
  if constexpr (std::is_same_v<R, LogSumExpR>) {
    std::vector<A> mx(static_cast<size_t>(p.outputs));
    reduce_plan<MaxR, A>(p, x, mx.data(), nullptr);
    // An all -inf (or +inf) group would give inf - inf; shift by 0 instead.
    for (A& m : mx)
      if (std::isinf(static_cast<double>(m))) m = 0;
    reduce_plan<R, A>(p, x, out, mx.data());
  } else {
    reduce_plan<R, A>(p, x, out, nullptr);
  }
}

template <class R>
void run_reduce(OpContext& ctx) {
  require_io(ctx, 1, 1);
  const TensorView& x = input(ctx, 0);
  TensorView& y = output(ctx, 0);
  require_same_dtype(ctx, x, y, "input and output");
  const Attrs& at = attrs_of(ctx);
  const int64_t rank = static_cast<int64_t>(x.shape.size());
  std::vector<int64_t> axes;
  const TensorView* axes_t = optional_input(ctx, 1);
  if (axes_t) axes = tensor_as_ints(*axes_t, ctx.op_type, "axes");
  else axes = at.get_ints("axes", {});
  std::vector<bool> reduce(static_cast<size_t>(rank), axes.empty());
  if (axes.empty() && at.get_int("noop_with_empty_axes", 0) != 0) {
    // Identity: still validate the shape, then copy.
    ACL_SIM_REQUIRE(y.numel() == x.numel(), ACL_ERROR_OP_OUTPUT_NOT_MATCH, ctx.op_type, ": output shape ",
                    shape_str(y.shape), " must equal the input's ", shape_str(x.shape), " for an empty axes no-op");
    parallel_copy(y.data, x.data, static_cast<size_t>(x.numel()) * dtype_size(x.dtype));
    return;
  }
  for (int64_t a : axes) reduce[static_cast<size_t>(normalize_axis(ctx, a, rank))] = true;
  int64_t expect = 1;
  for (int64_t d = 0; d < rank; ++d)
    if (!reduce[static_cast<size_t>(d)]) expect *= x.shape[static_cast<size_t>(d)];
  ACL_SIM_REQUIRE(y.numel() == expect, ACL_ERROR_OP_OUTPUT_NOT_MATCH, ctx.op_type, ": output shape ",
                  shape_str(y.shape), " does not match reducing ", shape_str(x.shape));
  ReducePlan p = make_plan(x.shape, reduce);
  // Reducing an empty set gives the reducer's identity (0 for sum, -inf for max, ...).
  constexpr bool kLogFamily = std::is_same_v<R, LogSumR> || std::is_same_v<R, LogSumExpR>;
  dispatch_dtype(x.dtype, ctx.op_type, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, bool>) {
      // bool Max / Min (opset 20) are any / all: reduce the 0/1 bytes as uint8.
      if constexpr (std::is_same_v<R, MaxR> || std::is_same_v<R, MinR>) {
        reduce_typed<R, uint8_t>(p, static_cast<const uint8_t*>(x.data), static_cast<uint8_t*>(y.data));
      } else {
        fail(ACL_ERROR_UNSUPPORTED_DATA_TYPE, ctx.op_type, ": unsupported dtype bool");
      }
    } else if constexpr (kLogFamily && std::is_integral_v<T>) {
      fail(ACL_ERROR_UNSUPPORTED_DATA_TYPE, ctx.op_type, ": unsupported dtype ", dtype_name(x.dtype));
    } else if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>) {
      // Widened into this thread's grow-only staging (no allocation per call in a model run).
      thread_local Scratch<float> t_x, t_y;
      float* xf = t_x.get(static_cast<size_t>(x.numel()));
      float* yf = t_y.get(static_cast<size_t>(y.numel()));
      cast_elements(ctx, x.data, x.dtype, xf, ACL_FLOAT, x.numel());
      reduce_typed<R, float>(p, xf, yf);
      cast_elements(ctx, yf, ACL_FLOAT, y.data, y.dtype, y.numel());
    } else {
      reduce_typed<R, T>(p, static_cast<const T*>(x.data), static_cast<T*>(y.data));
    }
  });
}

}  // namespace

ACL_SIM_REGISTER_OP(ReduceSum, run_reduce<SumR>);
ACL_SIM_REGISTER_OP(ReduceMean, run_reduce<MeanR>);
ACL_SIM_REGISTER_OP(ReduceProd, run_reduce<ProdR>);
ACL_SIM_REGISTER_OP(ReduceMax, run_reduce<MaxR>);
ACL_SIM_REGISTER_OP(ReduceMin, run_reduce<MinR>);
ACL_SIM_REGISTER_OP(ReduceL1, run_reduce<L1R>);
ACL_SIM_REGISTER_OP(ReduceL2, run_reduce<L2R>);
ACL_SIM_REGISTER_OP(ReduceSumSquare, run_reduce<SumSquareR>);
ACL_SIM_REGISTER_OP(ReduceLogSum, run_reduce<LogSumR>);
ACL_SIM_REGISTER_OP(ReduceLogSumExp, run_reduce<LogSumExpR>);

}  // namespace acl_sim::kern
