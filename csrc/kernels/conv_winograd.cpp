// Winograd F(4x4, 3x3): see conv_winograd.h for the scheme.
//
// With points 0, +-1, +-2 and infinity (Lavin & Gray):
//   B^T = [4 0 -5 0 1 0; 0 -4 -4 1 1 0; 0 4 -4 -1 1 0; 0 -2 -1 2 1 0; 0 2 -1 -2 1 0; 0 4 0 -5 0 1]
//   G   = [1/4 0 0; -1/6 -1/6 -1/6; -1/6 1/6 -1/6; 1/24 1/12 1/6; 1/24 -1/12 1/6; 0 0 1]
//   A^T = [1 1 1 1 1 0; 0 1 -1 2 -2 0; 0 1 1 4 4 0; 0 1 -1 8 -8 1]
//
// Layouts. The input is first padded and split by column phase (column 4u + m
// of the padded plane at [m][u]), so the six columns a run of horizontally
// adjacent tiles reads are six contiguous vectors, one tile per SIMD lane.
// On narrow planes (a tile row under 3/4 of its vectors) the input is instead
// laid out tile-major, the 36 patch values of each tile as 36 rows over the
// image's tiles, so vectors run across tile rows (resnet50's 3x3 convs at
// 28x28 / 14x14: 0.93x / 0.85x one-node, 0.94x over its 3x3 convs in the model).
// The transforms run on such vectors: the input transform writes V_xi in the
// packed-B layout of the GEMM micro-kernels (strips of W tiles, C rows each),
// the GEMMs read U_xi packed in the micro-kernels' A panels (built once per
// model; read in place as row-major [M, C] instead, in a model each call's mr
// rows came from memory as mr short streams: stop 35, Zen 4, A/B inside
// light_resnet50, 30 pairs: the 3x3 convs at 14x14 0.61-0.64x the time on
// AVX2 and 0.72-0.75x on AVX-512, at 28x28 0.83-0.87x / 0.77-0.80x, 56x56
// even; the model 0.946x / 0.958x) and write [M-chunk, block] per xi, and the
// output transform reads those back one vector of tiles at a time.
//
// Work split: a job is one block of tiles (whole strips) and one share of the
// output channels; blocks are cut over the flattened (image, tile row, tile
// column) index, so a batch is one parallel region of jobs.
#include "kernels/conv_winograd.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "common/fp16.h"
#include "executor/thread_pool.h"
#include "kernels/cpu_features.h"
#include "kernels/gemm_microkernel.h"
#include "kernels/gemm_simd.h"  // <immintrin.h> and the -Wpsabi pragmas
#include "kernels/thread_scratch.h"

namespace acl_sim {
namespace {

constexpr int kXi = 36;  // transformed positions per tile

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

int64_t env_int(const char* name, int64_t fallback) {
  const char* v = std::getenv(name);
  if (!v || !*v) return fallback;
  const long long n = std::atoll(v);
  return n > 0 ? n : fallback;
}

// t_prep: the padded, phase-split input (the caller's); t_v / t_m: a job's transformed input and GEMM output.
thread_local Scratch<float> t_prep, t_v, t_m;
thread_local Scratch<float> t_plane;  // one fp16 / bf16 input plane, widened

struct Plan {
  int64_t N, C, M;
  int64_t IH, IW, pt, pl, OH, OW;
  int64_t TH, TW, T1, T;  // tile rows / columns per image, tiles per image, tiles in all
  int64_t U, R, PS;       // prepared plane: R rows of 4 phases of U columns (row mode); PS floats
  // Tile-major mode: the prepared plane is the 36 patch values of every tile, [xi][tile], so a vector holds
  // consecutive tiles across tile rows (narrow planes, where a tile row fills few lanes: 28x28 is 7 tiles per
  // row, 7 of 16 AVX-512 lanes in row mode). Row mode keeps the input's size; this one is 36/16 of it.
  bool tile_major;
  int64_t in_off[kXi];    // patch value (row k, column c) of lane 0 at base + in_off[6k + c] (see input_run)
  const float* xs;
  const float* u;  // U_xi in micro-kernel panels of mr rows (winograd_transform_weights)
  float* y;
  const float* bias;
  const float* res;
  Activation act;
  WinogradHalfIo half;
  bool half_in_registers;  // fp16 stored straight from the output transform (else narrowed per row segment)
  // Blocking: strips of W tiles (nv vectors), S strips per block, M chunks of mb rows, m_parts shares of M per block.
  int64_t W, S, nt, mb, kc, blocks, m_parts, mr;
  const MicroKernelFn* kernels;  // [nv - 1]: strips of nv vectors
  MicroKernelFn column;          // null, or the one-column kernel over the same rows (a block's lone last tile)
};

/** A run of horizontally adjacent tiles that one vector holds: lanes [off, off + len) of the group at jj. */
struct Run {
  int64_t n, th, tw;  // first tile
  int64_t jj;         // the group's first column in the block (a multiple of the lane count)
  int off, len;
};

/** Calls f(run) for the block's tiles [j0, j1) cut at vector groups, images and (row mode) tile rows. */
template <class F>
inline void for_each_run(const Plan& p, int lanes, int64_t j0, int64_t j1, F&& f) {
  for (int64_t j = j0; j < j1;) {
    const int64_t n = j / p.T1, rem = j % p.T1, th = rem / p.TW, tw = rem % p.TW;
    const int64_t jj = j - j0, off = jj % lanes;
    const int64_t len = std::min({lanes - off, p.tile_major ? p.T1 - rem : p.TW - tw, j1 - j});
    f(Run{n, th, tw, jj - off, static_cast<int>(off), static_cast<int>(len)});
    j += len;
  }
}

#if defined(__x86_64__)
// One copy of the transforms and the job body per ISA (conv_winograd_isa.inc).
#pragma GCC push_options
#pragma GCC target("avx512f,avx512dq,avx512bw,avx512vl,fma")
namespace isa512 {
struct I {
  using T = __m512;
  using Mask = __mmask16;
  static constexpr int L = 16;
  static inline Mask mask(int off, int len) { return static_cast<Mask>(((1u << len) - 1u) << off); }
  static inline T load(const float* p, Mask m) { return _mm512_maskz_loadu_ps(m, p); }
  static inline void store(float* p, Mask m, T v) { _mm512_mask_storeu_ps(p, m, v); }
  static inline T load(const float* p) { return _mm512_loadu_ps(p); }
  static inline void store(float* p, T v) { _mm512_storeu_ps(p, v); }
  /** Lanes [a, e) of v as binary16 at p + a .. p + e (round to nearest even). */
  static inline void store_half(uint16_t* p, int a, int e, T v) {
    const __m256i h = _mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    if (a == 0 && e == L) _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), h);
    else _mm256_mask_storeu_epi16(p, static_cast<__mmask16>(((1u << (e - a)) - 1u) << a), h);
  }
  static inline T set1(float v) { return _mm512_set1_ps(v); }
  static inline T add(T a, T b) { return _mm512_add_ps(a, b); }
  static inline T sub(T a, T b) { return _mm512_sub_ps(a, b); }
  static inline T mul(T a, T b) { return _mm512_mul_ps(a, b); }
  static inline T fma(T a, T b, T c) { return _mm512_fmadd_ps(a, b, c); }
  static inline T max(T a, T b) { return _mm512_max_ps(a, b); }
  /** Lanes x 4 columns to consecutive pixels: v[q] holds lanes 4q..4q+3's columns 0-3 each. */
  static inline void interleave4(const T* o, T* v) {
    const T t0 = _mm512_unpacklo_ps(o[0], o[1]), t1 = _mm512_unpackhi_ps(o[0], o[1]);
    const T t2 = _mm512_unpacklo_ps(o[2], o[3]), t3 = _mm512_unpackhi_ps(o[2], o[3]);
    // Per 128-bit block k: u_j = lane 4k + j's four columns.
    const T u0 = _mm512_shuffle_ps(t0, t2, 0x44), u1 = _mm512_shuffle_ps(t0, t2, 0xEE);
    const T u2 = _mm512_shuffle_ps(t1, t3, 0x44), u3 = _mm512_shuffle_ps(t1, t3, 0xEE);
    // Transpose the 4 x 4 grid of 128-bit blocks.
    const T w0 = _mm512_shuffle_f32x4(u0, u1, 0x88), w1 = _mm512_shuffle_f32x4(u2, u3, 0x88);
    const T w2 = _mm512_shuffle_f32x4(u0, u1, 0xDD), w3 = _mm512_shuffle_f32x4(u2, u3, 0xDD);
    v[0] = _mm512_shuffle_f32x4(w0, w1, 0x88);
    v[1] = _mm512_shuffle_f32x4(w2, w3, 0x88);
    v[2] = _mm512_shuffle_f32x4(w0, w1, 0xDD);
    v[3] = _mm512_shuffle_f32x4(w2, w3, 0xDD);
  }
};
#include "kernels/conv_winograd_isa.inc"
}  // namespace isa512
#pragma GCC pop_options

#pragma GCC push_options
#pragma GCC target("avx2,fma,f16c")
namespace isa256 {
struct I {
  using T = __m256;
  using Mask = __m256i;
  static constexpr int L = 8;
  static inline Mask mask(int off, int len) {
    const __m256i iota = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    return _mm256_and_si256(_mm256_cmpgt_epi32(iota, _mm256_set1_epi32(off - 1)),
                            _mm256_cmpgt_epi32(_mm256_set1_epi32(off + len), iota));
  }
  static inline T load(const float* p, Mask m) { return _mm256_maskload_ps(p, m); }
  static inline void store(float* p, Mask m, T v) { _mm256_maskstore_ps(p, m, v); }
  static inline T load(const float* p) { return _mm256_loadu_ps(p); }
  static inline void store(float* p, T v) { _mm256_storeu_ps(p, v); }
  /** Lanes [a, e) of v as binary16 at p + a .. p + e (round to nearest even). */
  static inline void store_half(uint16_t* p, int a, int e, T v) {
    const __m128i h = _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT);
    if (a == 0 && e == L) {
      _mm_storeu_si128(reinterpret_cast<__m128i*>(p), h);
      return;
    }
    alignas(16) uint16_t part[L];
    _mm_store_si128(reinterpret_cast<__m128i*>(part), h);
    std::memcpy(p + a, part + a, static_cast<size_t>(e - a) * sizeof(uint16_t));
  }
  static inline T set1(float v) { return _mm256_set1_ps(v); }
  static inline T add(T a, T b) { return _mm256_add_ps(a, b); }
  static inline T sub(T a, T b) { return _mm256_sub_ps(a, b); }
  static inline T mul(T a, T b) { return _mm256_mul_ps(a, b); }
  static inline T fma(T a, T b, T c) { return _mm256_fmadd_ps(a, b, c); }
  static inline T max(T a, T b) { return _mm256_max_ps(a, b); }
  /** Lanes x 4 columns to consecutive pixels: v[q] holds lanes 2q, 2q+1's columns 0-3 each. */
  static inline void interleave4(const T* o, T* v) {
    const T t0 = _mm256_unpacklo_ps(o[0], o[1]), t1 = _mm256_unpackhi_ps(o[0], o[1]);
    const T t2 = _mm256_unpacklo_ps(o[2], o[3]), t3 = _mm256_unpackhi_ps(o[2], o[3]);
    const T u0 = _mm256_shuffle_ps(t0, t2, 0x44), u1 = _mm256_shuffle_ps(t0, t2, 0xEE);
    const T u2 = _mm256_shuffle_ps(t1, t3, 0x44), u3 = _mm256_shuffle_ps(t1, t3, 0xEE);
    v[0] = _mm256_permute2f128_ps(u0, u1, 0x20);
    v[1] = _mm256_permute2f128_ps(u2, u3, 0x20);
    v[2] = _mm256_permute2f128_ps(u0, u1, 0x31);
    v[3] = _mm256_permute2f128_ps(u2, u3, 0x31);
  }
};
#include "kernels/conv_winograd_isa.inc"
}  // namespace isa256
#pragma GCC pop_options

/** The padded input split by column phase: xs[n][c][r][m][u] = padded(r, 4u + m), one job per plane. */
void prepare_input(const float* x, Plan& p, int64_t threads, bool avx512) {
  float* xs = t_prep.get(static_cast<size_t>(p.N * p.C * p.PS));
  auto plane = [&](int64_t nc) {
    const int64_t n = p.IH * p.IW;
    const float* src;
    if (p.half.x) {  // widened here, one plane at a time on the thread that prepares it
      float* wide = t_plane.get(static_cast<size_t>(n));
      half_or_bf16_to_float_n(p.half.bf16, p.half.x + nc * n, wide, static_cast<size_t>(n));
      src = wide;
    } else {
      src = x + nc * n;
    }
    float* dst = xs + nc * p.PS;
    if (p.tile_major) {
      if (avx512) isa512::prepare_plane_tiles(p, src, dst);
      else isa256::prepare_plane_tiles(p, src, dst);
    } else if (avx512) {
      isa512::prepare_plane(p, src, dst);
    } else {
      isa256::prepare_plane(p, src, dst);
    }
  };
  const int64_t planes = p.N * p.C;
  // Split over the threads from 4096 prepared floats: below 65536 (until stop 36) squeezenet's 3x3 convs
  // (16 -> 64 at 55x55, 32 -> 128 at 27x27, 64 -> 256 at 13x13) spent 25-54 us of their 200-400 on one thread
  // here. In-model A/B (Zen 4, 20-30 pairs): their 3x3 convs 0.95x the time on both ISAs, the model 0.97-0.98x;
  // light_resnet50 and densenet121 0.98-0.99x on AVX2, 1.0x on AVX-512.
  if (threads > 1 && planes * p.PS >= 4096) {
    ThreadPool::instance().parallel_for(static_cast<size_t>(planes), [&](size_t i) { plane(static_cast<int64_t>(i)); });
  } else {
    for (int64_t i = 0; i < planes; ++i) plane(i);
  }
  p.xs = xs;
}
#endif

}  // namespace

void winograd_transform_weights(const float* w, int64_t M, int64_t C, int64_t mr, float* u) {
  // One output channel at a time through a [36][C] row buffer, scattered into the 36 matrices' panels.
  const int64_t stride = winograd_matrix_floats(M, C, mr);
  auto panel_row = [&](int64_t m) { return u + (m / mr) * mr * C + m % mr; };  // (xi 0, c 0) of row m
  for (int64_t m = M; m < ceil_div(M, mr) * mr; ++m)
    for (int64_t xi = 0; xi < kXi; ++xi)
      for (int64_t c = 0; c < C; ++c) panel_row(m)[xi * stride + c * mr] = 0.f;
  auto rows = [&](int64_t m0, int64_t m1) {
    thread_local Scratch<float> t_row;
    thread_local Scratch<double> t_gt;
    float* row = t_row.get(static_cast<size_t>(kXi * C));
    double* gt = t_gt.get(static_cast<size_t>(9 * C));
    for (int64_t m = m0; m < m1; ++m) {
#if defined(__x86_64__)
      if (cpu_features().isa == KernelIsa::kAvx512) isa512::transform_row(w + m * C * 9, C, gt, row);
      else isa256::transform_row(w + m * C * 9, C, gt, row);
#endif
      float* dst = panel_row(m);
      for (int64_t xi = 0; xi < kXi; ++xi)
        for (int64_t c = 0; c < C; ++c) dst[xi * stride + c * mr] = row[xi * C + c];
    }
  };
  ThreadPool& pool = ThreadPool::instance();
  const int64_t chunks = M * C >= 16384 ? std::min<int64_t>(M, 4 * static_cast<int64_t>(pool.concurrency())) : 1;
  if (chunks <= 1) {
    rows(0, M);
  } else {
    pool.parallel_for(static_cast<size_t>(chunks), [&](size_t i) {
      const int64_t ci = static_cast<int64_t>(i);
      rows(M * ci / chunks, M * (ci + 1) / chunks);
    });
  }
}

int64_t winograd_panel_rows(const SpatialGeometry& g, int64_t N) {
  const MicroKernelSet& mk = micro_kernels();
  const int64_t T = N * ceil_div(g.out[0], 4) * ceil_div(g.out[1], 4);
  return mk.tall_mr && T <= 2 * mk.lanes ? mk.tall_mr : mk.mr;
}

bool winograd_conv_supported(const SpatialGeometry& g) {
  if (g.nsp != 2) return false;
  for (int i = 0; i < 2; ++i)
    if (g.kernel[i] != 3 || g.stride[i] != 1 || g.dilation[i] != 1) return false;
  return cpu_features().vector_isa();
}

bool winograd_conv_preferred(const SpatialGeometry& g, int64_t C, int64_t M, int64_t N, bool pixel_major_ready) {
  // Measured single-thread against the best other path (bench/bench_winograd.py, docs/perf_history.md "wino").
  // Per tile the transforms cost ~C + M, the 36 GEMMs ~C * M: below C*M/(C+M) = 10 the transforms eat
  // the gain (3 -> 64 channels: 1.23x slower, 8 -> 8: 1.33x, 16 -> 16: 0.97x; 16 -> 64: 0.64x).
  if (C * M < 10 * (C + M)) return false;
  // U (36 x M x C floats, 4x the direct conv's weights) is read once per block of tiles: on few tiles that
  // traffic dominates (7x7 at batch 1, 4 tiles: 512 -> 512 1.9x slower, 128 -> 32 1.9x; 14x14, 16 tiles:
  // 512 -> 512 0.63x, 256 -> 256 0.83x, 128 -> 32 0.85x single-thread but 1.2x in a loaded 2-thread run,
  // where the pixel-major conv made for it wins; a batch of 8 7x7 images, 32 tiles: 0.54x).
  // In a model U streams from DRAM on every run (resnet50's 3x3 256 -> 256 at 14x14: 9.4 MB per conv, 4x
  // the weights), so which path wins there depends on the host's memory bandwidth at the time: A/B inside
  // light_resnet50 (2 threads) gave the pixel-major conv 0.87-0.92x of Winograd while the VM's neighbours
  // loaded memory, and Winograd 0.92x of the pixel-major conv when they did not. Since the pixel-major conv
  // prefetches its input rows and stores its tiles by gathers, it takes 256 -> 256 at 14x14 at 0.85-0.97x of
  // Winograd's time there (5 nodes, one A/B run); vgg19's 512 -> 512 at 14x14 is even (0.91-1.14x), and stays.
  // On AVX2 the pixel-major conv does not take 256 output channels (conv_pixel_major.cpp; forced, it took 1.5x
  // Winograd's time), and the im2col GEMM that would is 1.6-1.75x slower than Winograd there (light_resnet50,
  // AVX2): 256 -> 256 stays on Winograd.
  const int64_t tiles = N * ceil_div(g.out[0], 4) * ceil_div(g.out[1], 4);
  const bool avx512 = cpu_features().isa == KernelIsa::kAvx512;
  // Where a zmm FMA costs two ymm ones (Zen 4), the FMAs Winograd saves weigh twice as much as on Intel's
  // full-width units, and the two kinds of host disagree on the small planes:
  const bool half_rate = avx512 && cpu_features().avx512_double_pumped;
  // At 16-31 tiles (13x13 and 14x14 planes at batch 1), from C * M = 16384 since U is packed and prefetched
  // (stop 35). Stop 36, A/B inside the models on Zen 4 (2 threads, 20-40 pairs, Winograd against the path
  // this rule chose before): squeezenet's 3x3 64->256 at 13x13 0.58-0.66x the time on AVX2 and 0.60-0.77x on
  // AVX-512; inception_v1's 96->208 .. 160->320 at 13x13 0.52-0.76x on both; inception_v2's 128->128 ..
  // 192->256 at 14x14 0.51-0.63x. Below 16384 the gain turns: squeezenet's 48->192 (9216) 1.17-1.2x on AVX2
  // (0.74-0.92x on AVX-512), densenet121's 128->32 (4096) 1.5x. Intel's full-rate AVX-512 keeps its measured
  // 131072 (not re-measured with U packed).
  const int64_t min_cm = avx512 && !half_rate ? 131072 : 16384;
  if (pixel_major_ready && avx512 && N == 1) {
    // Stop 24, with the pixel-major conv's weights packed once per model, A/B inside the models on AVX-512
    // (Intel Xeon, 2 threads, 20 pairs): it took 0.73-0.74x Winograd's time on vgg19's 3x3 512->512 at 14x14
    // (16 tiles), 0.81-0.92x on resnet50's 128->128 and 0.87x on densenet121's 128->32 at 28x28 (49 tiles).
    // Stop 33, the same A/B on AMD EPYC Zen 4 (2 threads, 15-20 pairs, Winograd forced against this rule's
    // choice): Winograd took 0.61-0.62x the pixel-major conv's time on vgg19's 512->512 at 14x14, 0.81x on
    // resnet50's 256->256 at 14x14 (its im2col GEMM before), 0.68-0.69x on its 128->128 at 28x28; the pixel-major
    // conv stays ahead on densenet121's 128->32 (Winograd 1.2x at 28x28, 1.5x at 14x14, 3x at 7x7) and on 7x7
    // planes (resnet50's 512->512: 2.2x).
    if (half_rate ? tiles < 16 || C * M < 16384 : tiles < 32 || (tiles < 64 && C * M < 65536)) return false;
  }
  return tiles >= 32 || (tiles >= 16 && C * M >= min_cm);
}

void winograd_conv_f32(const float* x, int64_t N, int64_t C, const SpatialGeometry& g, const float* u, int64_t M,
                       float* y, const float* bias, const float* residual, const Activation& act,
                       const WinogradHalfIo& half) {
#if defined(__x86_64__)
  const MicroKernelSet& mk = micro_kernels();
  Plan p{};
  p.N = N;
  p.C = C;
  p.M = M;
  p.IH = g.in[0];
  p.IW = g.in[1];
  p.pt = g.pad_begin[0];
  p.pl = g.pad_begin[1];
  p.OH = g.out[0];
  p.OW = g.out[1];
  if (N <= 0 || C <= 0 || M <= 0 || p.OH <= 0 || p.OW <= 0) return;
  p.TH = ceil_div(p.OH, 4);
  p.TW = ceil_div(p.OW, 4);
  p.T1 = p.TH * p.TW;
  p.T = N * p.T1;
  p.U = p.TW + 1;
  p.R = 4 * p.TH + 2;
  // Tile-major where a tile row fills under 3/4 of its vectors (AVX-512: 28x28 and 14x14 planes, 7 and 4
  // tiles per row; AVX2: 14x14); ACL_SIM_WINO_TILE_MAJOR=0 / 1 forces either, for A/B and the tests.
  const int64_t lanes = mk.lanes;
  const char* tm_env = std::getenv("ACL_SIM_WINO_TILE_MAJOR");
  p.tile_major = tm_env && *tm_env ? std::strcmp(tm_env, "1") == 0 : 4 * p.TW < 3 * ceil_div(p.TW, lanes) * lanes;
  p.PS = p.tile_major ? kXi * p.T1 : p.R * 4 * p.U;
  for (int k = 0; k < 6; ++k)
    for (int c = 0; c < 6; ++c)
      p.in_off[6 * k + c] = p.tile_major ? (6 * k + c) * p.T1 : k * 4 * p.U + (c & 3) * p.U + (c >> 2);
  p.u = u;
  p.y = y;
  p.bias = bias;
  p.res = residual;
  p.act = act;
  p.half = half;
  p.half_in_registers = half.y && !half.bf16 && (act.none() || act.kind == ActKind::kRelu);
  p.mr = mk.mr;
  // Strips of 32 tiles on AVX-512, not the widest 48: the block's transformed input and GEMM output (36 x C x
  // strip floats each) then stay nearer L2; in light_resnet50 its 3x3 convs ran 0.97x (three A/B runs inside
  // the model, bench_node_ab.py "X=1" "ACL_SIM_WINO_NV=2"; densenet121 unchanged).
  const int64_t nv_default = mk.lanes == 16 ? std::min<int64_t>(2, mk.max_nv) : mk.max_nv;
  const int64_t nv = std::min<int64_t>(mk.max_nv, env_int("ACL_SIM_WINO_NV", nv_default));
  p.W = nv * mk.lanes;
  p.kernels = mk.fn;
  // Few tiles (AVX2, 14x14 at batch 1: 16) make every strip 16 wide, where the 4-row kernel has 8 accumulators
  // for the FMA latency's 8 in flight: the 6-row one (12) took 0.94-0.99x the time on light_resnet50's five
  // 3x3 256 -> 256 convs at 14x14 (bench_node_ab.py, 20 pairs), and 1.1x on wider strips (28x28), which keep
  // the 4x24 kernel.
  p.column = mk.column;
  if (winograd_panel_rows(g, N) != mk.mr) {
    p.W = 2 * mk.lanes;
    p.mr = mk.tall_mr;
    p.kernels = mk.tall;
    p.column = nullptr;
  }
  // Strips per block: V (36 x C x block floats) within ~512 KiB of L2.
  const int64_t strip_bytes = kXi * C * p.W * 4;
  p.S = env_int("ACL_SIM_WINO_S", std::clamp<int64_t>((512 << 10) / strip_bytes, 1, 4));
  p.nt = p.S * p.W;
  // M chunk: the GEMM output of a block (36 x mb x block floats) within ~256 KiB.
  p.mb = env_int("ACL_SIM_WINO_MB", std::max<int64_t>(1, (256 << 10) / (kXi * p.nt * 4) / p.mr) * p.mr);
  // K slices of the 36 GEMMs: up to 512 channels in one (stop 25, in-model A/B, 15 pairs: AVX-512 vgg19's 3x3
  // convs 0.972x the time of 256-channel slices, resnet50 / densenet121 and AVX2 0.999-1.004).
  p.kc = env_int("ACL_SIM_WINO_KC", 512);
  // A last block of a few tiles (28x28: 49 = 48 + 1) would stream all of U again for them: the block
  // before it takes them instead (its last strip gets wider by up to a third of a strip).
  const int64_t rem = p.T % p.nt;
  p.blocks = p.T > p.nt && rem > 0 && rem <= p.W / 3 ? p.T / p.nt : ceil_div(p.T, p.nt);
  const int64_t threads = static_cast<int64_t>(ThreadPool::instance().concurrency());
  // Shares of M per block, for balance: the fewest that spread the full blocks evenly over the threads (or
  // make 4 per thread), since each share repeats its block's input transform (6 shares of one 16-tile
  // block measured slower on 2 threads than 2). A last, partial block is small beside the full ones.
  const int64_t full_blocks = std::max<int64_t>(1, p.T / p.nt);
  p.m_parts = 1;
  while (threads > 1 && (full_blocks * p.m_parts) % threads != 0 && full_blocks * p.m_parts < 4 * threads &&
         ceil_div(p.M, p.mr) >= 2 * (p.m_parts + 1))
    ++p.m_parts;

  const bool avx512 = cpu_features().isa == KernelIsa::kAvx512;
  prepare_input(x, p, threads, avx512);
  const size_t jobs = static_cast<size_t>(p.blocks * p.m_parts);
  auto job = [&p, avx512](size_t i) {
    if (avx512) isa512::run_job(p, i);
    else isa256::run_job(p, i);
  };
  if (jobs == 1 || threads == 1) {
    for (size_t i = 0; i < jobs; ++i) job(i);
  } else {
    ThreadPool::instance().parallel_for(jobs, job);
  }
#else
  (void)x, (void)N, (void)C, (void)g, (void)u, (void)M, (void)y, (void)bias, (void)residual, (void)act, (void)half;
#endif
}

}  // namespace acl_sim
