// The direct conv's micro-kernels (conv_direct_kernels.h): AVX-512 (8 rows x up to 3 zmm vectors, an 8 x 8 ymm
// tail), AVX2 (4 rows x up to 3 ymm vectors) and the portable loops the SIMD kernels are tested against.
#include "kernels/conv_direct_kernels.h"

#include <algorithm>
#include <cstring>

#include "common/fp16.h"
#include "kernels/cpu_features.h"
#include "kernels/gemm_simd.h"

namespace acl_sim {
namespace {

#if defined(__x86_64__)
/**
 * The last-slice store of a strip going out as binary16 (DirectStripEpilogue::half), in the kernels' order
 * (+ residual, + bias, Relu), in a branch of its own so that the float stores compile as they did.
 */
template <int MR, int NV>
ACL_SIM_TARGET_AVX512 __attribute__((always_inline)) inline void store_half_avx512(const __m512 (&acc)[MR][NV],
                                                                                  const float* c, int64_t ldc,
                                                                                  int m_valid, int n_valid,
                                                                                  bool accumulate,
                                                                                  const DirectStripEpilogue* ep) {
  constexpr int W = 16;
#pragma GCC unroll 8
  for (int i = 0; i < MR; ++i) {
    if (i >= m_valid) break;
    const float* row = c + i * ldc;
    const float* res = ep->residual ? ep->residual + i * ep->ldr : nullptr;
    const __m512 bias = _mm512_set1_ps(ep->bias ? ep->bias[i] : 0.f);
#pragma GCC unroll 4
    for (int j = 0; j < NV; ++j) {
      const int n = n_valid - j * W;
      if (n <= 0) break;
      const __mmask16 m = n >= W ? static_cast<__mmask16>(0xffff) : static_cast<__mmask16>((1u << n) - 1u);
      __m512 v = acc[i][j];
      if (accumulate) v = _mm512_add_ps(v, _mm512_maskz_loadu_ps(m, row + j * W));
      if (res) v = _mm512_add_ps(v, _mm512_maskz_loadu_ps(m, res + j * W));
      v = _mm512_add_ps(v, bias);
      if (ep->relu) v = _mm512_max_ps(v, _mm512_setzero_ps());
      _mm256_mask_storeu_epi16(ep->half + i * ldc + j * W, m,
                               _mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
    }
  }
}

template <int MR, int NV>
ACL_SIM_TARGET_AVX2 __attribute__((always_inline)) inline void store_half_avx2(const __m256 (&acc)[MR][NV],
                                                                              const float* c, int64_t ldc,
                                                                              int m_valid, int n_valid,
                                                                              bool accumulate,
                                                                              const DirectStripEpilogue* ep) {
  constexpr int W = 8;
#pragma GCC unroll 8
  for (int i = 0; i < MR; ++i) {
    if (i >= m_valid) break;
    const float* row = c + i * ldc;
    const float* res = ep->residual ? ep->residual + i * ep->ldr : nullptr;
    const __m256 bias = _mm256_set1_ps(ep->bias ? ep->bias[i] : 0.f);
    uint16_t* hrow = ep->half + i * ldc;
#pragma GCC unroll 4
    for (int j = 0; j < NV; ++j) {
      const int n = std::min(W, n_valid - j * W);
      if (n <= 0) break;
      const __m256i m = simd::V8::mask(n);
      __m256 v = acc[i][j];
      if (accumulate) v = _mm256_add_ps(v, n == W ? _mm256_loadu_ps(row + j * W) : _mm256_maskload_ps(row + j * W, m));
      if (res) v = _mm256_add_ps(v, n == W ? _mm256_loadu_ps(res + j * W) : _mm256_maskload_ps(res + j * W, m));
      v = _mm256_add_ps(v, bias);
      if (ep->relu) v = _mm256_max_ps(v, _mm256_setzero_ps());
      if (n == W)
        _mm_storeu_si128(reinterpret_cast<__m128i*>(hrow + j * W), _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT));
      else
        simd::V8::store_half_n(hrow + j * W, v, n);
    }
  }
}

// A masked vector of B's row: float, or binary16 widened as it is loaded (an fp16 input read in place); whole
// vectors load through simd::load_elems.
ACL_SIM_TARGET_AVX512 __attribute__((always_inline)) inline __m512 load_b(const float* p, __mmask16 m) {
  return _mm512_maskz_loadu_ps(m, p);
}
ACL_SIM_TARGET_AVX512 __attribute__((always_inline)) inline __m512 load_b(const uint16_t* p, __mmask16 m) {
  return _mm512_cvtph_ps(_mm256_maskz_loadu_epi16(m, p));
}

template <int MR, int NV, bool kMasked, class BT = float>
ACL_SIM_TARGET_AVX512 void kernel_avx512(int64_t kc, const float* a, int64_t lda, const BT* b, const int64_t* off,
                                         float* c, int64_t ldc, int m_valid, int n_valid, bool accumulate,
                                         const DirectStripEpilogue* ep) {
  constexpr int W = 16;
  __m512 acc[MR][NV];
#pragma GCC unroll 8
  for (int i = 0; i < MR; ++i)
#pragma GCC unroll 4
    for (int j = 0; j < NV; ++j) acc[i][j] = _mm512_setzero_ps();
  const float* rows[MR];
#pragma GCC unroll 8
  for (int i = 0; i < MR; ++i) rows[i] = a + (i < m_valid ? i : m_valid - 1) * lda;
  __mmask16 mask[NV];
#pragma GCC unroll 4
  for (int j = 0; j < NV; ++j) {
    const int n = n_valid - j * W;
    mask[j] = n >= W ? static_cast<__mmask16>(0xffff) : n <= 0 ? 0 : static_cast<__mmask16>((1u << n) - 1u);
  }
#pragma GCC unroll 2
  for (int64_t k = 0; k < kc; ++k) {
    const BT* bk = b + off[k];
    __m512 bv[NV];
#pragma GCC unroll 4
    for (int j = 0; j < NV; ++j) bv[j] = kMasked ? load_b(bk + j * W, mask[j]) : simd::load_elems<simd::V16>(bk + j * W);
#pragma GCC unroll 8
    for (int i = 0; i < MR; ++i) {
      const __m512 av = _mm512_set1_ps(rows[i][k]);
#pragma GCC unroll 4
      for (int j = 0; j < NV; ++j) acc[i][j] = _mm512_fmadd_ps(av, bv[j], acc[i][j]);
    }
  }
  if (__builtin_expect(ep && ep->half, 0)) {
    store_half_avx512<MR, NV>(acc, c, ldc, m_valid, n_valid, accumulate, ep);
    return;
  }
#pragma GCC unroll 8
  for (int i = 0; i < MR; ++i) {
    if (i >= m_valid) break;
    float* row = c + i * ldc;
    const float* res = ep && ep->residual ? ep->residual + i * ep->ldr : nullptr;
    const __m512 bias = _mm512_set1_ps(ep && ep->bias ? ep->bias[i] : 0.f);
#pragma GCC unroll 4
    for (int j = 0; j < NV; ++j) {
      __m512 v = acc[i][j];
      const bool whole = !kMasked || mask[j] == 0xffff;  // unmasked where whole: AMD's masked stores are slow
      if (accumulate)
        v = _mm512_add_ps(v, whole ? _mm512_loadu_ps(row + j * W) : _mm512_maskz_loadu_ps(mask[j], row + j * W));
      if (ep) {
        if (res)
          v = _mm512_add_ps(v, whole ? _mm512_loadu_ps(res + j * W) : _mm512_maskz_loadu_ps(mask[j], res + j * W));
        v = _mm512_add_ps(v, bias);
        if (ep->relu) v = _mm512_max_ps(v, _mm512_setzero_ps());
      }
      if (whole)
        _mm512_storeu_ps(row + j * W, v);
      else
        _mm512_mask_storeu_ps(row + j * W, mask[j], v);
    }
  }
}

template <int MR, int NV, bool kMasked>
ACL_SIM_TARGET_AVX2 void kernel_avx2(int64_t kc, const float* a, int64_t lda, const float* b, const int64_t* off,
                                     float* c, int64_t ldc, int m_valid, int n_valid, bool accumulate,
                                     const DirectStripEpilogue* ep) {
  constexpr int W = 8;
  __m256 acc[MR][NV];
#pragma GCC unroll 8
  for (int i = 0; i < MR; ++i)
#pragma GCC unroll 4
    for (int j = 0; j < NV; ++j) acc[i][j] = _mm256_setzero_ps();
  const float* rows[MR];
#pragma GCC unroll 8
  for (int i = 0; i < MR; ++i) rows[i] = a + (i < m_valid ? i : m_valid - 1) * lda;
  // Only the masked kernels (n_valid < NV * W) need masks. Built in every call, they were spilled to the stack
  // while the store queue still held the previous strip's missed stores (the 3x3/2 stem's kernel, caches
  // flushed, 0.84x the time without them).
  __m256i mask[NV];
#pragma GCC unroll 4
  for (int j = 0; j < NV; ++j) mask[j] = kMasked ? simd::V8::mask(n_valid - j * W) : _mm256_set1_epi32(-1);
  int64_t k = 0;
  if constexpr (MR * NV < 8) {
    // Too few accumulators to cover the FMA latency (the 4x8 edge strip): a second set takes odd k.
    __m256 acc2[MR][NV];
#pragma GCC unroll 8
    for (int i = 0; i < MR; ++i)
#pragma GCC unroll 4
      for (int j = 0; j < NV; ++j) acc2[i][j] = _mm256_setzero_ps();
    for (; k + 2 <= kc; k += 2) {
      const float* b0 = b + off[k];
      const float* b1 = b + off[k + 1];
#pragma GCC unroll 4
      for (int j = 0; j < NV; ++j) {
        const __m256 v0 = kMasked ? _mm256_maskload_ps(b0 + j * W, mask[j]) : _mm256_loadu_ps(b0 + j * W);
        const __m256 v1 = kMasked ? _mm256_maskload_ps(b1 + j * W, mask[j]) : _mm256_loadu_ps(b1 + j * W);
#pragma GCC unroll 8
        for (int i = 0; i < MR; ++i) {
          acc[i][j] = _mm256_fmadd_ps(_mm256_broadcast_ss(rows[i] + k), v0, acc[i][j]);
          acc2[i][j] = _mm256_fmadd_ps(_mm256_broadcast_ss(rows[i] + k + 1), v1, acc2[i][j]);
        }
      }
    }
#pragma GCC unroll 8
    for (int i = 0; i < MR; ++i)
#pragma GCC unroll 4
      for (int j = 0; j < NV; ++j) acc[i][j] = _mm256_add_ps(acc[i][j], acc2[i][j]);
  }
#pragma GCC unroll 2
  for (; k < kc; ++k) {
    const float* bk = b + off[k];
    __m256 bv[NV];
#pragma GCC unroll 4
    for (int j = 0; j < NV; ++j) bv[j] = kMasked ? _mm256_maskload_ps(bk + j * W, mask[j]) : _mm256_loadu_ps(bk + j * W);
#pragma GCC unroll 8
    for (int i = 0; i < MR; ++i) {
      const __m256 av = _mm256_broadcast_ss(rows[i] + k);
#pragma GCC unroll 4
      for (int j = 0; j < NV; ++j) acc[i][j] = _mm256_fmadd_ps(av, bv[j], acc[i][j]);
    }
  }
  if (__builtin_expect(ep && ep->half, 0)) {
    store_half_avx2<MR, NV>(acc, c, ldc, m_valid, n_valid, accumulate, ep);
    return;
  }
#pragma GCC unroll 8
  for (int i = 0; i < MR; ++i) {
    if (i >= m_valid) break;
    float* row = c + i * ldc;
    const float* res = ep && ep->residual ? ep->residual + i * ep->ldr : nullptr;
    const __m256 bias = _mm256_set1_ps(ep && ep->bias ? ep->bias[i] : 0.f);
#pragma GCC unroll 4
    for (int j = 0; j < NV; ++j) {
      const int n = kMasked ? n_valid - j * W : W;
      if (n <= 0) break;
      const bool whole = n >= W;
      __m256 v = acc[i][j];
      if (accumulate)
        v = _mm256_add_ps(v, whole ? _mm256_loadu_ps(row + j * W) : _mm256_maskload_ps(row + j * W, mask[j]));
      if (ep) {
        if (res) v = _mm256_add_ps(v, whole ? _mm256_loadu_ps(res + j * W) : _mm256_maskload_ps(res + j * W, mask[j]));
        v = _mm256_add_ps(v, bias);
        if (ep->relu) v = _mm256_max_ps(v, _mm256_setzero_ps());
      }
      if (whole)
        _mm256_storeu_ps(row + j * W, v);
      else
        _mm256_maskstore_ps(row + j * W, mask[j], v);
    }
  }
}
#endif

/** Portable path (also the reference the SIMD kernels are tested against through the op). */
template <int MR, int NR, bool kMasked>
void kernel_scalar(int64_t kc, const float* a, int64_t lda, const float* b, const int64_t* off, float* c, int64_t ldc,
                   int m_valid, int n_valid, bool accumulate, const DirectStripEpilogue* ep) {
  float acc[MR][NR] = {};
  for (int64_t k = 0; k < kc; ++k) {
    const float* bk = b + off[k];
    for (int i = 0; i < MR; ++i) {
      const float av = a[(i < m_valid ? i : m_valid - 1) * lda + k];
      for (int j = 0; j < n_valid; ++j) acc[i][j] += av * bk[j];
    }
  }
  for (int i = 0; i < m_valid; ++i)
    for (int j = 0; j < n_valid; ++j) {
      float v = accumulate ? c[i * ldc + j] + acc[i][j] : acc[i][j];
      if (ep) {
        if (ep->residual) v += ep->residual[i * ep->ldr + j];
        v += ep->bias ? ep->bias[i] : 0.f;
        if (ep->relu) v = v > 0.f ? v : 0.f;
      }
      if (ep && ep->half) ep->half[i * ldc + j] = float_to_half(v);
      else c[i * ldc + j] = v;
    }
}

ConvKernels make_kernels() {
#if defined(__x86_64__)
  switch (cpu_features().isa) {
    case KernelIsa::kAvx512:
      return {8, 16, 3,
              {{kernel_avx512<8, 1, false>, kernel_avx512<8, 1, true>},
               {kernel_avx512<8, 2, false>, kernel_avx512<8, 2, true>},
               {kernel_avx512<8, 3, false>, kernel_avx512<8, 3, true>}},
              8, {kernel_avx2<8, 1, false>, kernel_avx2<8, 1, true>},
              {{kernel_avx512<8, 1, false, uint16_t>, kernel_avx512<8, 1, true, uint16_t>},
               {kernel_avx512<8, 2, false, uint16_t>, kernel_avx512<8, 2, true, uint16_t>},
               {kernel_avx512<8, 3, false, uint16_t>, kernel_avx512<8, 3, true, uint16_t>}}};
    case KernelIsa::kAvx2:
      return {4, 8, 3,
              {{kernel_avx2<4, 1, false>, kernel_avx2<4, 1, true>},
               {kernel_avx2<4, 2, false>, kernel_avx2<4, 2, true>},
               {kernel_avx2<4, 3, false>, kernel_avx2<4, 3, true>}},
              0, {nullptr, nullptr}, {}};
    default: break;
  }
#endif
  return {4, 8, 1, {{kernel_scalar<4, 8, false>, kernel_scalar<4, 8, true>}, {nullptr, nullptr}, {nullptr, nullptr}},
          0, {nullptr, nullptr}, {}};
}

}  // namespace

const ConvKernels& direct_conv_kernels() {
  static const ConvKernels k = make_kernels();
  return k;
}

}  // namespace acl_sim
