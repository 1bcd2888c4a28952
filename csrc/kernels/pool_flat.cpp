// The flat small-plane 3x3 pool kernels: see pool_flat.h.
#include "kernels/pool_flat.h"

#include <algorithm>
#include <limits>

#include "kernels/cpu_features.h"
#include "kernels/gemm_simd.h"
#include "kernels/pool_taps.h"

namespace acl_sim {
namespace {

// pool_3x3_flat_masks' table: per block of W positions (W: the host's vector width), kEntries entries of E words
// (AVX-512: E = 1, a 16-bit lane mask; AVX2: E = 8, one all-ones / zero word per lane, what vmaskmovps and
// blendv take, so a block reads its masks without unpacking them). The entries: the tap above / at / below each
// position inside the plane, the left / right neighbour inside its row, then (stride 2) the window centres: the
// lane mask (AVX-512) or the centres' lane indices first (AVX2, a vpermps), and their count.
enum Entry { kUp, kMid, kDown, kLeft, kRight, kCentres, kCentreCount, kEntries };

/** Lanes per vector, and words per table entry, of this host's kernel. */
int flat_lanes() {
#if defined(__x86_64__)
  return cpu_features().isa == KernelIsa::kAvx512 ? 16 : 8;
#else
  return 8;
#endif
}
int entry_words(int lanes) { return lanes == 16 ? 1 : lanes; }

#if defined(__x86_64__)
/** AVX-512: masks are k-registers; masked loads and compresses are single instructions. */
struct Flat16 {
  using V = simd::V16;
  using Mask = __mmask16;
  static constexpr int kWords = 1;
  static Mask mask(const uint32_t* block, Entry e) { return static_cast<Mask>(block[e]); }
  ACL_SIM_TARGET_AVX512 static ACL_SIM_INLINE __m512 masked_load(const float* p, Mask m, __m512 fill) {
    return _mm512_mask_loadu_ps(fill, m, p);
  }
  ACL_SIM_TARGET_AVX512 static ACL_SIM_INLINE __m512 masked_load(const uint16_t* p, Mask m, __m512 fill) {
    return _mm512_mask_blend_ps(m, fill, _mm512_cvtph_ps(_mm256_maskz_loadu_epi16(m, p)));
  }
  ACL_SIM_TARGET_AVX512 static ACL_SIM_INLINE __m512 keep(__m512 v, Mask m, __m512 fill) {
    return _mm512_mask_blend_ps(m, fill, v);
  }
  static bool has_centres(const uint32_t* block) { return block[kCentres] != 0; }
  /** The window centres' lanes first; *n: how many. */
  ACL_SIM_TARGET_AVX512 static ACL_SIM_INLINE __m512 centres(__m512 v, const uint32_t* block, int* n) {
    *n = __builtin_popcount(block[kCentres]);
    return _mm512_maskz_compress_ps(static_cast<Mask>(block[kCentres]), v);
  }
};

/** AVX2: masks are lane words read from the table. vmaskmovps is slow on AMD: only the edge blocks use it. */
struct Flat8 {
  using V = simd::V8;
  using Mask = const uint32_t*;
  static constexpr int kWords = 8;
  static Mask mask(const uint32_t* block, Entry e) { return block + e * kWords; }
  ACL_SIM_TARGET_AVX2 static ACL_SIM_INLINE __m256 lanes(Mask m) {
    return _mm256_loadu_ps(reinterpret_cast<const float*>(m));
  }
  ACL_SIM_TARGET_AVX2 static ACL_SIM_INLINE __m256 masked_load(const float* p, Mask m, __m256 fill) {
    const __m256 l = lanes(m);
    return _mm256_blendv_ps(fill, _mm256_maskload_ps(p, _mm256_castps_si256(l)), l);
  }
  ACL_SIM_TARGET_AVX2 static ACL_SIM_INLINE __m256 keep(__m256 v, Mask m, __m256 fill) {
    return _mm256_blendv_ps(fill, v, lanes(m));
  }
  static bool has_centres(const uint32_t* block) { return block[kCentreCount * kWords] != 0; }
  ACL_SIM_TARGET_AVX2 static ACL_SIM_INLINE __m256 centres(__m256 v, const uint32_t* block, int* n) {
    *n = static_cast<int>(block[kCentreCount * kWords]);
    return _mm256_permutevar8x32_ps(v, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(block + kCentres * kWords)));
  }
};

/** max(tap, acc) keeps acc when the tap is NaN (max_ps returns its second operand then); or the sum. */
template <class V, bool kMax>
__attribute__((always_inline)) inline typename V::T take(typename V::T tap, typename V::T acc) {
  if constexpr (kMax) return V::max(tap, acc);
  else return V::add(acc, tap);
}

/**
 * The column sums (maxima) of the block at p: x[q - IW] + x[q] + x[q + IW], a tap outside the plane the fill.
 * kEdge: the block's taps may leave the plane's memory, so they are masked loads; otherwise plain ones.
 */
template <class F, bool kMax, bool kEdge, class E>
__attribute__((always_inline)) inline typename F::V::T column_taps(const E* x, int64_t IW, const uint32_t* block,
                                                                   typename F::V::T fill) {
  using V = typename F::V;
  if constexpr (kEdge) {
    const typename V::T up = F::masked_load(x - IW, F::mask(block, kUp), fill);
    const typename V::T mid = F::masked_load(x, F::mask(block, kMid), fill);
    const typename V::T down = F::masked_load(x + IW, F::mask(block, kDown), fill);
    return take<V, kMax>(down, take<V, kMax>(mid, kMax ? V::max(up, fill) : up));
  } else {
    // A max chain starts from the fill so that a NaN tap is dropped, not carried.
    const typename V::T up = simd::load_elems<V>(x - IW);
    return take<V, kMax>(simd::load_elems<V>(x + IW), take<V, kMax>(simd::load_elems<V>(x), kMax ? V::max(up, fill) : up));
  }
}

/** column_taps of block b, plain loads for the blocks [inner_lo, inner_hi). (A lambda would not carry the
 * caller's target attribute, and its vectors would go through memory.) */
template <class F, bool kMax, class E>
__attribute__((always_inline)) inline typename F::V::T block_taps(const E* x, int64_t IW, const uint32_t* table,
                                                                  int64_t b, int64_t inner_lo, int64_t inner_hi,
                                                                  typename F::V::T fill) {
  const uint32_t* block = table + b * kEntries * F::kWords;
  const E* p = x + b * F::V::W;
  if (b >= inner_lo && b < inner_hi) return column_taps<F, kMax, false>(p, IW, block, fill);
  return column_taps<F, kMax, true>(p, IW, block, fill);
}

/**
 * One plane, separably: each block's column sums (three loads), then their left and right neighbours shifted in
 * from the blocks either side in registers, the ones across a row's end masked to the fill. The blocks whose
 * rows above and below lie inside the plane (all but the first and last row's) read with plain loads. With
 * kPacks (stride 2) the window centres' results go to the output packed as it goes: a whole vector while it
 * stays inside the plane's output (the next store overwrites the lanes past the kept ones), the rest masked.
 */
template <class F, bool kMax, bool kPacks, class E>
__attribute__((always_inline)) inline void flat_plane(const E* x, int64_t N, int64_t IW, E* y, int64_t out_n,
                                                      const uint32_t* table, const float* inv_counts) {
  using V = typename F::V;
  using T = typename V::T;
  constexpr int W = V::W;
  constexpr int64_t kBlockWords = kEntries * F::kWords;
  const T fill = V::set1(kMax ? -std::numeric_limits<float>::infinity() : 0.f);
  const int64_t blocks = (N + W - 1) / W;
  // Blocks [inner_lo, inner_hi) have p >= IW and p + W + IW <= N.
  const int64_t inner_lo = std::min(blocks, (IW + W - 1) / W);
  const int64_t inner_hi = std::max(inner_lo, N >= IW + W ? (N - IW - W) / W + 1 : 0);
  T prev = fill, cur = block_taps<F, kMax>(x, IW, table, 0, inner_lo, inner_hi, fill);
  int64_t o = 0;
  for (int64_t b = 0; b < blocks; ++b) {
    const T next = b + 1 < blocks ? block_taps<F, kMax>(x, IW, table, b + 1, inner_lo, inner_hi, fill) : fill;
    const uint32_t* block = table + b * kBlockWords;
    if (!kPacks || F::has_centres(block)) {
      const T left = F::keep(V::template shift_in<W - 1>(prev, cur), F::mask(block, kLeft), fill);
      const T right = F::keep(V::template shift_in<1>(cur, next), F::mask(block, kRight), fill);
      T acc = take<V, kMax>(right, take<V, kMax>(left, cur));
      if constexpr (!kPacks) {
        const int64_t p = b * W;
        if constexpr (!kMax) acc = V::mul(acc, V::load(inv_counts + p));
        if (p + W <= N) simd::store_elems<V>(y + p, acc);
        else simd::store_elems_n<V>(y + p, acc, static_cast<int>(N - p));
      } else {
        int n;
        T kept = F::centres(acc, block, &n);
        if constexpr (!kMax) kept = V::mul(kept, V::load(inv_counts + o));
        if (o + W <= out_n) simd::store_elems<V>(y + o, kept);
        else simd::store_elems_n<V>(y + o, kept, n);
        o += n;
      }
    }
    prev = cur;
    cur = next;
  }
}

template <class F, bool kMax, bool kPacks, class E>
__attribute__((always_inline)) inline void flat_planes(const E* x, int64_t planes, int64_t N, int64_t IW, E* y,
                                                       int64_t out_n, const uint32_t* table, const float* inv_counts) {
  for (int64_t i = 0; i < planes; ++i, x += N, y += out_n)
    flat_plane<F, kMax, kPacks>(x, N, IW, y, out_n, table, inv_counts);
}

template <class F, class E>
__attribute__((always_inline)) inline void flat_dispatch(bool is_max, const E* x, int64_t planes, int64_t N,
                                                         int64_t IW, E* y, int64_t out_n, const uint32_t* table,
                                                         const float* inv_counts) {
  const bool packs = out_n != N;
  if (is_max && packs) flat_planes<F, true, true>(x, planes, N, IW, y, out_n, table, inv_counts);
  else if (is_max) flat_planes<F, true, false>(x, planes, N, IW, y, out_n, table, inv_counts);
  else if (packs) flat_planes<F, false, true>(x, planes, N, IW, y, out_n, table, inv_counts);
  else flat_planes<F, false, false>(x, planes, N, IW, y, out_n, table, inv_counts);
}

template <class E>
ACL_SIM_TARGET_AVX512 void flat_avx512(bool is_max, const E* x, int64_t planes, int64_t N, int64_t IW, E* y,
                                       int64_t out_n, const uint32_t* table, const float* inv_counts) {
  flat_dispatch<Flat16>(is_max, x, planes, N, IW, y, out_n, table, inv_counts);
}

ACL_SIM_TARGET_AVX2 void flat_avx2(bool is_max, const float* x, int64_t planes, int64_t N, int64_t IW, float* y,
                                   int64_t out_n, const uint32_t* table, const float* inv_counts) {
  flat_dispatch<Flat8>(is_max, x, planes, N, IW, y, out_n, table, inv_counts);
}
#endif

/** The output index along one axis whose window is centred on input index i (kernel 3, dilation 1), or -1. */
int64_t centred_output(int64_t i, int64_t stride, int64_t pad, int64_t outputs) {
  const int64_t u = i + pad - 1;
  if (u < 0 || u % stride != 0 || u / stride >= outputs) return -1;
  return u / stride;
}

}  // namespace

bool pool_3x3_flat_supported(int64_t IH, int64_t IW, int64_t stride, int64_t pt, int64_t pl, int64_t OH, int64_t OW) {
  if (!pool_plane_kernels_available() || IH < 1 || IW < 1 || OH < 1 || OW < 1) return false;
  if (stride == 1) return pt == 1 && pl == 1 && OH == IH && OW == IW && IH * IW <= kFlatPlaneMax;
  // Stride 2: the last output's centre (OH - 1) * 2 - pt + 1 inside the plane, as every earlier one is then.
  return stride == 2 && (pt == 0 || pt == 1) && (pl == 0 || pl == 1) && IH * IW <= kFlatPlaneMaxStride2 &&
         2 * (OH - 1) - pt + 1 < IH && 2 * (OW - 1) - pl + 1 < IW;
}

std::vector<uint32_t> pool_3x3_flat_masks(int64_t IH, int64_t IW, int64_t stride, int64_t pt, int64_t pl,
                                          int64_t OH, int64_t OW) {
  const int64_t N = IH * IW, lanes = flat_lanes(), words = entry_words(static_cast<int>(lanes));
  const int64_t blocks = (N + lanes - 1) / lanes, block_words = kEntries * words;
  std::vector<uint32_t> table(static_cast<size_t>(blocks * block_words), 0);
  for (int64_t b = 0; b < blocks; ++b) {
    uint32_t* block = table.data() + b * block_words;
    uint32_t count = 0;
    for (int64_t l = 0; l < lanes; ++l) {
      const int64_t p = b * lanes + l;
      if (p >= N) break;
      const int64_t r = p / IW, c = p % IW;
      const bool set[kCentres] = {r > 0, true, r + 1 < IH, c > 0, c + 1 < IW};
      for (int e = 0; e < kCentres; ++e) {
        if (!set[e]) continue;
        if (words == 1) block[e] |= 1u << l;
        else block[e * words + l] = ~0u;
      }
      if (centred_output(r, stride, pt, OH) < 0 || centred_output(c, stride, pl, OW) < 0) continue;
      if (words == 1) block[kCentres] |= 1u << l;
      else block[kCentres * words + count] = static_cast<uint32_t>(l);
      ++count;
    }
    if (words != 1) block[kCentreCount * words] = count;
  }
  return table;
}

void pool_3x3_flat_f32(bool is_max, const float* x, int64_t planes, int64_t IH, int64_t IW, float* y, int64_t OH,
                       int64_t OW, const uint32_t* masks, const float* inv_counts) {
#if defined(__x86_64__)
  if (flat_lanes() == 16) flat_avx512(is_max, x, planes, IH * IW, IW, y, OH * OW, masks, inv_counts);
  else flat_avx2(is_max, x, planes, IH * IW, IW, y, OH * OW, masks, inv_counts);
#else
  (void)is_max, (void)x, (void)planes, (void)IH, (void)IW, (void)y, (void)OH, (void)OW, (void)masks, (void)inv_counts;
#endif
}

bool pool_3x3_flat_f16_available() { return pool_plane_kernels_available() && flat_lanes() == 16; }

void pool_3x3_flat_f16(bool is_max, const uint16_t* x, int64_t planes, int64_t IH, int64_t IW, uint16_t* y,
                       int64_t OH, int64_t OW, const uint32_t* masks, const float* inv_counts) {
#if defined(__x86_64__)
  flat_avx512(is_max, x, planes, IH * IW, IW, y, OH * OW, masks, inv_counts);
#else
  (void)is_max, (void)x, (void)planes, (void)IH, (void)IW, (void)y, (void)OH, (void)OW, (void)masks, (void)inv_counts;
#endif
}

}  // namespace acl_sim
