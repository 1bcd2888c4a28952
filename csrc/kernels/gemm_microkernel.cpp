// The micro-kernels: AVX-512 (8 rows x up to 3 vectors = 24 zmm accumulators,
// plus an 8 x 8 ymm tail), AVX2 (4 rows x up to 3 vectors = 12 ymm
// accumulators; 4x24 measured 3-16% faster than 6x16 on this project's GEMMs and convs: a third less A
// traffic per FMA and no 6-row waste on 32/64/128-row weights) and a portable 4x8. Each SIMD kernel reads A packed or in place
// (see gemm_microkernel.h); the in-place rows are clamped to the last valid
// one, so a ragged bottom edge never reads past the matrix.
#include "kernels/gemm_microkernel.h"

#include <cstring>

#include "common/fp16.h"
#include "kernels/cpu_features.h"
#include "kernels/gemm_simd.h"

namespace acl_sim {
namespace {

/** TileEpilogue on one scalar of row i (the portable kernel, the column kernel's stores). */
inline float tile_epilogue_scalar(float v, const TileEpilogue* ep, int i) {
  if (ep && ep->row_bias) v += ep->row_bias[i];
  if (ep && ep->relu) v = v > 0.f ? v : 0.f;
  return v;
}

/** Where a finished row of the tile goes as binary16, or null when it is stored as floats (TileEpilogue). */
inline uint16_t* half_row(const TileEpilogue* ep, const float* row) {
  return ep && ep->out_half ? ep->out_half + (row - ep->c_origin) : nullptr;
}

/** The binary16 residual of a row of the tile, or null (TileEpilogue::residual_half). */
inline const uint16_t* residual_row(const TileEpilogue* ep, const float* row) {
  return ep && ep->residual_half ? ep->residual_half + (row - ep->c_origin) : nullptr;
}

#if defined(__x86_64__)
// A read in place is mr streams of one row each, too short for the hardware prefetcher to ramp up on (a 1x1
// conv's 1 KiB rows, Winograd's U rows), and in a model it comes from memory on every run: on a panel's first
// strip (TileEpilogue::prefetch_a) the kernels ask for each row's line 64 floats ahead once per 16 k. Stop 24,
// A/B inside the models (Intel Xeon, 2 threads, 16-30 pairs; all nodes): AVX2 resnet50 0.95-0.96x, vgg19
// 0.94x, densenet121 0.97x; AVX-512 vgg19 0.95x, the rest 0.997-1.004x. 32 floats ahead was 1.03x of 64, 96
// and 128 even, 256 worse on 3x3 512->512 at 7x7; on every strip it cost hot products (MatMul 1024^3, 1x1
// convs looped on one input) 1-3%, on the first 0-2%.
constexpr int64_t kAPrefetchAhead = 64;
// The packed B strip streams from L2 (a tile's A panels sweep every strip of the slice, which outgrows L1), and
// the L1 prefetchers run too close ahead for it: each k step asks for the line kPrefetchBSteps steps ahead.
// Stop 25 (Intel Xeon, 2 threads, bench_gemm.py vs OpenBLAS): AVX2 1024^3 1.02x -> 0.96x, 128x3072x768
// 1.07x -> 1.00x, 256x2304x196 1.09x -> 1.03x, 64x576x3136 1.07x -> 1.01x, light_resnet50's nodes summed
// 1.011x -> 0.975x of onnxruntime's; AVX-512 unchanged (0.93x both). 4 and 16 steps ahead measured the same.
constexpr int kPrefetchBSteps = 8;
constexpr int kPrefetchSourceRows = 8;
using simd::V16;
using simd::V8;

/**
 * Ask for the C tile's lines now: the kernel reads and writes them only after its k loop, and by
 * then a C tile that left the cache between K slices (tall tiles) is in L1 instead of a miss per row.
 */
inline void prefetch_c(const float* c, int64_t ldc, int m_valid, int width) {
  for (int i = 0; i < m_valid; ++i)
    for (int j = 0; j < width; j += 16) _mm_prefetch(reinterpret_cast<const char*>(c + i * ldc + j), _MM_HINT_T0);
}

/** Each in-place A row's line kAPrefetchAhead floats past step k. */
template <int MR>
__attribute__((always_inline)) inline void prefetch_a_ahead(const float* const (&rows)[MR], int64_t k) {
#pragma GCC unroll 8
  for (int i = 0; i < MR; ++i) _mm_prefetch(reinterpret_cast<const char*>(rows[i] + k + kAPrefetchAhead), _MM_HINT_T0);
}

/**
 * A packed A panel's lines kAPrefetchAhead k steps past step k (16 steps are MR lines). Winograd's U, packed and
 * streamed from DRAM on every run, asks for it on a panel's first strip: stop 35 (Zen 4, in-model A/B, 30-40
 * pairs) light_resnet50's 3x3 256->256 at 14x14 0.83-0.86x the time on AVX2 and 0.89x on AVX-512, the other
 * Winograd convs 0.93-0.99x; 160 steps ahead measured the same as 64. The GEMM's packed weights do not ask
 * (TileEpilogue::prefetch_packed_a): there it measured 1.0-1.07x on the 1x1 convs at K <= 512.
 */
template <int MR>
__attribute__((always_inline)) inline void prefetch_packed_a_ahead(const float* a, int64_t k) {
#pragma GCC unroll 8
  for (int l = 0; l < MR; ++l)
    _mm_prefetch(reinterpret_cast<const char*>(a + (k + kAPrefetchAhead) * MR + 16 * l), _MM_HINT_T0);
}

/** Whether ep asks for this kernel's A (in place or packed) ahead of its k loop. */
template <bool kDirect>
inline bool prefetches_a(const TileEpilogue* ep) {
  return ep && (kDirect ? ep->prefetch_a : ep->prefetch_packed_a);
}

/** A's lines kAPrefetchAhead k steps past step k: each in-place row's, or the packed panel's. */
template <int MR, bool kDirect>
__attribute__((always_inline)) inline void prefetch_ahead(const float* const (&rows)[MR], const float* a, int64_t k) {
  if constexpr (kDirect) prefetch_a_ahead<MR>(rows, k);
  else prefetch_packed_a_ahead<MR>(a, k);
}

/**
 * Where a k step reads its B row: the packed strip (kPack false: src unused), or (kPack true) row k of the
 * row-major source matrix, src[j] with src advancing by ldb per step, which the step also writes into the
 * packed strip at b for the panels after this one (MicroKernelSet::packing); with kHalf the source row is binary16
 * (from->half_src), widened as it is read (MicroKernelSet::packing_half).
 */
struct BRow {
  union {  // two pointers' worth would make the struct too large for registers: the float kernels slowed
    const float* src = nullptr;
    const uint16_t* half_src;  // the source as binary16 instead (kHalf), widened as it is read
  };
  int64_t ldb = 0;
};

/** One k step of an MR x NV-vector tile: NV vectors of the B strip against MR broadcast A values. */
template <class V, int MR, int NV, bool kDirect, bool kPack = false, bool kHalf = false>
__attribute__((always_inline)) inline void step(typename V::T (&acc)[MR][NV], const float* const (&rows)[MR],
                                                const float*& b, int64_t k, BRow* from = nullptr) {
  typename V::T bv[NV];
  if constexpr (kPack) {
    // The source rows lie ldb apart, a stream no hardware prefetcher follows: ask for the row
    // kPrefetchSourceRows ahead, as the packing pass's sequential row reads had for free, and for this row's
    // next strip, which the next call packs: its lines then come in a whole strip's FMAs early. Stop 40
    // (Zen 4, two threads, in-process A/B against the row-ahead request alone): AVX2 64x147x12544 0.930x the
    // time, 64x576x3136 0.956x, 128x768x3072 0.974x, 128x3072x768 0.977x, short-N and short-K shapes
    // 0.994-1.010x; AVX-512 0.970-1.000x; light_resnet50 and densenet121 1.001-1.004x (their B is in L2).
    if constexpr (kHalf) {
#pragma GCC unroll 4
      for (int j = 0; j < NV * V::W; j += 32) {  // 32 halves a line
        _mm_prefetch(reinterpret_cast<const char*>(from->half_src + kPrefetchSourceRows * from->ldb + j), _MM_HINT_T0);
        _mm_prefetch(reinterpret_cast<const char*>(from->half_src + NV * V::W + j), _MM_HINT_T0);
      }
#pragma GCC unroll 4
      for (int j = 0; j < NV; ++j) {
        bv[j] = V::load_half(from->half_src + j * V::W);
        V::store(const_cast<float*>(b) + j * V::W, bv[j]);
      }
      from->half_src += from->ldb;
    } else {
#pragma GCC unroll 4
      for (int j = 0; j < NV * V::W; j += 16) {
        _mm_prefetch(reinterpret_cast<const char*>(from->src + kPrefetchSourceRows * from->ldb + j), _MM_HINT_T0);
        _mm_prefetch(reinterpret_cast<const char*>(from->src + NV * V::W + j), _MM_HINT_T0);
      }
#pragma GCC unroll 4
      for (int j = 0; j < NV; ++j) {
        bv[j] = V::load(from->src + j * V::W);
        V::store(const_cast<float*>(b) + j * V::W, bv[j]);  // b: the tile's own packing buffer
      }
      from->src += from->ldb;
    }
  } else {
#pragma GCC unroll 4
    for (int j = 0; j < NV * V::W; j += 16)  // one request per line (16 floats)
      _mm_prefetch(reinterpret_cast<const char*>(b + kPrefetchBSteps * NV * V::W + j), _MM_HINT_T0);
#pragma GCC unroll 4
    for (int j = 0; j < NV; ++j) bv[j] = V::load(b + j * V::W);
  }
  const int64_t ka = kDirect ? k : k * MR;
#pragma GCC unroll 8
  for (int i = 0; i < MR; ++i) {
    const typename V::T av = V::set1(rows[i][ka]);
#pragma GCC unroll 4
    for (int j = 0; j < NV; ++j) acc[i][j] = V::fma(av, bv[j], acc[i][j]);
  }
  b += NV * V::W;
}

/** Row i's bias, then Relu, on one stored vector (TileEpilogue). */
template <class V>
__attribute__((always_inline)) inline typename V::T tile_epilogue(typename V::T v, const TileEpilogue* ep, int i) {
  if (ep->row_bias) v = V::add(v, V::set1(ep->row_bias[i]));
  if (ep->relu) v = V::max(v, V::zero());
  return v;
}

/**
 * The last-slice store of a tile going out as binary16 (TileEpilogue::out_half, residual_half added first), in a
 * branch of its own: with the binary16 choice made per stored vector inside the float stores, GCC unswitched them
 * and the AVX2 kernel's code doubled.
 */
template <int MR, int NV>
ACL_SIM_TARGET_AVX512 __attribute__((always_inline)) inline void store_half_avx512(const __m512 (&acc)[MR][NV], float* c,
                                                                                  int64_t ldc, int m_valid,
                                                                                  int n_valid, bool accumulate,
                                                                                  const TileEpilogue* ep) {
  constexpr int W = 16;
#pragma GCC unroll 8
  for (int i = 0; i < MR; ++i) {
    if (i >= m_valid) break;
    const float* row = c + i * ldc;
    uint16_t* hrow = half_row(ep, row);
    const uint16_t* rrow = residual_row(ep, row);
#pragma GCC unroll 4
    for (int j = 0; j < NV; ++j) {
      const int n = n_valid - j * W;
      if (n <= 0) break;
      const __mmask16 m = n >= W ? static_cast<__mmask16>(0xffff) : static_cast<__mmask16>((1u << n) - 1u);
      __m512 v = acc[i][j];
      if (accumulate) v = _mm512_add_ps(v, _mm512_maskz_loadu_ps(m, row + j * W));
      if (rrow) v = _mm512_add_ps(v, _mm512_cvtph_ps(_mm256_maskz_loadu_epi16(m, rrow + j * W)));
      v = tile_epilogue<V16>(v, ep, i);
      _mm256_mask_storeu_epi16(hrow + j * W, m, _mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
    }
  }
}

template <int MR, int NV>
ACL_SIM_TARGET_AVX2 __attribute__((always_inline)) inline void store_half_avx2(const __m256 (&acc)[MR][NV], float* c,
                                                                              int64_t ldc, int m_valid, int n_valid,
                                                                              bool accumulate, const TileEpilogue* ep) {
  constexpr int W = 8;
#pragma GCC unroll 8
  for (int i = 0; i < MR; ++i) {
    if (i >= m_valid) break;
    const float* row = c + i * ldc;
    uint16_t* hrow = half_row(ep, row);
    const uint16_t* rrow = residual_row(ep, row);
#pragma GCC unroll 4
    for (int j = 0; j < NV; ++j) {
      const int n = n_valid - j * W;
      if (n <= 0) break;
      __m256 v = acc[i][j];
      if (n >= W) {
        if (accumulate) v = _mm256_add_ps(v, _mm256_loadu_ps(row + j * W));
        if (rrow) v = _mm256_add_ps(v, V8::load_half(rrow + j * W));
        v = tile_epilogue<V8>(v, ep, i);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(hrow + j * W), _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT));
        continue;
      }
      alignas(16) uint16_t part[W] = {};
      if (accumulate) v = _mm256_add_ps(v, _mm256_maskload_ps(row + j * W, V8::mask(n)));
      if (rrow) {
        std::memcpy(part, rrow + j * W, static_cast<size_t>(n) * sizeof(uint16_t));
        v = _mm256_add_ps(v, V8::load_half(part));
      }
      V8::store_half_n(hrow + j * W, tile_epilogue<V8>(v, ep, i), n);
    }
  }
}

// The body is a macro-free template per ISA: GCC needs the target attribute on
// the function that holds the intrinsics, and a template cannot vary it by V.
template <int MR, int NV, bool kDirect, bool kPack = false, bool kHalf = false>
ACL_SIM_TARGET_AVX512 void body_avx512(int64_t kc, const float* a, int64_t lda, const float* b, float* c,
                                       int64_t ldc, int m_valid, int n_valid, bool accumulate, const TileEpilogue* ep,
                                       BRow from = {}) {
  constexpr int W = 16;
  __m512 acc[MR][NV];
#pragma GCC unroll 8
  for (int i = 0; i < MR; ++i)
#pragma GCC unroll 4
    for (int j = 0; j < NV; ++j) acc[i][j] = _mm512_setzero_ps();
  const float* rows[MR];
#pragma GCC unroll 8
  for (int i = 0; i < MR; ++i) rows[i] = a + (kDirect ? (i < m_valid ? i : m_valid - 1) * lda : i);
  prefetch_c(c, ldc, m_valid, NV * W);
  int64_t k = 0;
  if (prefetches_a<kDirect>(ep)) {
    for (; k + 16 <= kc; k += 16) {
      prefetch_ahead<MR, kDirect>(rows, a, k);
#pragma GCC unroll 2
      for (int64_t kk = k; kk < k + 16; ++kk) step<V16, MR, NV, kDirect, kPack, kHalf>(acc, rows, b, kk, &from);
    }
  }
#pragma GCC unroll 2
  for (; k < kc; ++k) step<V16, MR, NV, kDirect, kPack, kHalf>(acc, rows, b, k, &from);

  if (__builtin_expect(ep && ep->out_half, 0)) {
    store_half_avx512<MR, NV>(acc, c, ldc, m_valid, n_valid, accumulate, ep);
    return;
  }

  if (n_valid == NV * W) {
#pragma GCC unroll 8
    for (int i = 0; i < MR; ++i) {
      if (i >= m_valid) break;
      float* row = c + i * ldc;
#pragma GCC unroll 4
      for (int j = 0; j < NV; ++j) {
        __m512 v = acc[i][j];
        if (accumulate) v = _mm512_add_ps(v, _mm512_loadu_ps(row + j * W));
        if (ep) v = tile_epilogue<V16>(v, ep, i);
        _mm512_storeu_ps(row + j * W, v);
      }
    }
    return;
  }
#pragma GCC unroll 8
  for (int i = 0; i < MR; ++i) {
    if (i >= m_valid) break;
    float* row = c + i * ldc;
#pragma GCC unroll 4
    for (int j = 0; j < NV; ++j) {
      int n = n_valid - j * W;
      if (n <= 0) break;
      __mmask16 m = n >= W ? static_cast<__mmask16>(0xffff) : static_cast<__mmask16>((1u << n) - 1u);
      __m512 v = acc[i][j];
      if (accumulate) v = _mm512_add_ps(v, _mm512_maskz_loadu_ps(m, row + j * W));
      if (ep) v = tile_epilogue<V16>(v, ep, i);
      _mm512_mask_storeu_ps(row + j * W, m, v);
    }
  }
}

template <int MR, int NV, bool kDirect, bool kPack = false, bool kHalf = false>
ACL_SIM_TARGET_AVX2 void body_avx2(int64_t kc, const float* a, int64_t lda, const float* b, float* c, int64_t ldc,
                                   int m_valid, int n_valid, bool accumulate, const TileEpilogue* ep, BRow from = {}) {
  constexpr int W = 8;
  // FMA latency x throughput wants >= 8 independent chains: a tile of fewer accumulators (the 4x8
  // edge strip) keeps a second set for odd k and adds the two at the end.
  constexpr int S = MR * NV < 8 && !kPack ? 2 : 1;
  __m256 acc[MR][NV], acc2[MR][NV];
#pragma GCC unroll 8
  for (int i = 0; i < MR; ++i)
#pragma GCC unroll 4
    for (int j = 0; j < NV; ++j) acc[i][j] = acc2[i][j] = _mm256_setzero_ps();
  const float* rows[MR];
#pragma GCC unroll 8
  for (int i = 0; i < MR; ++i) rows[i] = a + (kDirect ? (i < m_valid ? i : m_valid - 1) * lda : i);
  prefetch_c(c, ldc, m_valid, NV * W);
  int64_t k = 0;
  if constexpr (S == 2) {
    for (; k + 2 <= kc; k += 2) {
      const int64_t ka = kDirect ? k : k * MR;
#pragma GCC unroll 4
      for (int j = 0; j < NV; ++j) {
        const __m256 b0 = _mm256_loadu_ps(b + j * W), b1 = _mm256_loadu_ps(b + NV * W + j * W);
#pragma GCC unroll 8
        for (int i = 0; i < MR; ++i) {
          acc[i][j] = _mm256_fmadd_ps(_mm256_broadcast_ss(rows[i] + ka), b0, acc[i][j]);
          acc2[i][j] = _mm256_fmadd_ps(_mm256_broadcast_ss(rows[i] + ka + (kDirect ? 1 : MR)), b1, acc2[i][j]);
        }
      }
      b += 2 * NV * W;
    }
  }
  if constexpr (S == 1) {
    if (prefetches_a<kDirect>(ep)) {
      for (; k + 16 <= kc; k += 16) {
        prefetch_ahead<MR, kDirect>(rows, a, k);
#pragma GCC unroll 2
        for (int64_t kk = k; kk < k + 16; ++kk) step<V8, MR, NV, kDirect, kPack, kHalf>(acc, rows, b, kk, &from);
      }
    }
  }
#pragma GCC unroll 2
  for (; k < kc; ++k) step<V8, MR, NV, kDirect, kPack, kHalf>(acc, rows, b, k, &from);

  if constexpr (S == 2) {
#pragma GCC unroll 8
    for (int i = 0; i < MR; ++i)
#pragma GCC unroll 4
      for (int j = 0; j < NV; ++j) acc[i][j] = _mm256_add_ps(acc[i][j], acc2[i][j]);
  }
  if (__builtin_expect(ep && ep->out_half, 0)) {
    store_half_avx2<MR, NV>(acc, c, ldc, m_valid, n_valid, accumulate, ep);
    return;
  }
#pragma GCC unroll 8
  for (int i = 0; i < MR; ++i) {
    if (i >= m_valid) break;
    float* row = c + i * ldc;
#pragma GCC unroll 4
    for (int j = 0; j < NV; ++j) {
      int n = n_valid - j * W;
      if (n <= 0) break;
      __m256 v = acc[i][j];
      if (n >= W) {
        if (accumulate) v = _mm256_add_ps(v, _mm256_loadu_ps(row + j * W));
        if (ep) v = tile_epilogue<V8>(v, ep, i);
        _mm256_storeu_ps(row + j * W, v);
      } else {
        __m256i m = V8::mask(n);
        if (accumulate) v = _mm256_add_ps(v, _mm256_maskload_ps(row + j * W, m));
        if (ep) v = tile_epilogue<V8>(v, ep, i);
        _mm256_maskstore_ps(row + j * W, m, v);
      }
    }
  }
}

/**
 * The one-column strip (MicroKernelSet::column): c[i] = sum_k A(i, k) * b[k] for the MR rows, vectorised along k
 * when A is read in place (its rows are contiguous in k there; two accumulator sets per row cover the FMA
 * latency) and over pairs of k steps when A is packed (MR floats per step). The sum's order differs from
 * the vector kernels' (lanes first), within the same accumulation error bound.
 */
template <class V, int MR>
__attribute__((always_inline)) inline void column_body(int64_t kc, const float* a, int64_t lda, const float* b,
                                                       float* c, int64_t ldc, int m_valid, bool accumulate,
                                                       const TileEpilogue* ep) {
  using T = typename V::T;
  constexpr int W = V::W;
  float sum[MR] = {};
  if (lda) {
    T acc[MR][2];
#pragma GCC unroll 8
    for (int i = 0; i < MR; ++i) acc[i][0] = acc[i][1] = V::zero();
    const float* rows[MR];
#pragma GCC unroll 8
    for (int i = 0; i < MR; ++i) rows[i] = a + (i < m_valid ? i : m_valid - 1) * lda;
    int64_t k = 0;
    for (; k + 2 * W <= kc; k += 2 * W) {
      const T b0 = V::load(b + k), b1 = V::load(b + k + W);
#pragma GCC unroll 8
      for (int i = 0; i < MR; ++i) {
        acc[i][0] = V::fma(V::load(rows[i] + k), b0, acc[i][0]);
        acc[i][1] = V::fma(V::load(rows[i] + k + W), b1, acc[i][1]);
      }
    }
#pragma GCC unroll 8
    for (int i = 0; i < MR; ++i) {
      sum[i] = V::hsum(V::add(acc[i][0], acc[i][1]));
      for (int64_t kk = k; kk < kc; ++kk) sum[i] += rows[i][kk] * b[kk];
    }
  } else {
    // Packed A: one vector holds the MR rows of two k steps (W = 2 MR on both ISAs), against b's two values
    // spread over the halves; four chains cover the FMA latency. With a scalar loop here an AVX2 3x3 512->512
    // conv at 7x7 (49 = 2 x 24 + 1 columns) on packed weights took 2.2 ms, with this 1.3-1.4 ms.
    static_assert(W == 2 * MR, "two k steps per vector");
    T acc[4] = {V::zero(), V::zero(), V::zero(), V::zero()};
    int64_t k = 0;
    for (; k + 8 <= kc; k += 8) {
#pragma GCC unroll 4
      for (int q = 0; q < 4; ++q) acc[q] = V::fma(V::load(a + (k + 2 * q) * MR), V::halves(b + k + 2 * q), acc[q]);
    }
    alignas(64) float lanes[W];
    V::store(lanes, V::add(V::add(acc[0], acc[1]), V::add(acc[2], acc[3])));
#pragma GCC unroll 8
    for (int i = 0; i < MR; ++i) {
      sum[i] = lanes[i] + lanes[i + MR];
      for (int64_t kk = k; kk < kc; ++kk) sum[i] += a[kk * MR + i] * b[kk];
    }
  }
  for (int i = 0; i < m_valid; ++i) {
    float v = accumulate ? c[i * ldc] + sum[i] : sum[i];
    if (const uint16_t* r = residual_row(ep, c + i * ldc)) v += half_to_float(*r);
    v = tile_epilogue_scalar(v, ep, i);
    if (uint16_t* h = half_row(ep, c + i * ldc)) *h = float_to_half(v);
    else c[i * ldc] = v;
  }
}

template <int MR>
ACL_SIM_TARGET_AVX512 void column_avx512(int64_t kc, const float* a, int64_t lda, const float* b, float* c,
                                         int64_t ldc, int m_valid, int, bool accumulate, const TileEpilogue* ep) {
  column_body<V16, MR>(kc, a, lda, b, c, ldc, m_valid, accumulate, ep);
}

template <int MR>
ACL_SIM_TARGET_AVX2 void column_avx2(int64_t kc, const float* a, int64_t lda, const float* b, float* c, int64_t ldc,
                                     int m_valid, int, bool accumulate, const TileEpilogue* ep) {
  column_body<V8, MR>(kc, a, lda, b, c, ldc, m_valid, accumulate, ep);
}

// One entry per shape: the packed/in-place choice is one predictable branch per call.
template <int MR, int NV>
ACL_SIM_TARGET_AVX512 void kernel_avx512(int64_t kc, const float* a, int64_t lda, const float* b, float* c,
                                         int64_t ldc, int m_valid, int n_valid, bool accumulate, const TileEpilogue* ep) {
  if (lda) body_avx512<MR, NV, true>(kc, a, lda, b, c, ldc, m_valid, n_valid, accumulate, ep);
  else body_avx512<MR, NV, false>(kc, a, 0, b, c, ldc, m_valid, n_valid, accumulate, ep);
}

template <int MR, int NV>
ACL_SIM_TARGET_AVX2 void kernel_avx2(int64_t kc, const float* a, int64_t lda, const float* b, float* c, int64_t ldc,
                                     int m_valid, int n_valid, bool accumulate, const TileEpilogue* ep) {
  if (lda) body_avx2<MR, NV, true>(kc, a, lda, b, c, ldc, m_valid, n_valid, accumulate, ep);
  else body_avx2<MR, NV, false>(kc, a, 0, b, c, ldc, m_valid, n_valid, accumulate, ep);
}

template <int MR, int NV>
ACL_SIM_TARGET_AVX512 void packing_avx512(int64_t kc, const float* a, int64_t lda, const float* b_src, int64_t ldb,
                                          float* b_pack, float* c, int64_t ldc, int m_valid, bool accumulate,
                                          const TileEpilogue* ep) {
  const BRow from{b_src, ldb};
  if (lda) body_avx512<MR, NV, true, true>(kc, a, lda, b_pack, c, ldc, m_valid, NV * 16, accumulate, ep, from);
  else body_avx512<MR, NV, false, true>(kc, a, 0, b_pack, c, ldc, m_valid, NV * 16, accumulate, ep, from);
}

template <int MR, int NV>
ACL_SIM_TARGET_AVX512 void packing_half_avx512(int64_t kc, const float* a, int64_t lda, const uint16_t* b_src,
                                               int64_t ldb, float* b_pack, float* c, int64_t ldc, int m_valid,
                                               bool accumulate, const TileEpilogue* ep) {
  BRow from;
  from.half_src = b_src;
  from.ldb = ldb;
  if (lda) body_avx512<MR, NV, true, true, true>(kc, a, lda, b_pack, c, ldc, m_valid, NV * 16, accumulate, ep, from);
  else body_avx512<MR, NV, false, true, true>(kc, a, 0, b_pack, c, ldc, m_valid, NV * 16, accumulate, ep, from);
}

template <int MR, int NV>
ACL_SIM_TARGET_AVX2 void packing_half_avx2(int64_t kc, const float* a, int64_t lda, const uint16_t* b_src, int64_t ldb,
                                           float* b_pack, float* c, int64_t ldc, int m_valid, bool accumulate,
                                           const TileEpilogue* ep) {
  BRow from;
  from.half_src = b_src;
  from.ldb = ldb;
  if (lda) body_avx2<MR, NV, true, true, true>(kc, a, lda, b_pack, c, ldc, m_valid, NV * 8, accumulate, ep, from);
  else body_avx2<MR, NV, false, true, true>(kc, a, 0, b_pack, c, ldc, m_valid, NV * 8, accumulate, ep, from);
}

template <int MR, int NV>
ACL_SIM_TARGET_AVX2 void packing_avx2(int64_t kc, const float* a, int64_t lda, const float* b_src, int64_t ldb,
                                      float* b_pack, float* c, int64_t ldc, int m_valid, bool accumulate,
                                      const TileEpilogue* ep) {
  const BRow from{b_src, ldb};
  if (lda) body_avx2<MR, NV, true, true>(kc, a, lda, b_pack, c, ldc, m_valid, NV * 8, accumulate, ep, from);
  else body_avx2<MR, NV, false, true>(kc, a, 0, b_pack, c, ldc, m_valid, NV * 8, accumulate, ep, from);
}
#endif

/** Portable path: plain loops the compiler vectorises for the baseline ISA. */
template <int MR, int NR>
void kernel_scalar(int64_t kc, const float* a, int64_t lda, const float* b, float* c, int64_t ldc, int m_valid,
                   int n_valid, bool accumulate, const TileEpilogue* ep) {
  float acc[MR][NR] = {};
  for (int64_t k = 0; k < kc; ++k) {
    for (int i = 0; i < MR; ++i) {
      const float av = lda ? a[(i < m_valid ? i : m_valid - 1) * lda + k] : a[k * MR + i];
      for (int j = 0; j < NR; ++j) acc[i][j] += av * b[j];
    }
    b += NR;
  }
  for (int i = 0; i < m_valid; ++i) {
    float* row = c + i * ldc;
    uint16_t* hrow = half_row(ep, row);
    const uint16_t* rrow = residual_row(ep, row);
    for (int j = 0; j < n_valid; ++j) {
      float v = accumulate ? row[j] + acc[i][j] : acc[i][j];
      if (rrow) v += half_to_float(rrow[j]);
      v = tile_epilogue_scalar(v, ep, i);
      if (hrow) hrow[j] = float_to_half(v);
      else row[j] = v;
    }
  }
}

MicroKernelSet make_set() {
#if defined(__x86_64__)
  switch (cpu_features().isa) {
    case KernelIsa::kAvx512:
      return {"avx512 8x48", 8, 16, 3, {kernel_avx512<8, 1>, kernel_avx512<8, 2>, kernel_avx512<8, 3>, nullptr},
              8, kernel_avx2<8, 1>, true, column_avx512<8>, 0, {nullptr, nullptr}, packing_avx512<8, 3>,
              packing_half_avx512<8, 3>};
    case KernelIsa::kAvx2:
      return {"avx2 4x24", 4, 8, 3, {kernel_avx2<4, 1>, kernel_avx2<4, 2>, kernel_avx2<4, 3>, nullptr}, 0, nullptr, true,
              column_avx2<4>, 6, {kernel_avx2<6, 1>, kernel_avx2<6, 2>}, packing_avx2<4, 3>, packing_half_avx2<4, 3>};
    default: break;
  }
#endif
  return {"scalar 4x8", 4, 8, 1, {kernel_scalar<4, 8>, nullptr, nullptr, nullptr}, 0, nullptr, true, nullptr, 0,
          {nullptr, nullptr}, nullptr, nullptr};
}

}  // namespace

const MicroKernelSet& micro_kernels() {
  static const MicroKernelSet set = make_set();
  return set;
}

}  // namespace acl_sim
