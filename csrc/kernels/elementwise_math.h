// Branch-free float math that GCC auto-vectorises (libm calls would keep the
// loops scalar). Each float function is accurate to a few ulp over the range
// the ONNX ops use; the double overloads simply call libm.
//
// Algorithms are the classic Cephes range reductions and minimax polynomials.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "kernels/elementwise_common.h"

namespace acl_sim::kern {

ACL_SIM_INLINE float as_float(int32_t i) {
  float f;
  std::memcpy(&f, &i, 4);
  return f;
}
ACL_SIM_INLINE int32_t as_int(float f) {
  int32_t i;
  std::memcpy(&i, &f, 4);
  return i;
}

/**
 * e^xc for xc already clamped to [-87.3365, 88.3763]: n = round(xc / ln2) without a libm call (adding 1.5*2^23
 * pushes the fraction out), the Cephes two-constant reduction and degree-6 polynomial, then p * 2^n.
 */
ACL_SIM_INLINE float exp_clamped(float xc) {
  float n = (xc * 1.44269504088896341f + 12582912.f) - 12582912.f;
  float r = xc - n * 0.693359375f;
  r = r + n * 2.12194440e-4f;
  float p = 1.9875691500E-4f;
  p = p * r + 1.3981999507E-3f;
  p = p * r + 8.3334519073E-3f;
  p = p * r + 4.1665795894E-2f;
  p = p * r + 1.6666665459E-1f;
  p = p * r + 5.0000001201E-1f;
  p = p * r * r + r + 1.f;
  return p * as_float((static_cast<int32_t>(n) + 127) << 23);
}

/** e^x; overflow gives +inf, underflow 0 (no subnormal results). */
ACL_SIM_INLINE float vexp(float x) {
  float y = exp_clamped(x < -87.3365f ? -87.3365f : (x > 88.3762626647949f ? 88.3762626647949f : x));
  y = x > 88.72283935546875f ? std::numeric_limits<float>::infinity() : y;
  y = x < -87.3365f ? 0.f : y;
  return x != x ? x : y;
}

/**
 * e^x for x <= 0 (softmax's x - max): vexp without the overflow clamp and the NaN select. A NaN
 * propagates through the arithmetic by itself (NaN times any scale is NaN); underflow still gives 0, so
 * a -inf mask entry stays an exact 0 probability.
 */
ACL_SIM_INLINE float vexp_nonpositive(float x) {
  const float y = exp_clamped(x < -87.3365f ? -87.3365f : x);
  return x < -87.3365f ? 0.f : y;
}

/** Natural log; log(0) = -inf, log(<0) = NaN, log(inf) = inf. */
ACL_SIM_INLINE float vlog(float x) {
  int32_t bits = as_int(x);
  int32_t e = ((bits >> 23) & 0xff) - 126;
  float m = as_float((bits & 0x007fffff) | 0x3f000000);  // mantissa in [0.5, 1)
  bool small = m < 0.707106781186547524f;
  float ef = static_cast<float>(small ? e - 1 : e);
  m = small ? m + m - 1.f : m - 1.f;
  float z = m * m;
  float p = 7.0376836292E-2f;
  p = p * m - 1.1514610310E-1f;
  p = p * m + 1.1676998740E-1f;
  p = p * m - 1.2420140846E-1f;
  p = p * m + 1.4249322787E-1f;
  p = p * m - 1.6668057665E-1f;
  p = p * m + 2.0000714765E-1f;
  p = p * m - 2.4999993993E-1f;
  p = p * m + 3.3333331174E-1f;
  float y = p * m * z;
  y = y + ef * -2.12194440e-4f;
  y = y - 0.5f * z;
  y = m + y + ef * 0.693359375f;
  y = x == std::numeric_limits<float>::infinity() ? x : y;
  y = x == 0.f ? -std::numeric_limits<float>::infinity() : y;
  y = x < 0.f ? std::numeric_limits<float>::quiet_NaN() : y;
  // Subnormal inputs: scale up by 2^23 first would cost a second pass; use the exact value instead.
  y = (x > 0.f && x < 1.17549435e-38f) ? -87.5f : y;
  return x != x ? x : y;
}

/** tanh as a 13/6 rational minimax approximation on [-7.9, 7.9] (the form Eigen uses): no exp,
 *  one division, a few ulp; saturates to +-1 outside. */
ACL_SIM_INLINE float vtanh(float x) {
  const float kClamp = 7.90531110763549805f;
  float xc = x < -kClamp ? -kClamp : (x > kClamp ? kClamp : x);
  float x2 = xc * xc;
  float p = -2.76076847742355e-16f;
  p = p * x2 + 2.00018790482477e-13f;
  p = p * x2 - 8.60467152213735e-11f;
  p = p * x2 + 5.12229709037114e-08f;
  p = p * x2 + 1.48572235717979e-05f;
  p = p * x2 + 6.37261928875436e-04f;
  p = p * x2 + 4.89352455891786e-03f;
  p = p * xc;
  float q = 1.19825839466702e-06f;
  q = q * x2 + 1.18534705686654e-04f;
  q = q * x2 + 2.26843463243900e-03f;
  q = q * x2 + 4.89352518554385e-03f;
  float r = p / q;
  float ax = x < 0.f ? -x : x;
  return ax < 0.0004f ? x : r;  // tiny |x|: tanh(x) == x in float
}

/**
 * 1 / (1 + e^-x) through e = e^-|x|, which never overflows (so the cheaper vexp_nonpositive does): s = 1 / (1 + e),
 * and e * s for x < 0. -inf gives 0, +inf 1, NaN NaN.
 */
ACL_SIM_INLINE float vsigmoid(float x) {
  const float e = vexp_nonpositive(x < 0.f ? x : -x);
  const float s = 1.f / (1.f + e);
  return x < 0.f ? e * s : s;
}

/** erf: Taylor series near 0 (relative accuracy), Abramowitz-Stegun 7.1.26 refined elsewhere. */
ACL_SIM_INLINE float verf(float x) {
  float ax = x < 0.f ? -x : x;
  float z = x * x;
  float taylor = x * (1.12837916709551f +
                      z * (-0.376126389031838f +
                           z * (0.112837916709551f +
                                z * (-0.0268661706451313f + z * (0.00522397762544218f - z * 0.000854832702345f)))));
  // A&S 7.1.26 with |error| <= 1.5e-7.
  float t = 1.f / (1.f + 0.3275911f * ax);
  float poly = t * (0.254829592f + t * (-0.284496736f + t * (1.421413741f + t * (-1.453152027f + t * 1.061405429f))));
  float r = 1.f - poly * vexp(-z);
  r = ax > 9.f ? 1.f : r;
  r = x < 0.f ? -r : r;
  return ax < 0.5f ? taylor : r;
}

ACL_SIM_INLINE float vexpm1(float x) {
  // exp(x)-1 loses relative accuracy near 0; a short series covers |x| < 0.25.
  float series = x * (1.f + x * (0.5f + x * (1.f / 6 + x * (1.f / 24 + x * (1.f / 120 + x * (1.f / 720))))));
  float ax = x < 0.f ? -x : x;
  return ax < 0.25f ? series : vexp(x) - 1.f;
}

ACL_SIM_INLINE float vlog1p(float x) {
  float ax = x < 0.f ? -x : x;
  float series = x * (1.f + x * (-0.5f + x * (1.f / 3 + x * (-0.25f + x * (0.2f + x * (-1.f / 6 + x * (1.f / 7)))))));
  return ax < 0.0625f ? series : vlog(1.f + x);
}

/** log(1 + e^x) without overflow. */
ACL_SIM_INLINE float vsoftplus(float x) {
  float ax = x < 0.f ? -x : x;
  // log(1+e^x) = max(x,0) + log1p(e^-|x|)
  return (x > 0.f ? x : 0.f) + vlog1p(vexp(-ax));
}

// Double precision: libm (the double path is rare and not vectorised).
inline double vexp(double x) { return std::exp(x); }
inline double vlog(double x) { return std::log(x); }
inline double vtanh(double x) { return std::tanh(x); }
inline double vsigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }
inline double verf(double x) { return std::erf(x); }
inline double vexpm1(double x) { return std::expm1(x); }
inline double vlog1p(double x) { return std::log1p(x); }
inline double vsoftplus(double x) { return (x > 0 ? x : 0) + std::log1p(std::exp(-std::fabs(x))); }

}  // namespace acl_sim::kern
