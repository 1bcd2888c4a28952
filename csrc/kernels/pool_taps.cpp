// Pooling row taps per ISA: see pool_taps.h.
#include "kernels/pool_taps.h"

#include <algorithm>
#include <cstring>
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

/**
 * Stores v as output columns [j, j + W) of row oh of a rows x cols plane: a whole vector wherever its spill stays
 * inside the plane, since it lands in later rows, which are written after it; masked to the row's last columns only
 * where it would pass the plane's end (AMD's masked stores are slow: on 14-column rows one store in two was).
 */
template <class V, class E>
__attribute__((always_inline)) inline void store_plane_row(E* y, int64_t oh, int64_t j, int64_t rows, int64_t cols,
                                                           typename V::T v) {
  E* dst = y + oh * cols + j;
  if (oh * cols + j + V::W <= rows * cols) simd::store_elems<V>(dst, v);
  else simd::store_elems_n<V>(dst, v, static_cast<int>(cols - j));
}

/**
 * Max- or AveragePool 3x3 stride 2 over one plane: each output row first reduces its three input rows into vm
 * (max, or sum), then reduces columns 2j, 2j + 1, 2j + 2 as evens/odds of vector pairs; the average is scaled by
 * inv_counts (one per output). Whole vectors use plain loads and stores, only the output tail is masked (AMD's
 * masked loads and stores are slow: resnet50's stem pool on AVX2 went 444 -> 137-151 us so), and the input
 * columns past the last whole vector are one more vector per row.
 */
template <class V, bool kMax, class E>
__attribute__((always_inline)) inline void pool_3x3s2_simd(const E* x, int64_t IH, int64_t IW, int64_t pt,
                                                           int64_t pl, E* y, int64_t OH, int64_t OW,
                                                           const float* inv_counts, float* vm) {
  using T = typename V::T;
  constexpr int W = V::W;
  constexpr float kFill = kMax ? -std::numeric_limits<float>::infinity() : 0.f;
  const T fill = V::set1(kFill);
  // vm[1 + c] = column c reduced over the window's rows; vm[0] and everything from vm[1 + IW] on is the fill.
  const int64_t width = 2 * OW + 2 + 32;
  for (int64_t c = 0; c < width; c += W) V::store(vm + c, fill);
  const int64_t base = 1 - pl;  // window j covers vm[base + 2j .. base + 2j + 2]
  for (int64_t oh = 0; oh < OH; ++oh) {
    const int64_t r0 = std::max<int64_t>(0, 2 * oh - pt), r1 = std::min<int64_t>(IH, 2 * oh - pt + 3);
    int64_t c = 0;
    for (; c + W <= IW; c += W) {
      T v = fill;
      for (int64_t r = r0; r < r1; ++r) {
        const T t = simd::load_elems<V>(x + r * IW + c);
        v = kMax ? V::max(t, v) : V::add(v, t);
      }
      V::store(vm + 1 + c, v);
    }
    if (c < IW) {
      // The last IW - c columns as one vector: whole loads run on into the next row, a masked one where that
      // would pass the plane's end; the lanes past the row are then overwritten with the fill. (Scalar, they
      // were most of the work on 7x7 and 14x14 planes: shufflenet's 1x960x7x7 AveragePool 1.45x onnxruntime's
      // time.)
      const int n = static_cast<int>(IW - c);
      T v = fill;
      for (int64_t r = r0; r < r1; ++r) {
        const E* p = x + r * IW + c;
        const T t = (r + 1) * IW + W - n <= IH * IW ? simd::load_elems<V>(p) : simd::load_elems_n<V>(p, n);
        v = kMax ? V::max(t, v) : V::add(v, t);
      }
      V::store(vm + 1 + c, v);
      V::store(vm + 1 + IW, fill);
    }
    for (int64_t j = 0; j < OW; j += W) {
      const float* p = vm + base + 2 * j;
      const T a = V::load(p), b = V::load(p + W);
      const T e2 = V::evens(V::load(p + 2), V::load(p + W + 2));
      T out;
      if constexpr (kMax) {
        out = V::max(V::max(V::evens(a, b), V::odds(a, b)), e2);
      } else {
        // The scale's last vector may run past this row's counts, into the next row's or the array's padding.
        out = V::mul(V::add(V::add(V::evens(a, b), V::odds(a, b)), e2), V::load(inv_counts + oh * OW + j));
      }
      store_plane_row<V, E>(y, oh, j, OH, OW, out);
    }
  }
}

/**
 * AveragePool 2x2 stride 2 over one plane whose windows all lie inside it: each output is the two input rows'
 * even and odd columns summed in the generic row path's order (row 0's taps, then row 1's), times 1/4.
 */
template <class V>
__attribute__((always_inline)) inline void avg_2x2s2_simd(const float* x, int64_t IW, float* y, int64_t OH,
                                                          int64_t OW) {
  using T = typename V::T;
  constexpr int W = V::W;
  const T quarter = V::set1(0.25f);
  for (int64_t oh = 0; oh < OH; ++oh) {
    const float* r0 = x + 2 * oh * IW;
    const float* r1 = r0 + IW;
    float* yrow = y + oh * OW;
    int64_t j = 0;
    for (; j + W <= OW; j += W) {  // reads columns 2j .. 2j + 2W - 1 <= 2 OW - 1 < IW
      const T a0 = V::load(r0 + 2 * j), a1 = V::load(r0 + 2 * j + W);
      const T b0 = V::load(r1 + 2 * j), b1 = V::load(r1 + 2 * j + W);
      T v = V::add(V::evens(a0, a1), V::odds(a0, a1));
      v = V::add(V::add(v, V::evens(b0, b1)), V::odds(b0, b1));
      V::store(yrow + j, V::mul(v, quarter));
    }
    for (; j < OW; ++j) yrow[j] = (r0[2 * j] + r0[2 * j + 1] + r1[2 * j] + r1[2 * j + 1]) * 0.25f;
  }
}

/**
 * Max- or AveragePool 3x3 stride 1 with one pad on every side over one plane (output IH x IW): per output row,
 * the window's input rows are copied into padded rows (pad[0] and pad[IW + 1 ..] are 0 for the average, -inf for
 * the max) and the nine taps are reduced a whole vector at a time in the generic row path's order (row by row,
 * tap by tap; a padding tap adds +0 or loses the max; the max keeps its partial result against a NaN tap).
 * Average: interior columns are scaled by 1 / count as the row path does, the two edge columns divided by their
 * count as its per-output loop does, so the results are the generic path's. The max is what the row path took
 * 0.29 ms for on inception_v2's 1x1024x7x7 (two calls per row, the border columns one output at a time).
 */
template <class V, bool kMax>
__attribute__((always_inline)) inline void pool_3x3s1p1_simd(const float* x, int64_t IH, int64_t IW, float* y,
                                                             bool include_pad, float* pad) {
  using T = typename V::T;
  constexpr int W = V::W;
  const float fill = kMax ? -std::numeric_limits<float>::infinity() : 0.f;
  const int64_t pitch = IW + 2 + W;  // one padded row; input row r lives in slot r % 3, copied once
  float* sums = pad + 3 * pitch;     // then the row of sums (maxima), IW rounded up to a whole vector
  for (int64_t i = 0; i < 3 * pitch; ++i) pad[i] = fill;
  std::copy(x, x + IW, pad + 1);
  for (int64_t oh = 0; oh < IH; ++oh) {
    const int64_t r0 = oh > 0 ? oh - 1 : 0, r1 = oh + 2 < IH ? oh + 2 : IH;
    if (oh + 1 < IH) std::copy(x + (oh + 1) * IW, x + (oh + 2) * IW, pad + (oh + 1) % 3 * pitch + 1);
    float* yrow = y + oh * IW;
    if constexpr (kMax) {
      int64_t j = 0;
      for (; j < IW; j += W) {
        T acc = V::set1(fill);
        for (int64_t r = r0; r < r1; ++r) {
          const float* p = pad + r % 3 * pitch + j;
          acc = V::max(V::load(p), acc);
          acc = V::max(V::load(p + 1), acc);
          acc = V::max(V::load(p + 2), acc);
        }
        store_plane_row<V, float>(y, oh, j, IH, IW, acc);
      }
      continue;
    }
    const int64_t rows = r1 - r0;
    const float count = include_pad ? 9.f : static_cast<float>(rows * 3);
    const T scale = V::set1(1.f / count);
    for (int64_t j = 0; j < IW; j += W) {
      T acc = V::zero();
      for (int64_t r = r0; r < r1; ++r) {
        const float* p = pad + r % 3 * pitch + j;
        acc = V::add(acc, V::load(p));
        acc = V::add(acc, V::load(p + 1));
        acc = V::add(acc, V::load(p + 2));
      }
      V::store(sums + j, acc);
      store_plane_row<V, float>(y, oh, j, IH, IW, V::mul(acc, scale));
    }
    const float edge = include_pad ? 9.f : static_cast<float>(rows * 2);
    yrow[0] = sums[0] / edge;
    yrow[IW - 1] = sums[IW - 1] / edge;
  }
}

ACL_SIM_TARGET_AVX512 void pool_3x3s1p1_avx512(bool is_max, const float* x, int64_t IH, int64_t IW, float* y,
                                               bool include_pad, float* pad) {
  if (is_max) pool_3x3s1p1_simd<simd::V16, true>(x, IH, IW, y, include_pad, pad);
  else pool_3x3s1p1_simd<simd::V16, false>(x, IH, IW, y, include_pad, pad);
}

ACL_SIM_TARGET_AVX2 void pool_3x3s1p1_avx2(bool is_max, const float* x, int64_t IH, int64_t IW, float* y,
                                           bool include_pad, float* pad) {
  if (is_max) pool_3x3s1p1_simd<simd::V8, true>(x, IH, IW, y, include_pad, pad);
  else pool_3x3s1p1_simd<simd::V8, false>(x, IH, IW, y, include_pad, pad);
}

ACL_SIM_TARGET_AVX512 void avg_2x2s2_avx512(const float* x, int64_t IW, float* y, int64_t OH, int64_t OW) {
  avg_2x2s2_simd<simd::V16>(x, IW, y, OH, OW);
}

ACL_SIM_TARGET_AVX2 void avg_2x2s2_avx2(const float* x, int64_t IW, float* y, int64_t OH, int64_t OW) {
  avg_2x2s2_simd<simd::V8>(x, IW, y, OH, OW);
}

template <class E>
ACL_SIM_TARGET_AVX512 void pool_3x3s2_avx512(const E* x, int64_t IH, int64_t IW, int64_t pt, int64_t pl, E* y,
                                             int64_t OH, int64_t OW, const float* inv_counts, float* vm) {
  if (inv_counts) pool_3x3s2_simd<simd::V16, false>(x, IH, IW, pt, pl, y, OH, OW, inv_counts, vm);
  else pool_3x3s2_simd<simd::V16, true>(x, IH, IW, pt, pl, y, OH, OW, nullptr, vm);
}

template <class E>
ACL_SIM_TARGET_AVX2 void pool_3x3s2_avx2(const E* x, int64_t IH, int64_t IW, int64_t pt, int64_t pl, E* y,
                                         int64_t OH, int64_t OW, const float* inv_counts, float* vm) {
  if (inv_counts) pool_3x3s2_simd<simd::V8, false>(x, IH, IW, pt, pl, y, OH, OW, inv_counts, vm);
  else pool_3x3s2_simd<simd::V8, true>(x, IH, IW, pt, pl, y, OH, OW, nullptr, vm);
}

template <class E>
void pool_3x3s2_plane(const E* x, int64_t IH, int64_t IW, int64_t pt, int64_t pl, E* y, int64_t OH, int64_t OW,
                      const float* inv_counts) {
  // The reduced row, padded: vm[0] and vm[1 + IW ..] keep the fill; the kernels read up to 2 * OW + 34 floats.
  thread_local Scratch<float> t_rows;
  float* vm = t_rows.get(static_cast<size_t>(std::max(IW + 1, 2 * OW + 34) + 16));
  if (cpu_features().isa == KernelIsa::kAvx512) pool_3x3s2_avx512(x, IH, IW, pt, pl, y, OH, OW, inv_counts, vm);
  else pool_3x3s2_avx2(x, IH, IW, pt, pl, y, OH, OW, inv_counts, vm);
}
#endif

}  // namespace

bool pool_plane_kernels_available() { return cpu_features().vector_isa(); }

bool pool_3x3s2_supported(int64_t pt, int64_t pl) {
  return pool_plane_kernels_available() && (pt == 0 || pt == 1) && (pl == 0 || pl == 1);
}

void pool_3x3s2_plane_f32(const float* x, int64_t IH, int64_t IW, int64_t pt, int64_t pl, float* y, int64_t OH,
                          int64_t OW, const float* inv_counts) {
#if defined(__x86_64__)
  pool_3x3s2_plane(x, IH, IW, pt, pl, y, OH, OW, inv_counts);
#else
  (void)x, (void)IH, (void)IW, (void)pt, (void)pl, (void)y, (void)OH, (void)OW, (void)inv_counts;
#endif
}

void pool_3x3s2_plane_f16(const uint16_t* x, int64_t IH, int64_t IW, int64_t pt, int64_t pl, uint16_t* y, int64_t OH,
                          int64_t OW, const float* inv_counts) {
#if defined(__x86_64__)
  pool_3x3s2_plane(x, IH, IW, pt, pl, y, OH, OW, inv_counts);
#else
  (void)x, (void)IH, (void)IW, (void)pt, (void)pl, (void)y, (void)OH, (void)OW, (void)inv_counts;
#endif
}

bool avg_pool_2x2s2_supported() { return pool_plane_kernels_available(); }

void avg_pool_2x2s2_plane_f32(const float* x, int64_t IW, float* y, int64_t OH, int64_t OW) {
#if defined(__x86_64__)
  if (cpu_features().isa == KernelIsa::kAvx512) avg_2x2s2_avx512(x, IW, y, OH, OW);
  else avg_2x2s2_avx2(x, IW, y, OH, OW);
#else
  (void)x, (void)IW, (void)y, (void)OH, (void)OW;
#endif
}

bool pool_3x3s1p1_supported(int64_t IH, int64_t IW) { return pool_plane_kernels_available() && IH >= 1 && IW >= 3; }

void pool_3x3s1p1_plane_f32(bool is_max, const float* x, int64_t IH, int64_t IW, float* y, bool include_pad) {
#if defined(__x86_64__)
  // Three padded rows and a row of sums, each at most IW + 2 + 16 floats wide (the kernels lay them out).
  thread_local Scratch<float> t_rows;
  float* scratch = t_rows.get(static_cast<size_t>(4 * (IW + 2 + 16)));
  if (cpu_features().isa == KernelIsa::kAvx512) pool_3x3s1p1_avx512(is_max, x, IH, IW, y, include_pad, scratch);
  else pool_3x3s1p1_avx2(is_max, x, IH, IW, y, include_pad, scratch);
#else
  (void)is_max, (void)x, (void)IH, (void)IW, (void)y, (void)include_pad;
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
// (Compiled per ISA, isa_target.h.)
namespace {
struct PlaneSum {
  __attribute__((always_inline)) float operator()(const float* x, int64_t n) const {
    float part[16] = {0};
    int64_t i = 0;
    for (; i + 16 <= n; i += 16)
      for (int j = 0; j < 16; ++j) part[j] += x[i + j];
    float s = 0.f;
    for (int j = 0; j < 16; ++j) s += part[j];
    for (; i < n; ++i) s += x[i];
    return s;
  }
};
struct PlaneMax {
  __attribute__((always_inline)) float operator()(const float* x, int64_t n) const {
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
};
}  // namespace

float plane_sum_f32(const float* x, int64_t n) { return isa_call(PlaneSum{}, x, n); }
float plane_max_f32(const float* x, int64_t n) { return isa_call(PlaneMax{}, x, n); }

#if defined(__x86_64__)
namespace {
/**
 * PlaneSum / PlaneMax over binary16, widened as loaded: the same sixteen partial results (one V16, or two V8
 * halves), folded in the same order, so the result is the fp32 one's on the widened plane, bit for bit.
 */
template <class V, bool kMax>
__attribute__((always_inline)) inline float plane_reduce_half(const uint16_t* x, int64_t n) {
  using T = typename V::T;
  constexpr int kParts = 16 / V::W;
  const float fill = kMax ? -std::numeric_limits<float>::infinity() : 0.f;
  T part[kParts];
  for (int j = 0; j < kParts; ++j) part[j] = V::set1(fill);
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    for (int j = 0; j < kParts; ++j) {
      const T v = V::load_half(x + i + j * V::W);
      part[j] = kMax ? V::max(v, part[j]) : V::add(part[j], v);
    }
  }
  // The partial results, then the last n - i < 16 values widened a vector at a time (not one by one).
  alignas(64) float lanes[32];
  for (int j = 0; j < kParts; ++j) V::store(lanes + j * V::W, part[j]);
  const int tail = static_cast<int>(n - i);
  for (int j = 0; j < tail; j += V::W) V::store(lanes + 16 + j, V::load_half_n(x + i + j, std::min(V::W, tail - j)));
  float r = fill;
  for (int j = 0; j < 16 + tail; ++j) r = kMax ? std::max(r, lanes[j]) : r + lanes[j];
  return r;
}

ACL_SIM_TARGET_AVX512 float plane_reduce_half_avx512(bool is_max, const uint16_t* x, int64_t n) {
  return is_max ? plane_reduce_half<simd::V16, true>(x, n) : plane_reduce_half<simd::V16, false>(x, n);
}
ACL_SIM_TARGET_AVX2 float plane_reduce_half_avx2(bool is_max, const uint16_t* x, int64_t n) {
  return is_max ? plane_reduce_half<simd::V8, true>(x, n) : plane_reduce_half<simd::V8, false>(x, n);
}

float plane_reduce_half_isa(bool is_max, const uint16_t* x, int64_t n) {
  return cpu_features().isa == KernelIsa::kAvx512 ? plane_reduce_half_avx512(is_max, x, n)
                                                  : plane_reduce_half_avx2(is_max, x, n);
}
}  // namespace

float plane_sum_f16(const uint16_t* x, int64_t n) { return plane_reduce_half_isa(false, x, n); }
float plane_max_f16(const uint16_t* x, int64_t n) { return plane_reduce_half_isa(true, x, n); }
#else
float plane_sum_f16(const uint16_t*, int64_t) { return 0.f; }
float plane_max_f16(const uint16_t*, int64_t) { return 0.f; }
#endif

}  // namespace acl_sim
