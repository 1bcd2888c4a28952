// Packed-weight strip kernels of the direct conv: see conv_direct_packed.h.
#include "kernels/conv_direct_packed.h"

#include "common/fp16.h"

#include <cstring>

#include "kernels/cpu_features.h"
#include "kernels/gemm_simd.h"

namespace acl_sim {
namespace {

#if defined(__x86_64__)
// A value of B for the folded columns: float, or binary16 widened (an fp16 input read in place).
ACL_SIM_TARGET_AVX512 __attribute__((always_inline)) inline float b_value(const float* p) { return *p; }
ACL_SIM_TARGET_AVX512 __attribute__((always_inline)) inline float b_value(const uint16_t* p) { return _cvtsh_ss(*p); }

template <int E, class BT = float>
ACL_SIM_TARGET_AVX512 void strip_avx512(int64_t kc, const float* ap, const float* next, const BT* b,
                                        const int64_t* off, float* c, int64_t ldc, int m_valid, bool accumulate,
                                        const DirectStripEpilogue* ep) {
  constexpr int MR = 8, NV = 3, W = 16;
  __m512 acc[MR][NV];
#pragma GCC unroll 8
  for (int i = 0; i < MR; ++i)
#pragma GCC unroll 3
    for (int j = 0; j < NV; ++j) acc[i][j] = _mm512_setzero_ps();
  __m256 extra[E > 0 ? E : 1];  // column 48 + e over the 8 rows
#pragma GCC unroll 2
  for (int e = 0; e < E; ++e) extra[e] = _mm256_setzero_ps();
#pragma GCC unroll 2
  for (int64_t k = 0; k < kc; ++k) {
    const BT* bk = b + off[k];
    const float* ak = ap + k * MR;
    // One line of the next panel's slice per two k: it arrives from DRAM while this panel computes.
    if (next && (k & 1) == 0) _mm_prefetch(reinterpret_cast<const char*>(next + k * MR), _MM_HINT_T0);
    __m512 bv[NV];
#pragma GCC unroll 3
    for (int j = 0; j < NV; ++j) bv[j] = simd::load_elems<simd::V16>(bk + j * W);
#pragma GCC unroll 8
    for (int i = 0; i < MR; ++i) {
      const __m512 av = _mm512_set1_ps(ak[i]);
#pragma GCC unroll 3
      for (int j = 0; j < NV; ++j) acc[i][j] = _mm512_fmadd_ps(av, bv[j], acc[i][j]);
    }
    if constexpr (E > 0) {
      const __m256 wv = _mm256_loadu_ps(ak);
#pragma GCC unroll 2
      for (int e = 0; e < E; ++e) extra[e] = _mm256_fmadd_ps(wv, _mm256_set1_ps(b_value(bk + NV * W + e)), extra[e]);
    }
  }
  alignas(32) float ex[E > 0 ? E : 1][MR];
#pragma GCC unroll 2
  for (int e = 0; e < E; ++e) _mm256_store_ps(ex[e], extra[e]);
  const __m512 zero = _mm512_setzero_ps();
#pragma GCC unroll 8
  for (int i = 0; i < MR; ++i) {
    if (i >= m_valid) break;
    float* row = c + i * ldc;
    const float bias = ep && ep->bias ? ep->bias[i] : 0.f;
    const float* res = ep && ep->residual ? ep->residual + i * ep->ldr : nullptr;
    uint16_t* hrow = ep && ep->half ? ep->half + i * ldc : nullptr;
#pragma GCC unroll 3
    for (int j = 0; j < NV; ++j) {
      __m512 v = acc[i][j];
      if (accumulate) v = _mm512_add_ps(v, _mm512_loadu_ps(row + j * W));
      if (ep) {
        v = _mm512_add_ps(v, _mm512_set1_ps(bias));
        if (res) v = _mm512_add_ps(v, _mm512_loadu_ps(res + j * W));
        if (ep->relu) v = _mm512_max_ps(v, zero);
      }
      if (hrow)
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(hrow + j * W),
                            _mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
      else
        _mm512_storeu_ps(row + j * W, v);
    }
#pragma GCC unroll 2
    for (int e = 0; e < E; ++e) {
      float v = accumulate ? row[NV * W + e] + ex[e][i] : ex[e][i];
      if (ep) {
        v += bias + (res ? res[NV * W + e] : 0.f);
        if (ep->relu) v = v > 0.f ? v : 0.f;
      }
      if (hrow) hrow[NV * W + e] = float_to_half(v);
      else row[NV * W + e] = v;
    }
  }
}
#endif

}  // namespace

bool direct_packed_available() {
#if defined(__x86_64__)
  return cpu_features().isa == KernelIsa::kAvx512;
#else
  return false;
#endif
}

int64_t direct_packed_size(int64_t m_rows, int64_t k) {
  return (m_rows + kDirectPanelRows - 1) / kDirectPanelRows * kDirectPanelRows * k;
}

void direct_pack_weights(const float* w, int64_t m_rows, int64_t k, float* dst) {
  const int64_t panels = (m_rows + kDirectPanelRows - 1) / kDirectPanelRows;
  for (int64_t p = 0; p < panels; ++p) {
    float* panel = dst + p * k * kDirectPanelRows;
    for (int64_t i = 0; i < kDirectPanelRows; ++i) {
      const int64_t m = p * kDirectPanelRows + i;
      for (int64_t kk = 0; kk < k; ++kk) panel[kk * kDirectPanelRows + i] = m < m_rows ? w[m * k + kk] : 0.f;
    }
  }
}

DirectPackedStripFn direct_packed_strip_kernel(int64_t extra) {
#if defined(__x86_64__)
  switch (extra) {
    case 0: return strip_avx512<0>;
    case 1: return strip_avx512<1>;
    case 2: return strip_avx512<2>;
    default: break;
  }
#endif
  (void)extra;
  return nullptr;
}

DirectPackedStripHalfBFn direct_packed_strip_kernel_half_b(int64_t extra) {
#if defined(__x86_64__)
  switch (extra) {
    case 0: return strip_avx512<0, uint16_t>;
    case 1: return strip_avx512<1, uint16_t>;
    case 2: return strip_avx512<2, uint16_t>;
    default: break;
  }
#endif
  (void)extra;
  return nullptr;
}

}  // namespace acl_sim
