// ONNX arithmetic binary ops with broadcasting: Add Sub Mul Div Pow Mod Min
// Max PRelu BitShift Bitwise*, and the variadic Sum / Mean / Min / Max.
#include <cmath>
#include <limits>

#include "kernels/binary_common.h"
#include "kernels/elementwise_cast.h"

namespace acl_sim::kern {
namespace {

template <class T>
constexpr bool is_plain_int_v = std::is_integral_v<T> && !std::is_same_v<T, bool>;
template <class T>
constexpr bool numeric_v = is_plain_int_v<T> || is_float_family_v<T>;

#define ACL_SIM_ARITH_OP(Name, expr)                             \
  struct Name {                                                  \
    static constexpr bool kPredicate = false;                    \
    template <class T>                                           \
    static constexpr bool supports() { return numeric_v<T>; }    \
    template <class T>                                           \
    ACL_SIM_INLINE T operator()(T a, T b) const { return expr; } \
  };

ACL_SIM_ARITH_OP(AddOp, static_cast<T>(a + b))
ACL_SIM_ARITH_OP(SubOp, static_cast<T>(a - b))
ACL_SIM_ARITH_OP(MulOp, static_cast<T>(a * b))
// NaN-propagating like numpy.maximum / onnxruntime.
ACL_SIM_ARITH_OP(MaxOp, (a != a) ? a : (a < b ? b : a))
ACL_SIM_ARITH_OP(MinOp, (a != a) ? a : (b < a ? b : a))
#undef ACL_SIM_ARITH_OP

struct DivOp {
  static constexpr bool kPredicate = false;
  template <class T>
  static constexpr bool supports() { return numeric_v<T>; }
  template <class T>
  ACL_SIM_INLINE T operator()(T a, T b) const {
    if constexpr (std::is_integral_v<T>) {
      // Integer division by zero is undefined in ONNX; return 0 rather than trap.
      if (b == 0) return 0;
      if constexpr (std::is_signed_v<T>) {
        if (b == -1) return static_cast<T>(0 - static_cast<std::make_unsigned_t<T>>(a));
      }
      return static_cast<T>(a / b);
    } else {
      return a / b;
    }
  }
};

struct ModOp {
  static constexpr bool kPredicate = false;
  bool c_fmod;  // fmod=1: sign of the dividend (C fmod); fmod=0: sign of the divisor (Python %)
  template <class T>
  static constexpr bool supports() { return numeric_v<T>; }
  template <class T>
  ACL_SIM_INLINE T operator()(T a, T b) const {
    if constexpr (std::is_integral_v<T>) {
      if (b == 0) return 0;
      if constexpr (std::is_signed_v<T>) {
        if (b == -1) return 0;
      }
      T r = static_cast<T>(a % b);
      if constexpr (std::is_signed_v<T>) {
        if (!c_fmod && r != 0 && ((r < 0) != (b < 0))) r = static_cast<T>(r + b);
      }
      return r;
    } else {
      T r = std::fmod(a, b);
      if (!c_fmod && r != 0 && ((r < 0) != (b < 0))) r += b;
      return r;
    }
  }
};

struct PowOp {
  static constexpr bool kPredicate = false;
  template <class T>
  static constexpr bool supports() { return numeric_v<T>; }
  template <class T>
  ACL_SIM_INLINE T operator()(T a, T b) const {
    if constexpr (std::is_integral_v<T>) {
      if constexpr (std::is_signed_v<T>) {
        if (b < 0) return a == 1 ? 1 : (a == -1 ? ((b & 1) ? -1 : 1) : 0);
      }
      T r = 1, base = a;
      for (auto e = b; e > 0; e >>= 1) {
        if (e & 1) r = static_cast<T>(r * base);
        base = static_cast<T>(base * base);
      }
      return r;
    } else {
      return std::pow(a, b);
    }
  }
};

// PRelu(X, slope): slope broadcasts to X (unidirectionally); negative x take slope * x.
struct PReluOp {
  static constexpr bool kPredicate = false;
  template <class T>
  static constexpr bool supports() { return is_float_family_v<T> || std::is_signed_v<T>; }
  template <class T>
  ACL_SIM_INLINE T operator()(T x, T slope) const { return x < 0 ? static_cast<T>(x * slope) : x; }
};

// BitShift: unsigned types (opset 11) and signed ones (newer opsets): left shifts work on the
// bit pattern; right shifts of signed values are arithmetic. A shift outside [0, width) gives 0
// (or -1 for a negative value shifted right), as the ONNX reference.
struct BitShiftOp {
  static constexpr bool kPredicate = false;
  bool left;
  template <class T>
  static constexpr bool supports() { return is_plain_int_v<T>; }
  template <class T>
  ACL_SIM_INLINE T operator()(T a, T b) const {
    using U = std::make_unsigned_t<T>;
    if constexpr (std::is_signed_v<T>) {
      if (b < 0) return left ? T(0) : (a < 0 ? T(-1) : T(0));
    }
    if (static_cast<U>(b) >= sizeof(T) * 8) return left ? T(0) : (a < 0 ? T(-1) : T(0));
    if (left) return static_cast<T>(static_cast<U>(static_cast<U>(a) << b));
    return static_cast<T>(a >> b);
  }
};

#define ACL_SIM_BITWISE_OP(Name, expr)                            \
  struct Name {                                                   \
    static constexpr bool kPredicate = false;                     \
    template <class T>                                            \
    static constexpr bool supports() { return is_plain_int_v<T>; } \
    template <class T>                                            \
    ACL_SIM_INLINE T operator()(T a, T b) const { return static_cast<T>(expr); } \
  };
ACL_SIM_BITWISE_OP(BitwiseAndOp, a& b)
ACL_SIM_BITWISE_OP(BitwiseOrOp, a | b)
ACL_SIM_BITWISE_OP(BitwiseXorOp, a ^ b)
#undef ACL_SIM_BITWISE_OP

template <class Op>
void run_arith(OpContext& ctx) { run_binary(ctx, Op{}, BinTypes{}); }

void run_mod(OpContext& ctx) { run_binary(ctx, ModOp{attrs_of(ctx).get_int("fmod", 0) != 0}, BinTypes{}); }

// Pow's exponent may have another dtype (T1); it is converted to the base dtype first.
void run_pow(OpContext& ctx) {
  require_io(ctx, 2, 1);
  const TensorView& a = input(ctx, 0);
  const TensorView& b = input(ctx, 1);
  if (a.dtype == b.dtype) return run_binary(ctx, PowOp{}, BinTypes{});
  std::vector<uint8_t> tmp(static_cast<size_t>(b.numel()) * std::max<size_t>(dtype_size(a.dtype), 1));
  cast_elements(ctx, b.data, b.dtype, tmp.data(), a.dtype, b.numel());
  TensorView bc{tmp.data(), a.dtype, b.shape};
  run_binary_on(ctx, PowOp{}, BinTypes{}, a, bc, output(ctx, 0));
}

void run_prelu(OpContext& ctx) {
  require_io(ctx, 2, 1);
  run_binary(ctx, PReluOp{}, BinTypes{});
}

void run_bitshift(OpContext& ctx) {
  std::string dir = attrs_of(ctx).get_string("direction", "");
  ACL_SIM_REQUIRE(dir == "LEFT" || dir == "RIGHT", ACL_ERROR_OP_ATTR_NOT_MATCH,
                  "BitShift: direction must be LEFT or RIGHT, got '", dir, "'");
  run_binary(ctx, BitShiftOp{dir == "LEFT"}, BinTypes{false, true, false});
}

// Variadic Sum/Mean/Max/Min: fold the inputs into the output one at a time
// (the output is the broadcast of all of them, so out op= in_k is in place).
template <class Op>
void run_variadic(OpContext& ctx, bool mean) {
  require_io(ctx, 1, 1);
  TensorView& out = output(ctx, 0);
  size_t n = ctx.inputs.size();
  for (size_t i = 0; i < n; ++i) input(ctx, i);
  if (n == 1) broadcast_copy(ctx, ctx.inputs[0], out);
  else run_binary_on(ctx, Op{}, BinTypes{}, ctx.inputs[0], ctx.inputs[1], out);
  for (size_t i = 2; i < n; ++i) run_binary_on(ctx, Op{}, BinTypes{}, out, ctx.inputs[i], out);
  if (mean && n > 1) {
    ACL_SIM_REQUIRE(is_float_dtype(out.dtype), ACL_ERROR_UNSUPPORTED_DATA_TYPE, "Mean: unsupported dtype ",
                    dtype_name(out.dtype));
    double inv = 1.0 / static_cast<double>(n);
    dispatch_dtype(out.dtype, "Mean", [&](auto tag) {
      using T = decltype(tag);
      if constexpr (is_float_family_v<T>) {
        std::vector<uint8_t> scalar(sizeof(T));
        store_from_double(reinterpret_cast<T*>(scalar.data()), inv);
        TensorView s{scalar.data(), out.dtype, {}};
        run_binary_on(ctx, MulOp{}, BinTypes{}, out, s, out);
      }
    });
  }
}

void run_sum(OpContext& ctx) { run_variadic<AddOp>(ctx, false); }
void run_mean(OpContext& ctx) { run_variadic<AddOp>(ctx, true); }
void run_max(OpContext& ctx) { run_variadic<MaxOp>(ctx, false); }
void run_min(OpContext& ctx) { run_variadic<MinOp>(ctx, false); }

}  // namespace

ACL_SIM_REGISTER_OP(Add, run_arith<AddOp>);
ACL_SIM_REGISTER_OP(Sub, run_arith<SubOp>);
ACL_SIM_REGISTER_OP(Mul, run_arith<MulOp>);
ACL_SIM_REGISTER_OP(Div, run_arith<DivOp>);
ACL_SIM_REGISTER_OP(Mod, run_mod);
ACL_SIM_REGISTER_OP(Pow, run_pow);
ACL_SIM_REGISTER_OP(PRelu, run_prelu);
ACL_SIM_REGISTER_OP(BitShift, run_bitshift);
ACL_SIM_REGISTER_OP(BitwiseAnd, run_arith<BitwiseAndOp>);
ACL_SIM_REGISTER_OP(BitwiseOr, run_arith<BitwiseOrOp>);
ACL_SIM_REGISTER_OP(BitwiseXor, run_arith<BitwiseXorOp>);
ACL_SIM_REGISTER_OP(Sum, run_sum);
ACL_SIM_REGISTER_OP(Mean, run_mean);
ACL_SIM_REGISTER_OP(Max, run_max);
ACL_SIM_REGISTER_OP(Min, run_min);

}  // namespace acl_sim::kern
