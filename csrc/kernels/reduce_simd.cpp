// Intrinsic max/min row reductions (reduce_simd.h).
#include "kernels/reduce_simd.h"

#include <limits>

#include "kernels/elementwise_common.h"

#if defined(ACL_SIM_MV_X86)
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

#if defined(ACL_SIM_MV_X86)
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
#if defined(ACL_SIM_MV_X86)
  switch (simd_level()) {
    case SimdLevel::Avx512: return extreme_avx512(x, n, init, want_min);
    case SimdLevel::Avx2: return extreme_avx2(x, n, init, want_min);
    default: break;
  }
#endif
  return finish_tail(x, 0, n, init, init != init, want_min);
}

}  // namespace acl_sim::kern
