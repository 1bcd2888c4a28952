// Fused activation epilogues: a portable scalar path (libm-exact) and an
// AVX-512 / AVX2 path using polynomial exp/erf approximations (max abs error
// ~2e-7 on the activations), picked at run time by cpu_features().
#include "kernels/epilogue.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <string>

#include "acl/acl_base.h"
#include "common/error.h"
#include "kernels/cpu_features.h"
#include "common/attrs.h"

#include "kernels/gemm_simd.h"

namespace acl_sim {

Activation activation_from_name(const char* name, bool* ok) {
  static const struct {
    const char* name;
    ActKind kind;
  } kNames[] = {{"", ActKind::kNone},           {"None", ActKind::kNone},        {"Relu", ActKind::kRelu},
                {"Clip", ActKind::kClip},       {"Sigmoid", ActKind::kSigmoid},  {"HardSigmoid", ActKind::kHardSigmoid},
                {"HardSwish", ActKind::kHardSwish}, {"Silu", ActKind::kSilu},    {"Gelu", ActKind::kGelu},
                {"GeluTanh", ActKind::kGeluTanh}, {"LeakyRelu", ActKind::kLeakyRelu}, {"Tanh", ActKind::kTanh}};
  Activation a;
  *ok = false;
  for (auto& e : kNames) {
    if (std::strcmp(e.name, name) == 0) {
      a.kind = e.kind;
      *ok = true;
      break;
    }
  }
  switch (a.kind) {  // ONNX defaults for the parameters
    case ActKind::kClip: a.alpha = -FLT_MAX; a.beta = FLT_MAX; break;
    case ActKind::kHardSigmoid: a.alpha = 0.2f; a.beta = 0.5f; break;
    case ActKind::kLeakyRelu: a.alpha = 0.01f; break;
    default: break;
  }
  return a;
}

Activation activation_from_attrs(const Attrs& attrs) {
  std::string name = attrs.get_string("activation", "");
  bool ok = false;
  Activation a = activation_from_name(name.c_str(), &ok);
  ACL_SIM_REQUIRE(ok, ACL_ERROR_OP_ATTR_NOT_MATCH, "unsupported fused activation '", name,
                  "' (supported: Relu, Clip, Sigmoid, HardSigmoid, HardSwish, Silu, Gelu, GeluTanh, LeakyRelu, Tanh)");
  if (attrs.has("activation_alpha")) a.alpha = static_cast<float>(attrs.get_float("activation_alpha", a.alpha));
  if (attrs.has("activation_beta")) a.beta = static_cast<float>(attrs.get_float("activation_beta", a.beta));
  if (attrs.has("activation_scale")) a.scale = static_cast<float>(attrs.get_float("activation_scale", 1.0));
  if (attrs.has("activation_shift")) a.shift = static_cast<float>(attrs.get_float("activation_shift", 0.0));
  return a;
}

namespace {

float act_only(float v, const Activation& act) {
  switch (act.kind) {
    case ActKind::kNone: return v;
    case ActKind::kRelu: return v > 0.f ? v : 0.f;
    case ActKind::kClip: return std::min(std::max(v, act.alpha), act.beta);
    case ActKind::kSigmoid: return 1.f / (1.f + std::exp(-v));
    case ActKind::kHardSigmoid: return std::min(1.f, std::max(0.f, act.alpha * v + act.beta));
    case ActKind::kHardSwish: return v * std::min(1.f, std::max(0.f, v / 6.f + 0.5f));
    case ActKind::kSilu: return v / (1.f + std::exp(-v));
    case ActKind::kGelu: return 0.5f * v * (1.f + std::erf(v * 0.70710678118654752f));
    case ActKind::kGeluTanh:
      return 0.5f * v * (1.f + std::tanh(0.7978845608028654f * (v + 0.044715f * v * v * v)));
    case ActKind::kLeakyRelu: return v >= 0.f ? v : act.alpha * v;
    case ActKind::kTanh: return std::tanh(v);
  }
  return v;
}

}  // namespace

float activation_scalar(float v, const Activation& act) {
  float r = act_only(v, act);
  return act.has_affine() ? r * act.scale + act.shift : r;
}

namespace {

void scalar_bias_act(float* x, size_t n, float bias, const float* bias_row, const float* res, const Activation& act) {
  for (size_t i = 0; i < n; ++i)
    x[i] = activation_scalar((res ? x[i] + res[i] : x[i]) + (bias_row ? bias_row[i] : bias), act);
}

#if defined(__x86_64__)
// The vector bodies are written once over the SIMD traits of gemm_simd.h and
// instantiated for AVX-512 (16 lanes) and AVX2 (8 lanes).
using simd::V16;
using simd::V8;

/** exp(x) for x clamped to [-87.3, 88.3]: range reduction by ln2 and a degree-6 polynomial. */
template <class V>
__attribute__((always_inline)) inline typename V::T vexp(typename V::T x) {
  using T = typename V::T;
  x = V::min(V::max(x, V::set1(-87.3f)), V::set1(88.3f));
  T n = V::round(V::mul(x, V::set1(1.44269504088896341f)));
  T r = V::fma(n, V::set1(-0.693359375f), x);
  r = V::fma(n, V::set1(2.12194440e-4f), r);
  T p = V::set1(1.9875691500e-4f);
  p = V::fma(p, r, V::set1(1.3981999507e-3f));
  p = V::fma(p, r, V::set1(8.3334519073e-3f));
  p = V::fma(p, r, V::set1(4.1665795894e-2f));
  p = V::fma(p, r, V::set1(1.6666665459e-1f));
  p = V::fma(p, r, V::set1(5.0000001201e-1f));
  p = V::fma(V::mul(p, r), r, V::add(r, V::set1(1.f)));
  return V::ldexp(p, n);
}

template <class V>
__attribute__((always_inline)) inline typename V::T vsigmoid(typename V::T x) {
  return V::div(V::set1(1.f), V::add(V::set1(1.f), vexp<V>(V::sub(V::set1(0.f), x))));
}

/** tanh via 1 - 2/(exp(2|x|)+1) with the sign restored; abs error < 2e-7. */
template <class V>
__attribute__((always_inline)) inline typename V::T vtanh(typename V::T x) {
  typename V::T e = vexp<V>(V::mul(V::abs(x), V::set1(2.f)));
  typename V::T t = V::sub(V::set1(1.f), V::div(V::set1(2.f), V::add(e, V::set1(1.f))));
  return V::copysign(t, x);
}

/** erf by Abramowitz & Stegun 7.1.26 (abs error <= 1.5e-7). */
template <class V>
__attribute__((always_inline)) inline typename V::T verf(typename V::T x) {
  using T = typename V::T;
  T a = V::abs(x);
  T t = V::div(V::set1(1.f), V::fma(a, V::set1(0.3275911f), V::set1(1.f)));
  T p = V::set1(1.061405429f);
  p = V::fma(p, t, V::set1(-1.453152027f));
  p = V::fma(p, t, V::set1(1.421413741f));
  p = V::fma(p, t, V::set1(-0.284496736f));
  p = V::fma(p, t, V::set1(0.254829592f));
  p = V::mul(p, t);
  T y = V::sub(V::set1(1.f), V::mul(p, vexp<V>(V::sub(V::set1(0.f), V::mul(a, a)))));
  return V::copysign(y, x);
}

template <class V>
__attribute__((always_inline)) inline typename V::T vact(typename V::T v, ActKind kind, typename V::T alpha,
                                                          typename V::T beta) {
  using T = typename V::T;
  switch (kind) {
    case ActKind::kNone: return v;
    case ActKind::kRelu: return V::max(v, V::set1(0.f));
    case ActKind::kClip: return V::min(V::max(v, alpha), beta);
    case ActKind::kSigmoid: return vsigmoid<V>(v);
    case ActKind::kHardSigmoid: return V::min(V::set1(1.f), V::max(V::set1(0.f), V::fma(alpha, v, beta)));
    case ActKind::kHardSwish:
      return V::mul(v, V::min(V::set1(1.f), V::max(V::set1(0.f), V::fma(v, V::set1(1.f / 6.f), V::set1(0.5f)))));
    case ActKind::kSilu: return V::mul(v, vsigmoid<V>(v));
    case ActKind::kGelu:
      return V::mul(V::mul(V::set1(0.5f), v), V::add(V::set1(1.f), verf<V>(V::mul(v, V::set1(0.70710678118654752f)))));
    case ActKind::kGeluTanh: {
      T inner = V::mul(V::set1(0.7978845608028654f), V::fma(V::mul(V::mul(v, v), v), V::set1(0.044715f), v));
      return V::mul(V::mul(V::set1(0.5f), v), V::add(V::set1(1.f), vtanh<V>(inner)));
    }
    case ActKind::kLeakyRelu: return V::select_ge0(v, v, V::mul(v, alpha));
    case ActKind::kTanh: return vtanh<V>(v);
  }
  return v;
}

template <class V>
__attribute__((always_inline)) inline void simd_bias_act(float* x, size_t n, float bias, const float* bias_row,
                                                         const float* res, const Activation& act) {
  using T = typename V::T;
  const T alpha = V::set1(act.alpha), beta = V::set1(act.beta), b = V::set1(bias);
  const T scale = V::set1(act.scale), shift = V::set1(act.shift);
  const bool affine = act.has_affine();
  size_t i = 0;
  for (; i + V::W <= n; i += V::W) {
    T v = res ? V::add(V::load(x + i), V::load(res + i)) : V::load(x + i);
    v = vact<V>(V::add(v, bias_row ? V::load(bias_row + i) : b), act.kind, alpha, beta);
    V::store(x + i, affine ? V::fma(v, scale, shift) : v);
  }
  if (i < n) {  // the tail goes through one padded vector so it matches the vector results bit for bit
    float buf[16] = {0};
    size_t rest = n - i;
    for (size_t j = 0; j < rest; ++j)
      buf[j] = (res ? x[i + j] + res[i + j] : x[i + j]) + (bias_row ? bias_row[i + j] : bias);
    T v = vact<V>(V::load(buf), act.kind, alpha, beta);
    V::store(buf, affine ? V::fma(v, scale, shift) : v);
    std::memcpy(x + i, buf, rest * sizeof(float));
  }
}

ACL_SIM_TARGET_AVX512 void avx512_bias_act(float* x, size_t n, float bias, const float* row, const float* res,
                                           const Activation& act) {
  simd_bias_act<V16>(x, n, bias, row, res, act);
}
ACL_SIM_TARGET_AVX2 void avx2_bias_act(float* x, size_t n, float bias, const float* row, const float* res,
                                       const Activation& act) {
  simd_bias_act<V8>(x, n, bias, row, res, act);
}
#endif

void dispatch(float* x, size_t n, float bias, const float* row, const float* res, const Activation& act) {
  if (act.none() && !row && !res && bias == 0.f) return;
#if defined(__x86_64__)
  switch (cpu_features().isa) {
    case KernelIsa::kAvx512: return avx512_bias_act(x, n, bias, row, res, act);
    case KernelIsa::kAvx2: return avx2_bias_act(x, n, bias, row, res, act);
    default: break;
  }
#endif
  scalar_bias_act(x, n, bias, row, res, act);
}

}  // namespace

void bias_activation(float* x, size_t n, float bias, const Activation& act) { dispatch(x, n, bias, nullptr, nullptr, act); }

void bias_row_activation(float* x, size_t n, const float* bias, const Activation& act) {
  dispatch(x, n, 0.f, bias, nullptr, act);
}

void residual_bias_activation(float* x, const float* res, size_t n, float bias, const Activation& act) {
  dispatch(x, n, bias, nullptr, res, act);
}

}  // namespace acl_sim
