/**
 * @file vector_ops.h
 * Vector-unit instructions on LocalTensors: elementwise Add/Sub/Mul/Div/Max/Min,
 * scalar Adds/Muls/Maxs/Mins, unary Exp/Ln/Abs/Sqrt/Relu, Duplicate,
 * ReduceSum/ReduceMax, and Cast (f16<->f32, f32<->s32).
 *
 * Every operand must lie in UB and start 32-byte aligned, and `count` must fit
 * every operand, as on the NPU; violations fault the block. half operands are
 * computed in float and rounded once, which matches fp16 hardware for the
 * arithmetic ops; ReduceSum over half accumulates in float and rounds the
 * total (the NPU's tree order may differ in the last bit).
 */
#ifndef ACL_SIM_KERNEL_VECTOR_OPS_H_
#define ACL_SIM_KERNEL_VECTOR_OPS_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "acl_sim/kernel/data_copy.h"
#include "acl_sim/kernel/half.h"
#include "acl_sim/kernel/tensor.h"

namespace AscendC {
namespace detail {

/** Arithmetic type used to compute on T. */
template <class T>
using compute_t = std::conditional_t<std::is_same_v<T, half>, float, T>;

template <class T>
void check_operand(const LocalTensor<T>& t, uint32_t count, const char* op, const char* name) {
  check_ub_aligned(t.GetPhyAddr(), op, name);
  t.check(0, count, op);
}

template <class T, class F>
void binary(const LocalTensor<T>& dst, const LocalTensor<T>& a, const LocalTensor<T>& b, uint32_t count, const char* op, F f) {
  check_operand(dst, count, op, "dst");
  check_operand(a, count, op, "src0");
  check_operand(b, count, op, "src1");
  T* d = dst.GetPhyAddr();
  const T* x = a.GetPhyAddr();
  const T* y = b.GetPhyAddr();
  for (uint32_t i = 0; i < count; ++i) {
    d[i] = static_cast<T>(f(static_cast<compute_t<T>>(x[i]), static_cast<compute_t<T>>(y[i])));
  }
}

template <class T, class F>
void unary(const LocalTensor<T>& dst, const LocalTensor<T>& a, uint32_t count, const char* op, F f) {
  check_operand(dst, count, op, "dst");
  check_operand(a, count, op, "src");
  T* d = dst.GetPhyAddr();
  const T* x = a.GetPhyAddr();
  for (uint32_t i = 0; i < count; ++i) d[i] = static_cast<T>(f(static_cast<compute_t<T>>(x[i])));
}

}  // namespace detail

#define ACL_SIM_BINARY_OP(Name, expr)                                                                       \
  template <class T>                                                                                        \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, uint32_t count) { \
    using C = detail::compute_t<T>;                                                                         \
    detail::binary(dst, src0, src1, count, #Name, [](C a, C b) { return expr; });                           \
  }
ACL_SIM_BINARY_OP(Add, a + b)
ACL_SIM_BINARY_OP(Sub, a - b)
ACL_SIM_BINARY_OP(Mul, a * b)
ACL_SIM_BINARY_OP(Div, a / b)
ACL_SIM_BINARY_OP(Max, a > b ? a : b)
ACL_SIM_BINARY_OP(Min, a < b ? a : b)
#undef ACL_SIM_BINARY_OP

#define ACL_SIM_SCALAR_OP(Name, expr)                                                                    \
  template <class T, class S>                                                                            \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, S scalarValue, uint32_t count) {       \
    using C = detail::compute_t<T>;                                                                      \
    const C s = static_cast<C>(static_cast<T>(scalarValue));                                             \
    detail::unary(dst, src, count, #Name, [s](C a) { return expr; });                                    \
  }
ACL_SIM_SCALAR_OP(Adds, a + s)
ACL_SIM_SCALAR_OP(Muls, a * s)
ACL_SIM_SCALAR_OP(Maxs, a > s ? a : s)
ACL_SIM_SCALAR_OP(Mins, a < s ? a : s)
#undef ACL_SIM_SCALAR_OP

#define ACL_SIM_UNARY_OP(Name, expr)                                                   \
  template <class T>                                                                   \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count) {    \
    using C = detail::compute_t<T>;                                                    \
    detail::unary(dst, src, count, #Name, [](C a) { return static_cast<C>(expr); });   \
  }
ACL_SIM_UNARY_OP(Exp, std::exp(a))
ACL_SIM_UNARY_OP(Ln, std::log(a))
ACL_SIM_UNARY_OP(Abs, std::fabs(a))
ACL_SIM_UNARY_OP(Sqrt, std::sqrt(a))
ACL_SIM_UNARY_OP(Relu, a > C(0) ? a : C(0))
#undef ACL_SIM_UNARY_OP

/** dst[0..count) = scalarValue. */
template <class T, class S>
void Duplicate(const LocalTensor<T>& dst, S scalarValue, uint32_t count) {
  detail::check_operand(dst, count, "Duplicate", "dst");
  const T v = static_cast<T>(scalarValue);
  T* d = dst.GetPhyAddr();
  for (uint32_t i = 0; i < count; ++i) d[i] = v;
}

/** dst[0] = sum of src[0..count). @p work is the scratch the NPU needs; it must be valid UB. */
template <class T>
void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work, uint32_t count) {
  detail::check_operand(dst, 1, "ReduceSum", "dst");
  detail::check_operand(src, count, "ReduceSum", "src");
  detail::check_ub_aligned(work.GetPhyAddr(), "ReduceSum", "the work buffer");
  using A = std::conditional_t<std::is_floating_point_v<detail::compute_t<T>>, double, int64_t>;
  A acc = 0;
  const T* x = src.GetPhyAddr();
  for (uint32_t i = 0; i < count; ++i) acc += static_cast<A>(static_cast<detail::compute_t<T>>(x[i]));
  dst.GetPhyAddr()[0] = static_cast<T>(static_cast<detail::compute_t<T>>(acc));
}

/** dst[0] = max of src[0..count) (calIndex is accepted and ignored: the index is not produced). */
template <class T>
void ReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work, uint32_t count,
               bool calIndex = false) {
  detail::check_operand(dst, 1, "ReduceMax", "dst");
  detail::check_operand(src, count, "ReduceMax", "src");
  if (count == 0) detail::kernel_fault("ReduceMax over 0 elements");
  using C = detail::compute_t<T>;
  const T* x = src.GetPhyAddr();
  C m = static_cast<C>(x[0]);
  for (uint32_t i = 1; i < count; ++i) m = std::max(m, static_cast<C>(x[i]));
  dst.GetPhyAddr()[0] = static_cast<T>(m);
}

/** Rounding of Cast (CANN's RoundMode). */
enum class RoundMode { CAST_NONE = 0, CAST_RINT, CAST_FLOOR, CAST_CEIL, CAST_ROUND, CAST_TRUNC, CAST_ODD };

namespace detail {

/** float -> half honouring @p mode (NONE/RINT/ODD: nearest even; ROUND: nearest, ties away). */
inline half cast_to_half(float x, RoundMode mode) {
  half h(x);
  const float back = static_cast<float>(h);
  if (std::isnan(x) || back == x || std::isinf(back) != std::isinf(x)) return h;
  auto step = [&](bool up) {  // move one half-ulp step toward +inf (up) or -inf
    const bool neg = (h.bits & 0x8000u) != 0;
    if ((h.bits & 0x7fffu) == 0) return half::from_bits(up ? 0x0001 : 0x8001);
    return half::from_bits(static_cast<uint16_t>(up != neg ? h.bits + 1 : h.bits - 1));
  };
  switch (mode) {
    case RoundMode::CAST_FLOOR: return back > x ? step(false) : h;
    case RoundMode::CAST_CEIL: return back < x ? step(true) : h;
    case RoundMode::CAST_TRUNC: return std::fabs(back) > std::fabs(x) ? step(back < 0) : h;
    case RoundMode::CAST_ROUND: {
      const half other = step(back < x);
      const float d0 = std::fabs(back - x), d1 = std::fabs(static_cast<float>(other) - x);
      return (d1 == d0 && std::fabs(static_cast<float>(other)) > std::fabs(back)) ? other : h;
    }
    default: return h;
  }
}

inline float round_float(float x, RoundMode mode) {
  switch (mode) {
    case RoundMode::CAST_FLOOR: return std::floor(x);
    case RoundMode::CAST_CEIL: return std::ceil(x);
    case RoundMode::CAST_ROUND: return std::round(x);
    case RoundMode::CAST_TRUNC: return std::trunc(x);
    default: return std::nearbyint(x);
  }
}

template <class D, class S>
D cast_one(S v, RoundMode mode) {
  if constexpr (std::is_same_v<D, half> && std::is_same_v<S, float>) {
    return cast_to_half(v, mode);
  } else if constexpr (std::is_integral_v<D> && std::is_floating_point_v<compute_t<S>>) {
    return static_cast<D>(round_float(static_cast<float>(v), mode));
  } else {
    return static_cast<D>(static_cast<compute_t<S>>(v));
  }
}

}  // namespace detail

/** dst[i] = convert(src[i]) for i < count; f16<->f32, f32<->s32, f16->s32 and friends. */
template <class D, class S>
void Cast(const LocalTensor<D>& dst, const LocalTensor<S>& src, RoundMode mode, uint32_t count) {
  detail::check_operand(dst, count, "Cast", "dst");
  detail::check_operand(src, count, "Cast", "src");
  D* d = dst.GetPhyAddr();
  const S* s = src.GetPhyAddr();
  for (uint32_t i = 0; i < count; ++i) d[i] = detail::cast_one<D>(s[i], mode);
}

}  // namespace AscendC

#endif  // ACL_SIM_KERNEL_VECTOR_OPS_H_
