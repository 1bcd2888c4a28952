// ONNX comparison and logic ops (bool results): Equal Less Greater
// LessOrEqual GreaterOrEqual And Or Xor Not IsNaN IsInf, and Where.
#include <cmath>

#include "kernels/binary_common.h"

namespace acl_sim::kern {
namespace {

#define ACL_SIM_COMPARE_OP(Name, expr)                                                   \
  struct Name {                                                                          \
    static constexpr bool kPredicate = true;                                             \
    template <class T>                                                                   \
    static constexpr bool supports() { return true; }                                    \
    template <class T>                                                                   \
    ACL_SIM_INLINE bool operator()(T a, T b) const { return expr; }                      \
  };
ACL_SIM_COMPARE_OP(EqualOp, a == b)
ACL_SIM_COMPARE_OP(LessOp, a < b)
ACL_SIM_COMPARE_OP(GreaterOp, a > b)
ACL_SIM_COMPARE_OP(LessOrEqualOp, a <= b)
ACL_SIM_COMPARE_OP(GreaterOrEqualOp, a >= b)
ACL_SIM_COMPARE_OP(AndOp, a && b)
ACL_SIM_COMPARE_OP(OrOp, a || b)
ACL_SIM_COMPARE_OP(XorOp, a != b)
#undef ACL_SIM_COMPARE_OP

template <class Op>
void run_compare(OpContext& ctx) { run_binary(ctx, Op{}, BinTypes{true, true, true}); }

template <class Op>
void run_logic(OpContext& ctx) { run_binary(ctx, Op{}, BinTypes{false, false, true}); }

// Unary predicates: bool in (Not) or float in (IsNaN / IsInf), bool out.
template <class F>
void run_predicate(OpContext& ctx, bool bool_input, F pred) {
  require_io(ctx, 1, 1);
  const TensorView& x = input(ctx, 0);
  TensorView& y = output(ctx, 0);
  ACL_SIM_REQUIRE(y.dtype == ACL_BOOL, ACL_ERROR_OP_OUTPUT_NOT_MATCH, ctx.op_type, ": output must be bool");
  ACL_SIM_REQUIRE(x.numel() == y.numel(), ACL_ERROR_OP_OUTPUT_NOT_MATCH, ctx.op_type, ": output shape ",
                  shape_str(y.shape), " does not match input ", shape_str(x.shape));
  ACL_SIM_REQUIRE(bool_input ? x.dtype == ACL_BOOL : is_float_dtype(x.dtype), ACL_ERROR_UNSUPPORTED_DATA_TYPE,
                  ctx.op_type, ": unsupported dtype ", dtype_name(x.dtype));
  bool* yp = static_cast<bool*>(y.data);
  dispatch_dtype(x.dtype, ctx.op_type, [&](auto tag) {
    using T = decltype(tag);
    const T* xp = static_cast<const T*>(x.data);
    parallel_blocks(x.numel(), kBlockElems, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) {
        if constexpr (std::is_same_v<T, bool>) yp[i] = pred(xp[i] ? 1.0 : 0.0);
        else yp[i] = pred(load_as_double(xp + i));
      }
    });
  });
}

void run_not(OpContext& ctx) {
  run_predicate(ctx, true, [](double v) { return v == 0; });
}
void run_isnan(OpContext& ctx) {
  run_predicate(ctx, false, [](double v) { return std::isnan(v); });
}
void run_isinf(OpContext& ctx) {
  bool neg = attrs_of(ctx).get_int("detect_negative", 1) != 0;
  bool pos = attrs_of(ctx).get_int("detect_positive", 1) != 0;
  run_predicate(ctx, false, [=](double v) { return std::isinf(v) && ((v > 0 && pos) || (v < 0 && neg)); });
}

template <class U>
void where_runs(const BroadcastPlan& p, const bool* c, const U* x, const U* y, U* o) {
  for_each_run(p, [&](const RowRun& r) {
    const bool* cp = c + r.in_off[0];
    const U* xp = x + r.in_off[1];
    const U* yp = y + r.in_off[2];
    U* op = o + r.out_off;
    const int64_t sc = r.in_step[0], sx = r.in_step[1], sy = r.in_step[2];
    if (sc && sx && sy) {
      for (int64_t i = 0; i < r.len; ++i) op[i] = cp[i] ? xp[i] : yp[i];
    } else {
      for (int64_t i = 0; i < r.len; ++i) op[i] = cp[i * sc] ? xp[i * sx] : yp[i * sy];
    }
  });
}

// Where(condition, X, Y): three-way broadcast; any element type (moved as raw bits).
void run_where(OpContext& ctx) {
  require_io(ctx, 3, 1);
  const TensorView& c = input(ctx, 0);
  const TensorView& x = input(ctx, 1);
  const TensorView& y = input(ctx, 2);
  TensorView& o = output(ctx, 0);
  ACL_SIM_REQUIRE(c.dtype == ACL_BOOL, ACL_ERROR_OP_INPUT_NOT_MATCH, "Where: condition must be bool, got ",
                  dtype_name(c.dtype));
  require_same_dtype(ctx, x, y, "X and Y");
  require_same_dtype(ctx, x, o, "X and output");
  BroadcastPlan p = plan_broadcast(ctx, {&c.shape, &x.shape, &y.shape}, o.shape);
  const bool* cp = static_cast<const bool*>(c.data);
  switch (dtype_size(x.dtype)) {
    case 1: return where_runs(p, cp, static_cast<const uint8_t*>(x.data), static_cast<const uint8_t*>(y.data),
                              static_cast<uint8_t*>(o.data));
    case 2: return where_runs(p, cp, static_cast<const uint16_t*>(x.data), static_cast<const uint16_t*>(y.data),
                              static_cast<uint16_t*>(o.data));
    case 4: return where_runs(p, cp, static_cast<const uint32_t*>(x.data), static_cast<const uint32_t*>(y.data),
                              static_cast<uint32_t*>(o.data));
    case 8: return where_runs(p, cp, static_cast<const uint64_t*>(x.data), static_cast<const uint64_t*>(y.data),
                              static_cast<uint64_t*>(o.data));
    default: fail(ACL_ERROR_UNSUPPORTED_DATA_TYPE, "Where: unsupported dtype ", dtype_name(x.dtype));
  }
}

}  // namespace

ACL_SIM_REGISTER_OP(Equal, run_compare<EqualOp>);
ACL_SIM_REGISTER_OP(Less, run_compare<LessOp>);
ACL_SIM_REGISTER_OP(Greater, run_compare<GreaterOp>);
ACL_SIM_REGISTER_OP(LessOrEqual, run_compare<LessOrEqualOp>);
ACL_SIM_REGISTER_OP(GreaterOrEqual, run_compare<GreaterOrEqualOp>);
ACL_SIM_REGISTER_OP(And, run_logic<AndOp>);
ACL_SIM_REGISTER_OP(Or, run_logic<OrOp>);
ACL_SIM_REGISTER_OP(Xor, run_logic<XorOp>);
ACL_SIM_REGISTER_OP(Not, run_not);
ACL_SIM_REGISTER_OP(IsNaN, run_isnan);
ACL_SIM_REGISTER_OP(IsInf, run_isinf);
ACL_SIM_REGISTER_OP(Where, run_where);

}  // namespace acl_sim::kern
