// Intrinsic max/min row reductions (reduce_simd.h).
#include "kernels/reduce_simd.h"

#include <limits>

#include "kernels/elementwise_common.h"

#if defined(ACL_SIM_ISA_X86)
#include <immintrin.h>
#endif

namespace acl_sim::kern {
namespace {

float finish_tail(const float* x, int64_t i, int64_t n, float m, bool nan, bool want_min) {
  for (; i < n; ++i) {
    float v = x[i];
    nan |= v != v;
    m = want_min ? (v < m ? v : m) : (v > m ? v : m);
  }
  return nan ? std::numeric_limits<float>::quiet_NaN() : m;
}

#if defined(ACL_SIM_ISA_X86)
// e^d for d <= 0: d clamped at the underflow bound (a NaN passes: max returns its second operand), n = round(d /
// ln2), the Cephes reduction and polynomial of elementwise_math.h's vexp, then p * 2^n; values whose d is below
// the bound become 0 (the compare is false for NaN, which stays).
constexpr float kExpLo = -87.3365f;

ACL_SIM_TARGET_AVX512 inline __m512 exp_le0_avx512(__m512 d) {
  const __m512 xc = _mm512_max_ps(_mm512_set1_ps(kExpLo), d);
  const __m512 n = _mm512_roundscale_ps(_mm512_mul_ps(xc, _mm512_set1_ps(1.44269504088896341f)),
                                        _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m512 r = _mm512_fmadd_ps(n, _mm512_set1_ps(-0.693359375f), xc);
  r = _mm512_fmadd_ps(n, _mm512_set1_ps(2.12194440e-4f), r);
  __m512 p = _mm512_set1_ps(1.9875691500E-4f);
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.3981999507E-3f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(8.3334519073E-3f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(4.1665795894E-2f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.6666665459E-1f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(5.0000001201E-1f));
  p = _mm512_fmadd_ps(_mm512_mul_ps(p, r), r, _mm512_add_ps(r, _mm512_set1_ps(1.f)));
  const __mmask16 keep = _mm512_cmp_ps_mask(d, _mm512_set1_ps(kExpLo), _CMP_NLT_UQ);
  return _mm512_maskz_mov_ps(keep, _mm512_scalef_ps(p, n));
}

ACL_SIM_TARGET_AVX512 float exp_shifted_avx512(const float* x, float* y, int64_t n, float shift) {
  const __m512 m = _mm512_set1_ps(shift);
  __m512 s0 = _mm512_setzero_ps(), s1 = s0;
  int64_t i = 0;
  for (; i + 32 <= n; i += 32) {
    const __m512 e0 = exp_le0_avx512(_mm512_sub_ps(_mm512_loadu_ps(x + i), m));
    const __m512 e1 = exp_le0_avx512(_mm512_sub_ps(_mm512_loadu_ps(x + i + 16), m));
    _mm512_storeu_ps(y + i, e0);
    _mm512_storeu_ps(y + i + 16, e1);
    s0 = _mm512_add_ps(s0, e0);
    s1 = _mm512_add_ps(s1, e1);
  }
  if (i < n) {  // the tail under a mask: no scalar loop, whose sum order would differ per width
    for (; i < n; i += 16) {
      const __mmask16 k = n - i >= 16 ? static_cast<__mmask16>(0xffff) : static_cast<__mmask16>((1u << (n - i)) - 1u);
      const __m512 e = _mm512_maskz_mov_ps(k, exp_le0_avx512(_mm512_sub_ps(_mm512_maskz_loadu_ps(k, x + i), m)));
      _mm512_mask_storeu_ps(y + i, k, e);
      s0 = _mm512_add_ps(s0, e);
    }
  }
  return _mm512_reduce_add_ps(_mm512_add_ps(s0, s1));
}

ACL_SIM_TARGET_AVX512 float extreme_avx512(const float* x, int64_t n, float init, bool want_min) {
  __m512 a0 = _mm512_set1_ps(init), a1 = a0;
  __mmask16 nan0 = 0, nan1 = 0;
  int64_t i = 0;
  for (; i + 32 <= n; i += 32) {
    __m512 v0 = _mm512_loadu_ps(x + i), v1 = _mm512_loadu_ps(x + i + 16);
    nan0 |= _mm512_cmp_ps_mask(v0, v0, _CMP_UNORD_Q);
    nan1 |= _mm512_cmp_ps_mask(v1, v1, _CMP_UNORD_Q);
    a0 = want_min ? _mm512_min_ps(a0, v0) : _mm512_max_ps(a0, v0);
    a1 = want_min ? _mm512_min_ps(a1, v1) : _mm512_max_ps(a1, v1);
  }
  a0 = want_min ? _mm512_min_ps(a0, a1) : _mm512_max_ps(a0, a1);
  float m = want_min ? _mm512_reduce_min_ps(a0) : _mm512_reduce_max_ps(a0);
  return finish_tail(x, i, n, m, (nan0 | nan1) != 0, want_min);
}

ACL_SIM_TARGET_AVX2 float extreme_avx2(const float* x, int64_t n, float init, bool want_min) {
  __m256 a0 = _mm256_set1_ps(init), a1 = a0, nan = _mm256_setzero_ps();
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    __m256 v0 = _mm256_loadu_ps(x + i), v1 = _mm256_loadu_ps(x + i + 8);
    nan = _mm256_or_ps(nan, _mm256_or_ps(_mm256_cmp_ps(v0, v0, _CMP_UNORD_Q), _mm256_cmp_ps(v1, v1, _CMP_UNORD_Q)));
    a0 = want_min ? _mm256_min_ps(a0, v0) : _mm256_max_ps(a0, v0);
    a1 = want_min ? _mm256_min_ps(a1, v1) : _mm256_max_ps(a1, v1);
  }
  a0 = want_min ? _mm256_min_ps(a0, a1) : _mm256_max_ps(a0, a1);
  alignas(32) float lanes[8];
  _mm256_store_ps(lanes, a0);
  float m = init;
  for (float l : lanes) m = want_min ? (l < m ? l : m) : (l > m ? l : m);
  return finish_tail(x, i, n, m, _mm256_movemask_ps(nan) != 0, want_min);
}
#endif

}  // namespace

float row_extreme_f32(const float* x, int64_t n, float init, bool want_min) {
#if defined(ACL_SIM_ISA_X86)
  switch (cpu_features().isa) {
    case KernelIsa::kAvx512: return extreme_avx512(x, n, init, want_min);
    case KernelIsa::kAvx2: return extreme_avx2(x, n, init, want_min);
    default: break;
  }
#endif
  return finish_tail(x, 0, n, init, init != init, want_min);
}

bool row_exp_shifted_f32(const float* x, float* y, int64_t n, float shift, float* sum) {
#if defined(ACL_SIM_ISA_X86)
  if (cpu_features().isa == KernelIsa::kAvx512) {
    *sum = exp_shifted_avx512(x, y, n, shift);
    return true;
  }
#endif
  (void)x, (void)y, (void)n, (void)shift, (void)sum;
  return false;
}

}  // namespace acl_sim::kern
