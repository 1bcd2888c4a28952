// ONNX unary math ops on the unary map engine (unary_common.h): activations,
// exp/log family, rounding, and the signed/numeric ops that also take integers.
#include <cmath>

#include "kernels/unary_common.h"

namespace acl_sim::kern {
namespace {

// Each functor: kTypes = accepted integer families; operator() for float,
// double (and integers when kTypes allows), always-inline for vectorisation.
#define ACL_SIM_FLOAT_OP(Name, expr)                        \
  struct Name {                                             \
    static constexpr UnaryTypes kTypes = UnaryTypes::Float; \
    template <class T>                                      \
    ACL_SIM_INLINE T operator()(T x) const {                \
      return expr;                                          \
    }                                                       \
  };

ACL_SIM_FLOAT_OP(SigmoidOp, vsigmoid(x))
ACL_SIM_FLOAT_OP(TanhOp, vtanh(x))
ACL_SIM_FLOAT_OP(ExpOp, vexp(x))
ACL_SIM_FLOAT_OP(LogOp, vlog(x))
ACL_SIM_FLOAT_OP(SqrtOp, std::sqrt(x))
ACL_SIM_FLOAT_OP(ReciprocalOp, T(1) / x)
ACL_SIM_FLOAT_OP(ErfOp, verf(x))
ACL_SIM_FLOAT_OP(FloorOp, std::floor(x))
ACL_SIM_FLOAT_OP(CeilOp, std::ceil(x))
ACL_SIM_FLOAT_OP(RoundOp, std::nearbyint(x))  // half to even under the default rounding mode
ACL_SIM_FLOAT_OP(SoftplusOp, vsoftplus(x))
ACL_SIM_FLOAT_OP(SoftsignOp, x / (T(1) + (x < 0 ? -x : x)))
ACL_SIM_FLOAT_OP(MishOp, x* vtanh(vsoftplus(x)))
ACL_SIM_FLOAT_OP(HardSwishOp, x* std::max(T(0), std::min(T(1), x * T(1.0 / 6) + T(0.5))))
ACL_SIM_FLOAT_OP(SinOp, std::sin(x))
ACL_SIM_FLOAT_OP(CosOp, std::cos(x))
ACL_SIM_FLOAT_OP(TanOp, std::tan(x))
ACL_SIM_FLOAT_OP(AsinOp, std::asin(x))
ACL_SIM_FLOAT_OP(AcosOp, std::acos(x))
ACL_SIM_FLOAT_OP(AtanOp, std::atan(x))
ACL_SIM_FLOAT_OP(SinhOp, std::sinh(x))
ACL_SIM_FLOAT_OP(CoshOp, std::cosh(x))
ACL_SIM_FLOAT_OP(AsinhOp, std::asinh(x))
ACL_SIM_FLOAT_OP(AcoshOp, std::acosh(x))
ACL_SIM_FLOAT_OP(AtanhOp, std::atanh(x))
#undef ACL_SIM_FLOAT_OP

struct NegOp {
  static constexpr UnaryTypes kTypes = UnaryTypes::SignedNumeric;
  template <class T>
  ACL_SIM_INLINE T operator()(T x) const { return static_cast<T>(-x); }
};
struct AbsOp {
  static constexpr UnaryTypes kTypes = UnaryTypes::Numeric;
  template <class T>
  ACL_SIM_INLINE T operator()(T x) const {
    if constexpr (std::is_unsigned_v<T>) return x;
    else return static_cast<T>(x < 0 ? -x : x);
  }
};
struct SignOp {
  static constexpr UnaryTypes kTypes = UnaryTypes::Numeric;
  template <class T>
  ACL_SIM_INLINE T operator()(T x) const {
    if constexpr (std::is_floating_point_v<T>) return x != x ? x : T((x > 0) - (x < 0));
    else return static_cast<T>((x > 0) - (x < T(0)));
  }
};
struct BitwiseNotOp {
  static constexpr UnaryTypes kTypes = UnaryTypes::Integer;
  template <class T>
  ACL_SIM_INLINE T operator()(T x) const {
    if constexpr (std::is_integral_v<T>) return static_cast<T>(~x);
    else return x;  // never instantiated for floats: run_unary rejects them first
  }
};
struct ReluOp {
  static constexpr UnaryTypes kTypes = UnaryTypes::SignedNumeric;  // opset 14 adds int8..int64
  template <class T>
  ACL_SIM_INLINE T operator()(T x) const { return x > T(0) ? x : T(0); }
};

struct LeakyReluOp {
  static constexpr UnaryTypes kTypes = UnaryTypes::Float;
  float alpha;
  template <class T>
  ACL_SIM_INLINE T operator()(T x) const { return x < 0 ? x * T(alpha) : x; }
};
struct HardSigmoidOp {
  static constexpr UnaryTypes kTypes = UnaryTypes::Float;
  float alpha, beta;
  template <class T>
  ACL_SIM_INLINE T operator()(T x) const { return std::max(T(0), std::min(T(1), T(alpha) * x + T(beta))); }
};
struct EluOp {
  static constexpr UnaryTypes kTypes = UnaryTypes::Float;
  float alpha;
  template <class T>
  ACL_SIM_INLINE T operator()(T x) const { return x < 0 ? T(alpha) * vexpm1(x) : x; }
};
struct CeluOp {
  static constexpr UnaryTypes kTypes = UnaryTypes::Float;
  float alpha;
  template <class T>
  ACL_SIM_INLINE T operator()(T x) const {
    T neg = T(alpha) * vexpm1(x / T(alpha));
    return x > 0 ? x : (neg < 0 ? neg : T(0));
  }
};
struct SeluOp {
  static constexpr UnaryTypes kTypes = UnaryTypes::Float;
  float alpha, gamma;
  template <class T>
  ACL_SIM_INLINE T operator()(T x) const { return T(gamma) * (x > 0 ? x : T(alpha) * vexpm1(x)); }
};
struct ThresholdedReluOp {
  static constexpr UnaryTypes kTypes = UnaryTypes::Float;
  float alpha;
  template <class T>
  ACL_SIM_INLINE T operator()(T x) const { return x > T(alpha) ? x : T(0); }
};
struct ShrinkOp {
  static constexpr UnaryTypes kTypes = UnaryTypes::Float;
  float bias, lambd;
  template <class T>
  ACL_SIM_INLINE T operator()(T x) const { return x < -T(lambd) ? x + T(bias) : (x > T(lambd) ? x - T(bias) : T(0)); }
};
struct GeluOp {
  static constexpr UnaryTypes kTypes = UnaryTypes::Float;
  bool tanh_approx;
  template <class T>
  ACL_SIM_INLINE T operator()(T x) const {
    if (tanh_approx) {
      T inner = T(0.7978845608028654) * (x + T(0.044715) * x * x * x);
      return T(0.5) * x * (T(1) + vtanh(inner));
    }
    return T(0.5) * x * (T(1) + verf(x * T(0.7071067811865476)));
  }
};

// Clip needs per-dtype bounds (integers too), so it is a template on the value type.
template <class V>
struct ClipOp {
  static constexpr UnaryTypes kTypes = UnaryTypes::Numeric;
  V lo, hi;
  template <class T>
  ACL_SIM_INLINE T operator()(T x) const {
    T l = static_cast<T>(lo), h = static_cast<T>(hi);
    T r = x < l ? l : x;
    return r > h ? h : r;  // min(max(x, lo), hi): lo > hi gives hi, as ONNX
  }
};

template <class Op>
void run_simple(OpContext& ctx) { run_unary(ctx, Op{}); }

float attr_f(const OpContext& ctx, const char* name, double def) {
  return static_cast<float>(attrs_of(ctx).get_float(name, def));
}

void run_leaky_relu(OpContext& ctx) { run_unary(ctx, LeakyReluOp{attr_f(ctx, "alpha", 0.01)}); }
void run_hard_sigmoid(OpContext& ctx) {
  run_unary(ctx, HardSigmoidOp{attr_f(ctx, "alpha", 0.2), attr_f(ctx, "beta", 0.5)});
}
void run_elu(OpContext& ctx) { run_unary(ctx, EluOp{attr_f(ctx, "alpha", 1.0)}); }
void run_celu(OpContext& ctx) { run_unary(ctx, CeluOp{attr_f(ctx, "alpha", 1.0)}); }
void run_selu(OpContext& ctx) {
  run_unary(ctx, SeluOp{attr_f(ctx, "alpha", 1.67326319217681884765625),
                        attr_f(ctx, "gamma", 1.05070102214813232421875)});
}
void run_thresholded_relu(OpContext& ctx) { run_unary(ctx, ThresholdedReluOp{attr_f(ctx, "alpha", 1.0)}); }
void run_shrink(OpContext& ctx) { run_unary(ctx, ShrinkOp{attr_f(ctx, "bias", 0.0), attr_f(ctx, "lambd", 0.5)}); }

void run_gelu(OpContext& ctx) {
  std::string mode = attrs_of(ctx).get_string("approximate", "none");
  ACL_SIM_REQUIRE(mode == "none" || mode == "tanh", ACL_ERROR_OP_ATTR_NOT_MATCH,
                  "Gelu: approximate must be 'none' or 'tanh', got '", mode, "'");
  run_unary(ctx, GeluOp{mode == "tanh"});
}

// Clip: opset >= 11 takes optional min/max inputs (scalars of the input dtype);
// opset 6 used float attributes min/max. Absent bounds mean the dtype's range.
void run_clip(OpContext& ctx) {
  require_io(ctx, 1, 1);
  const TensorView& x = input(ctx, 0);
  const TensorView* lo_t = optional_input(ctx, 1);
  const TensorView* hi_t = optional_input(ctx, 2);
  for (const TensorView* b : {lo_t, hi_t})
    if (b) {
      ACL_SIM_REQUIRE(b->numel() == 1, ACL_ERROR_OP_INPUT_NOT_MATCH, "Clip: min/max must be scalars, got shape ",
                      shape_str(b->shape));
      require_same_dtype(ctx, x, *b, "input and min/max");
    }
  const Attrs& a = attrs_of(ctx);
  if (is_float_dtype(x.dtype)) {
    double lo = lo_t ? scalar_as_double(*lo_t) : a.get_float("min", -std::numeric_limits<double>::infinity());
    double hi = hi_t ? scalar_as_double(*hi_t) : a.get_float("max", std::numeric_limits<double>::infinity());
    if (x.dtype == ACL_DOUBLE) return run_unary(ctx, ClipOp<double>{lo, hi});
    return run_unary(ctx, ClipOp<float>{static_cast<float>(lo), static_cast<float>(hi)});
  }
  ACL_SIM_REQUIRE(is_int_dtype(x.dtype), ACL_ERROR_UNSUPPORTED_DATA_TYPE, "Clip: unsupported dtype ",
                  dtype_name(x.dtype));
  dispatch_dtype(x.dtype, "Clip", [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      T lo = lo_t ? *static_cast<const T*>(lo_t->data) : std::numeric_limits<T>::lowest();
      T hi = hi_t ? *static_cast<const T*>(hi_t->data) : std::numeric_limits<T>::max();
      run_unary(ctx, ClipOp<T>{lo, hi});
    }
  });
}

}  // namespace

ACL_SIM_REGISTER_OP(Relu, run_simple<ReluOp>);
ACL_SIM_REGISTER_OP(Sigmoid, run_simple<SigmoidOp>);
ACL_SIM_REGISTER_OP(Tanh, run_simple<TanhOp>);
ACL_SIM_REGISTER_OP(Exp, run_simple<ExpOp>);
ACL_SIM_REGISTER_OP(Log, run_simple<LogOp>);
ACL_SIM_REGISTER_OP(Sqrt, run_simple<SqrtOp>);
ACL_SIM_REGISTER_OP(Reciprocal, run_simple<ReciprocalOp>);
ACL_SIM_REGISTER_OP(Erf, run_simple<ErfOp>);
ACL_SIM_REGISTER_OP(Floor, run_simple<FloorOp>);
ACL_SIM_REGISTER_OP(Ceil, run_simple<CeilOp>);
ACL_SIM_REGISTER_OP(Round, run_simple<RoundOp>);
ACL_SIM_REGISTER_OP(Softplus, run_simple<SoftplusOp>);
ACL_SIM_REGISTER_OP(Softsign, run_simple<SoftsignOp>);
ACL_SIM_REGISTER_OP(Mish, run_simple<MishOp>);
ACL_SIM_REGISTER_OP(HardSwish, run_simple<HardSwishOp>);
ACL_SIM_REGISTER_OP(Sin, run_simple<SinOp>);
ACL_SIM_REGISTER_OP(Cos, run_simple<CosOp>);
ACL_SIM_REGISTER_OP(Tan, run_simple<TanOp>);
ACL_SIM_REGISTER_OP(Asin, run_simple<AsinOp>);
ACL_SIM_REGISTER_OP(Acos, run_simple<AcosOp>);
ACL_SIM_REGISTER_OP(Atan, run_simple<AtanOp>);
ACL_SIM_REGISTER_OP(Sinh, run_simple<SinhOp>);
ACL_SIM_REGISTER_OP(Cosh, run_simple<CoshOp>);
ACL_SIM_REGISTER_OP(Asinh, run_simple<AsinhOp>);
ACL_SIM_REGISTER_OP(Acosh, run_simple<AcoshOp>);
ACL_SIM_REGISTER_OP(Atanh, run_simple<AtanhOp>);
ACL_SIM_REGISTER_OP(Neg, run_simple<NegOp>);
ACL_SIM_REGISTER_OP(Abs, run_simple<AbsOp>);
ACL_SIM_REGISTER_OP(Sign, run_simple<SignOp>);
ACL_SIM_REGISTER_OP(BitwiseNot, run_simple<BitwiseNotOp>);
ACL_SIM_REGISTER_OP(LeakyRelu, run_leaky_relu);
ACL_SIM_REGISTER_OP(HardSigmoid, run_hard_sigmoid);
ACL_SIM_REGISTER_OP(Elu, run_elu);
ACL_SIM_REGISTER_OP(Celu, run_celu);
ACL_SIM_REGISTER_OP(Selu, run_selu);
ACL_SIM_REGISTER_OP(ThresholdedRelu, run_thresholded_relu);
ACL_SIM_REGISTER_OP(Shrink, run_shrink);
ACL_SIM_REGISTER_OP(Gelu, run_gelu);
ACL_SIM_REGISTER_OP(Clip, run_clip);

}  // namespace acl_sim::kern
