// The binary engine: out = op(a, b) with ONNX broadcasting (broadcast.h).
//
// Each innermost run has a and b at stride 0 or 1; BinRow specialises the four
// cases so the compiler vectorises them. float32 rows are multiversioned per
// ISA; float16/bfloat16 rows are widened to float tiles; other types run the
// portable row. The no-broadcast case collapses to one long run split into
// blocks, which is the contiguous fast path.
#pragma once

#include "kernels/broadcast.h"
#include "kernels/elementwise_math.h"

namespace acl_sim::kern {

template <class Op, class T, class O>
struct BinRow {
  Op op;
  ACL_SIM_INLINE void operator()(const T* a, int64_t sa, const T* b, int64_t sb, O* o, int64_t n) const {
    if (sa && sb) {
      for (int64_t i = 0; i < n; ++i) o[i] = static_cast<O>(op(a[i], b[i]));
    } else if (sa) {
      const T bv = *b;
      for (int64_t i = 0; i < n; ++i) o[i] = static_cast<O>(op(a[i], bv));
    } else if (sb) {
      const T av = *a;
      for (int64_t i = 0; i < n; ++i) o[i] = static_cast<O>(op(av, b[i]));
    } else {
      const O v = static_cast<O>(op(*a, *b));
      for (int64_t i = 0; i < n; ++i) o[i] = v;
    }
  }
};

/** Storage type of a binary op's output given its input storage type T: bool for predicates. */
template <class Op, class T>
using BinOut = std::conditional_t<Op::kPredicate, bool, T>;

/** One run of out = op(a, b) for storage type T. */
template <class Op, class T>
void bin_run(const Op& op, const T* a, int64_t sa, const T* b, int64_t sb, BinOut<Op, T>* o, int64_t n) {
  using O = BinOut<Op, T>;
  if constexpr (std::is_same_v<T, float>) {
    isa_call(BinRow<Op, float, O>{op}, a, sa, b, sb, o, n);
  } else if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>) {
    constexpr int64_t kTile = 512;
    float abuf[kTile], bbuf[kTile], obuf[kTile];
    for (int64_t i = 0; i < n; i += kTile) {
      int64_t m = std::min(kTile, n - i);
      if (sa) widen(a + i, abuf, static_cast<size_t>(m));
      else widen(a, abuf, 1);
      if (sb) widen(b + i, bbuf, static_cast<size_t>(m));
      else widen(b, bbuf, 1);
      if constexpr (Op::kPredicate) {
        isa_call(BinRow<Op, float, bool>{op}, abuf, sa, bbuf, sb, o + i, m);
      } else {
        isa_call(BinRow<Op, float, float>{op}, abuf, sa, bbuf, sb, obuf, m);
        narrow(obuf, o + i, static_cast<size_t>(m));
      }
    }
  } else {
    BinRow<Op, T, O>{op}(a, sa, b, sb, o, n);
  }
}

/** out = op(a, b) over broadcast shapes, with storage type T for a and b. */
template <class Op, class T>
void binary_apply(const OpContext& ctx, const Op& op, const TensorView& a, const TensorView& b, TensorView& out) {
  BroadcastPlan p = plan_broadcast(ctx, {&a.shape, &b.shape}, out.shape);
  const T* ap = static_cast<const T*>(a.data);
  const T* bp = static_cast<const T*>(b.data);
  auto* op_ = static_cast<BinOut<Op, T>*>(out.data);
  for_each_run(p, [&](const RowRun& r) {
    bin_run(op, ap + r.in_off[0], r.in_step[0], bp + r.in_off[1], r.in_step[1], op_ + r.out_off, r.len);
  });
}

/** Element-type families a binary op accepts. */
struct BinTypes {
  bool floats = true, ints = true, bools = false;
};

template <class T>
constexpr bool is_float_family_v =
    std::is_floating_point_v<T> || std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>;

/** Validates a, b, out dtypes for op and runs it. Op::kPredicate ops write bool. */
template <class Op>
void run_binary_on(OpContext& ctx, const Op& op, BinTypes types, const TensorView& a, const TensorView& b,
                   TensorView& out) {
  require_same_dtype(ctx, a, b, "inputs");
  int want_out = Op::kPredicate ? ACL_BOOL : a.dtype;
  ACL_SIM_REQUIRE(out.dtype == want_out, ACL_ERROR_OP_OUTPUT_NOT_MATCH, ctx.op_type, ": output dtype is ",
                  dtype_name(out.dtype), ", expected ", dtype_name(want_out));
  bool ok = (types.floats && is_float_dtype(a.dtype)) || (types.ints && is_int_dtype(a.dtype)) ||
            (types.bools && a.dtype == ACL_BOOL);
  ACL_SIM_REQUIRE(ok, ACL_ERROR_UNSUPPORTED_DATA_TYPE, ctx.op_type, ": unsupported dtype ", dtype_name(a.dtype));
  dispatch_dtype(a.dtype, ctx.op_type, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (Op::template supports<T>()) binary_apply<Op, T>(ctx, op, a, b, out);
    else fail(ACL_ERROR_UNSUPPORTED_DATA_TYPE, ctx.op_type, ": unsupported dtype ", dtype_name(a.dtype));
  });
}

template <class Op>
void run_binary(OpContext& ctx, const Op& op, BinTypes types) {
  require_io(ctx, 2, 1);
  run_binary_on(ctx, op, types, input(ctx, 0), input(ctx, 1), output(ctx, 0));
}

}  // namespace acl_sim::kern
