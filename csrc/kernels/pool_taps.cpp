// Pooling row taps per ISA: see pool_taps.h.
#include "kernels/pool_taps.h"

#include <algorithm>
#include <limits>

#include "kernels/cpu_features.h"
#include "kernels/gemm_simd.h"
#include "kernels/thread_scratch.h"

namespace acl_sim {
namespace {

void taps_scalar(bool is_max, float* acc, const float* r, int64_t n, int64_t kw, int64_t dw, int64_t s) {
  for (int64_t t = 0; t < kw; ++t) {
    const float* p = r + t * dw;
    if (is_max) {
      for (int64_t i = 0; i < n; ++i) {
        const float v = p[i * s];
        acc[i] = v > acc[i] ? v : acc[i];
      }
    } else {
      for (int64_t i = 0; i < n; ++i) acc[i] += p[i * s];
    }
  }
}

#if defined(__x86_64__)
// max_ps(v, a) is v > a ? v : a, so a NaN tap leaves the accumulator as the scalar loop does.
ACL_SIM_TARGET_AVX512 void taps_avx512(bool is_max, float* acc, const float* r, int64_t n, int64_t kw, int64_t dw,
                                       int64_t s) {
  const __m512i evens = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
  for (int64_t i = 0; i < n; i += 16) {
    const int64_t m = std::min<int64_t>(16, n - i);
    const __mmask16 k = static_cast<__mmask16>((1u << m) - 1u);
    const bool whole = m == 16;  // unmasked loads and stores where whole: AMD's masked ones are slow
    __m512 a = whole ? _mm512_loadu_ps(acc + i) : _mm512_maskz_loadu_ps(k, acc + i);
    for (int64_t t = 0; t < kw; ++t) {
      const float* p = r + t * dw + i * s;
      __m512 v;
      if (s == 1) {
        v = whole ? _mm512_loadu_ps(p) : _mm512_maskz_loadu_ps(k, p);
      } else {
        // Elements 0, 2, ..., 2(m-1) of p: the last one read is p[2(m-1)], never past it.
        const int64_t need = 2 * (m - 1) + 1;
        const __mmask16 k0 = static_cast<__mmask16>(need >= 16 ? 0xffffu : (1u << need) - 1u);
        const __mmask16 k1 = static_cast<__mmask16>(need <= 16 ? 0u : (1u << (need - 16)) - 1u);
        v = _mm512_permutex2var_ps(_mm512_maskz_loadu_ps(k0, p), evens, _mm512_maskz_loadu_ps(k1, p + 16));
      }
      a = is_max ? _mm512_max_ps(v, a) : _mm512_add_ps(a, v);
    }
    if (whole) _mm512_storeu_ps(acc + i, a);
    else _mm512_mask_storeu_ps(acc + i, k, a);
  }
}

ACL_SIM_TARGET_AVX2 __m256i avx2_mask(int64_t m) {
  const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  return _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(m)), lane);
}


ACL_SIM_TARGET_AVX2 void taps_avx2(bool is_max, float* acc, const float* r, int64_t n, int64_t kw, int64_t dw,
                                   int64_t s) {
  for (int64_t i = 0; i < n; i += 8) {
    const int64_t m = std::min<int64_t>(8, n - i);
    const __m256i k = avx2_mask(m);
    const bool whole = m == 8;
    __m256 a = whole ? _mm256_loadu_ps(acc + i) : _mm256_maskload_ps(acc + i, k);
    for (int64_t t = 0; t < kw; ++t) {
      const float* p = r + t * dw + i * s;
      __m256 v;
      if (s == 1) {
        v = whole ? _mm256_loadu_ps(p) : _mm256_maskload_ps(p, k);
      } else {
        const int64_t need = 2 * (m - 1) + 1;
        const __m256 lo = _mm256_maskload_ps(p, avx2_mask(std::min<int64_t>(8, need)));
        const __m256 hi = _mm256_maskload_ps(p + 8, avx2_mask(need - 8));
        v = simd::V8::evens(lo, hi);
      }
      a = is_max ? _mm256_max_ps(v, a) : _mm256_add_ps(a, v);
    }
    if (whole) _mm256_storeu_ps(acc + i, a);
    else _mm256_maskstore_ps(acc + i, k, a);
  }
}

ACL_SIM_TARGET_AVX512 void max_3x3s2_avx512(const float* x, int64_t IH, int64_t IW, int64_t pt, int64_t pl, float* y,
                                            int64_t OH, int64_t OW, float* vm) {
  const __m512 ninf = _mm512_set1_ps(-std::numeric_limits<float>::infinity());
  const __m512i evens = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
  const __m512i odds = _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
  // vm[1 + c] = column c reduced over the window's rows; vm[0] and everything from vm[1 + IW] on is -inf.
  const int64_t width = 2 * OW + 2 + 32;
  for (int64_t c = 0; c < width; c += 16) _mm512_storeu_ps(vm + c, ninf);
  const int64_t base = 1 - pl;  // window j covers vm[base + 2j .. base + 2j + 2]
  for (int64_t oh = 0; oh < OH; ++oh) {
    const int64_t r0 = std::max<int64_t>(0, 2 * oh - pt), r1 = std::min<int64_t>(IH, 2 * oh - pt + 3);
    // Whole vectors with plain loads and stores, only the tail masked (max_3x3s2_avx2 measured 3x faster so).
    int64_t c = 0;
    for (; c + 16 <= IW; c += 16) {
      __m512 v = ninf;
      for (int64_t r = r0; r < r1; ++r) v = _mm512_max_ps(_mm512_loadu_ps(x + r * IW + c), v);
      _mm512_storeu_ps(vm + 1 + c, v);
    }
    if (c < IW) {
      const __mmask16 k = static_cast<__mmask16>((1u << (IW - c)) - 1u);
      __m512 v = ninf;
      for (int64_t r = r0; r < r1; ++r) v = _mm512_max_ps(_mm512_mask_loadu_ps(ninf, k, x + r * IW + c), v);
      _mm512_mask_storeu_ps(vm + 1 + c, k, v);
    }
    float* yrow = y + oh * OW;
    for (int64_t j = 0; j < OW; j += 16) {
      const float* p = vm + base + 2 * j;
      const __m512 a = _mm512_loadu_ps(p), b = _mm512_loadu_ps(p + 16);
      const __m512 c0 = _mm512_loadu_ps(p + 2), c1 = _mm512_loadu_ps(p + 18);
      const __m512 e = _mm512_permutex2var_ps(a, evens, b), o = _mm512_permutex2var_ps(a, odds, b);
      const __m512 e2 = _mm512_permutex2var_ps(c0, evens, c1);
      const __m512 out = _mm512_max_ps(_mm512_max_ps(e, o), e2);
      if (j + 16 <= OW) _mm512_storeu_ps(yrow + j, out);
      else _mm512_mask_storeu_ps(yrow + j, static_cast<__mmask16>((1u << (OW - j)) - 1u), out);
    }
  }
}

/** max_3x3s2_avx512 with 8 lanes. */
ACL_SIM_TARGET_AVX2 void max_3x3s2_avx2(const float* x, int64_t IH, int64_t IW, int64_t pt, int64_t pl, float* y,
                                        int64_t OH, int64_t OW, float* vm) {
  const __m256 ninf = _mm256_set1_ps(-std::numeric_limits<float>::infinity());
  const int64_t width = 2 * OW + 2 + 32;
  for (int64_t c = 0; c < width; c += 8) _mm256_storeu_ps(vm + c, ninf);
  const int64_t base = 1 - pl;
  for (int64_t oh = 0; oh < OH; ++oh) {
    const int64_t r0 = std::max<int64_t>(0, 2 * oh - pt), r1 = std::min<int64_t>(IH, 2 * oh - pt + 3);
    // Whole vectors with plain loads and stores, only the tail masked: resnet50's stem pool 444 -> 137-151 us.
    int64_t c = 0;
    for (; c + 8 <= IW; c += 8) {
      __m256 v = ninf;
      for (int64_t r = r0; r < r1; ++r) v = _mm256_max_ps(_mm256_loadu_ps(x + r * IW + c), v);
      _mm256_storeu_ps(vm + 1 + c, v);
    }
    if (c < IW) {
      const __m256i k = avx2_mask(IW - c);
      __m256 v = ninf;
      for (int64_t r = r0; r < r1; ++r)
        v = _mm256_max_ps(_mm256_blendv_ps(ninf, _mm256_maskload_ps(x + r * IW + c, k), _mm256_castsi256_ps(k)), v);
      _mm256_maskstore_ps(vm + 1 + c, k, v);
    }
    float* yrow = y + oh * OW;
    for (int64_t j = 0; j < OW; j += 8) {
      const float* p = vm + base + 2 * j;
      const __m256 a = _mm256_loadu_ps(p), b = _mm256_loadu_ps(p + 8);
      const __m256 e2 = simd::V8::evens(_mm256_loadu_ps(p + 2), _mm256_loadu_ps(p + 10));
      const __m256 out = _mm256_max_ps(_mm256_max_ps(simd::V8::evens(a, b), simd::V8::odds(a, b)), e2);
      if (j + 8 <= OW) _mm256_storeu_ps(yrow + j, out);
      else _mm256_maskstore_ps(yrow + j, avx2_mask(OW - j), out);
    }
  }
}
#endif

}  // namespace

bool max_pool_3x3s2_supported(int64_t pt, int64_t pl) {
#if defined(__x86_64__)
  const KernelIsa isa = cpu_features().isa;
  return (isa == KernelIsa::kAvx512 || isa == KernelIsa::kAvx2) && (pt == 0 || pt == 1) && (pl == 0 || pl == 1);
#else
  (void)pt, (void)pl;
  return false;
#endif
}

void max_pool_3x3s2_plane_f32(const float* x, int64_t IH, int64_t IW, int64_t pt, int64_t pl, float* y, int64_t OH,
                              int64_t OW) {
#if defined(__x86_64__)
  // The reduced row, padded: vm[0] and vm[1 + IW ..] stay -inf; the kernels read up to 2 * OW + 34 floats.
  thread_local Scratch<float> t_rows;
  float* vm = t_rows.get(static_cast<size_t>(std::max(IW + 1, 2 * OW + 34) + 16));
  if (cpu_features().isa == KernelIsa::kAvx512) max_3x3s2_avx512(x, IH, IW, pt, pl, y, OH, OW, vm);
  else max_3x3s2_avx2(x, IH, IW, pt, pl, y, OH, OW, vm);
#else
  (void)x, (void)IH, (void)IW, (void)pt, (void)pl, (void)y, (void)OH, (void)OW;
#endif
}

void pool_row_taps_f32(bool is_max, float* acc, const float* r, int64_t n, int64_t kw, int64_t dw, int64_t s) {
#if defined(__x86_64__)
  if (s <= 2) {
    switch (cpu_features().isa) {
      case KernelIsa::kAvx512: return taps_avx512(is_max, acc, r, n, kw, dw, s);
      case KernelIsa::kAvx2: return taps_avx2(is_max, acc, r, n, kw, dw, s);
      default: break;
    }
  }
#endif
  taps_scalar(is_max, acc, r, n, kw, dw, s);
}

// Sixteen independent partial sums / maxima: vectorisable without reassociation flags, and more accurate.
__attribute__((target_clones("avx512f", "avx2", "default"))) float plane_sum_f32(const float* x, int64_t n) {
  float part[16] = {0};
  int64_t i = 0;
  for (; i + 16 <= n; i += 16)
    for (int j = 0; j < 16; ++j) part[j] += x[i + j];
  float s = 0.f;
  for (int j = 0; j < 16; ++j) s += part[j];
  for (; i < n; ++i) s += x[i];
  return s;
}

__attribute__((target_clones("avx512f", "avx2", "default"))) float plane_max_f32(const float* x, int64_t n) {
  float part[16];
  for (int j = 0; j < 16; ++j) part[j] = -std::numeric_limits<float>::infinity();
  int64_t i = 0;
  for (; i + 16 <= n; i += 16)
    for (int j = 0; j < 16; ++j) part[j] = std::max(part[j], x[i + j]);
  float m = -std::numeric_limits<float>::infinity();
  for (int j = 0; j < 16; ++j) m = std::max(m, part[j]);
  for (; i < n; ++i) m = std::max(m, x[i]);
  return m;
}

}  // namespace acl_sim
