// Pixel-major direct convolution: see conv_pixel_major.h.
#include "kernels/conv_pixel_major.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "acl/acl_base.h"
#include "common/error.h"
#include "common/fp16.h"
#include "executor/thread_pool.h"
#include "kernels/conv_direct_input.h"
#include "kernels/cpu_features.h"
#include "kernels/epilogue.h"
#include "kernels/gemm_blocking.h"
#include "kernels/gemm_simd.h"
#include "kernels/transpose8x8.h"

namespace acl_sim {
namespace {

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

/**
 * tile[r*NR + j] = sum_k xb[off[k] + r] * w[k*NR + j] for the MR pixels r of one micro-tile and the NR
 * channels j of one weight panel (w: [K][NR]). Two-row kernels (AVX-512, SPLIT < MR) read pixels r >= SPLIT
 * from the next input row instead: xb[off[k] + r + row_delta] (the others ignore row_delta).
 */
using PixelKernelFn = void (*)(int64_t K, const float* xb, const int64_t* off, const float* w, float* tile,
                               int64_t row_delta);

#if defined(__x86_64__)
template <int MR, int SPLIT = MR, bool kPrefetch = true>
ACL_SIM_TARGET_AVX512 void kernel_avx512(int64_t K, const float* xb, const int64_t* off, const float* w,
                                         float* tile, int64_t row_delta) {
  __m512 acc[MR][2];
#pragma GCC unroll 14
  for (int r = 0; r < MR; ++r) acc[r][0] = acc[r][1] = _mm512_setzero_ps();
#pragma GCC unroll 2
  for (int64_t k = 0; k < K; ++k) {
    const float* bk = xb + off[k];
    // The panel streams once from DRAM per inference (4608 x 32 floats for a 3x3 over 512 channels): ask for
    // it 16 k ahead, where the hardware prefetcher of one contiguous stream falls behind (3x3 512 at 7x7: 0.96x).
    if (kPrefetch) _mm_prefetch(reinterpret_cast<const char*>(w + (k + 16) * 32), _MM_HINT_T0);
    if (kPrefetch) _mm_prefetch(reinterpret_cast<const char*>(w + (k + 16) * 32 + 16), _MM_HINT_T0);
    // And the input row segment 16 k ahead (off[] has the slack): each k jumps to another channel's plane,
    // which no hardware prefetcher follows (3x3/2 and 3x3 convs at 56..14: 0.95-0.97x one-node).
    const float* ahead = xb + off[k + 16];
    if (kPrefetch) _mm_prefetch(reinterpret_cast<const char*>(ahead), _MM_HINT_T0);
    if (kPrefetch) _mm_prefetch(reinterpret_cast<const char*>(ahead + SPLIT - 1), _MM_HINT_T0);
    if (kPrefetch && SPLIT < MR) _mm_prefetch(reinterpret_cast<const char*>(ahead + row_delta + MR - 1), _MM_HINT_T0);
    const float* bk2 = bk + row_delta;
    const __m512 w0 = _mm512_loadu_ps(w + k * 32), w1 = _mm512_loadu_ps(w + k * 32 + 16);
#pragma GCC unroll 14
    for (int r = 0; r < MR; ++r) {
      const __m512 a = _mm512_set1_ps(r < SPLIT ? bk[r] : bk2[r]);
      acc[r][0] = _mm512_fmadd_ps(a, w0, acc[r][0]);
      acc[r][1] = _mm512_fmadd_ps(a, w1, acc[r][1]);
    }
  }
#pragma GCC unroll 14
  for (int r = 0; r < MR; ++r) {
    _mm512_storeu_ps(tile + r * 32, acc[r][0]);
    _mm512_storeu_ps(tile + r * 32 + 16, acc[r][1]);
  }
}

template <int MR>
ACL_SIM_TARGET_AVX2 void kernel_avx2(int64_t K, const float* xb, const int64_t* off, const float* w, float* tile,
                                     int64_t) {
  __m256 acc[MR][2];
#pragma GCC unroll 6
  for (int r = 0; r < MR; ++r) acc[r][0] = acc[r][1] = _mm256_setzero_ps();
#pragma GCC unroll 2
  for (int64_t k = 0; k < K; ++k) {
    const float* bk = xb + off[k];
    const __m256 w0 = _mm256_loadu_ps(w + k * 16), w1 = _mm256_loadu_ps(w + k * 16 + 8);
#pragma GCC unroll 6
    for (int r = 0; r < MR; ++r) {
      const __m256 a = _mm256_broadcast_ss(bk + r);
      acc[r][0] = _mm256_fmadd_ps(a, w0, acc[r][0]);
      acc[r][1] = _mm256_fmadd_ps(a, w1, acc[r][1]);
    }
  }
#pragma GCC unroll 6
  for (int r = 0; r < MR; ++r) {
    _mm256_storeu_ps(tile + r * 16, acc[r][0]);
    _mm256_storeu_ps(tile + r * 16 + 8, acc[r][1]);
  }
}

/**
 * One output channel of a transposed tile, its len pixels in v: (residual, bias, Relu) in registers, in the order
 * residual_bias_activation adds them, then one masked store; other activations get bias_activation on the stored
 * row. r (the residual row, or null) may be d itself (in place): it is read before d is written.
 */
struct ChannelStore {
  int len;
  bool relu, in_regs;  // plain Relu; whether the activation is done in registers (none or plain Relu)
  const Activation* act;
  bool bf16;  // a half output (hd below) holds bf16, else fp16
  explicit ChannelStore(int64_t n, const Activation& a, bool half_is_bf16)
      : len(static_cast<int>(n)), relu(a.plain_relu()), in_regs(a.none() || a.plain_relu()), act(&a),
        bf16(half_is_bf16) {}
};

/** hd non-null: the channel's output is binary16 (fp16 from registers; bf16 or a later activation narrowed from d). */
template <class V>
__attribute__((always_inline)) inline void store_channel(typename V::T v, const ChannelStore& cs, float* d,
                                                         const float* r, const float* bias, uint16_t* hd) {
  if (r) v = V::add(v, V::load_n(r, cs.len));
  if (!cs.in_regs) {
    V::store_n(d, v, cs.len);
    bias_activation(d, static_cast<size_t>(cs.len), bias ? *bias : 0.f, *cs.act);
    if (hd) float_to_half_or_bf16_n(cs.bf16, d, hd, static_cast<size_t>(cs.len));
    return;
  }
  if (bias) v = V::add(v, V::set1(*bias));
  if (cs.relu) v = V::max(v, V::zero());
  if (hd && !cs.bf16) {
    V::store_half_n(hd, v, cs.len);
    return;
  }
  V::store_n(d, v, cs.len);
  if (hd) float_to_bf16_n(d, hd, static_cast<size_t>(cs.len));
}

/**
 * The AVX-512 tile's transposed store: per 8 channels, pixels 0-7 and 8-13 of tile[r][32] are two 8x8 transposes
 * in ymm registers (rows past len zero), joined per channel into one zmm of its len pixels for store_channel.
 * Until stop 33 each channel was one masked gather from the tile: on AMD Zen 4, whose gathers are microcoded, the
 * store took 13% of the 7x7/2 stem's samples (single thread); with the shuffles the pixel-major stem went
 * from 1.12x the direct conv's time to 1.02x there (through run_op). Not measured on Intel since. (A scalar
 * copy plus one epilogue call per channel took 14% of the kernel's time on a 3x3/2 conv over 128 channels.)
 */
ACL_SIM_TARGET_AVX512 void store_tile_avx512(const float* tile, int64_t len, int64_t channels, float* dst,
                                             const float* res, int64_t P, const float* bias, const Activation& act,
                                             uint16_t* hdst, bool bf16) {
  const ChannelStore cs(len, act, bf16);
  const bool two_halves = len > 8;
  for (int64_t g = 0; g * 8 < channels; ++g) {
    __m256 lo[8], hi[8];
#pragma GCC unroll 8
    for (int i = 0; i < 8; ++i) lo[i] = i < len ? _mm256_loadu_ps(tile + i * 32 + g * 8) : _mm256_setzero_ps();
    transpose8x8(lo);
    if (two_halves) {
#pragma GCC unroll 8
      for (int i = 0; i < 8; ++i)
        hi[i] = 8 + i < len ? _mm256_loadu_ps(tile + (8 + i) * 32 + g * 8) : _mm256_setzero_ps();
      transpose8x8(hi);
    }
    const int64_t count = std::min<int64_t>(8, channels - g * 8);
    for (int64_t jj = 0; jj < count; ++jj) {
      const int64_t j = g * 8 + jj;
      __m512 v = _mm512_zextps256_ps512(lo[jj]);
      if (two_halves) v = _mm512_insertf32x8(v, hi[jj], 1);
      store_channel<simd::V16>(v, cs, dst + j * P, res ? res + j * P : nullptr, bias ? bias + j : nullptr,
                               hdst ? hdst + j * P : nullptr);
    }
  }
}

/**
 * The AVX2 tile's transposed store, as store_tile_avx512 does it: tile[r][16] for len <= 8 pixels is two 8x8
 * transposes in registers (rows past len zero), then store_channel per channel, instead of a scalar copy and an
 * epilogue call per channel:
 * densenet121's 3x3 128->32 convs (the AVX2 pixel-major ones) 0.988x the time (stop 30, 20 pairs in the model).
 */
ACL_SIM_TARGET_AVX2 void store_tile_avx2(const float* tile, int64_t len, int64_t channels, float* dst,
                                         const float* res, int64_t P, const float* bias, const Activation& act,
                                         uint16_t* hdst, bool bf16) {
  const ChannelStore cs(len, act, bf16);
  for (int64_t half = 0; half * 8 < channels; ++half) {
    __m256 r[8];
#pragma GCC unroll 8
    for (int i = 0; i < 8; ++i) r[i] = i < len ? _mm256_loadu_ps(tile + i * 16 + half * 8) : _mm256_setzero_ps();
    transpose8x8(r);
    const int64_t count = std::min<int64_t>(8, channels - half * 8);
    for (int64_t jj = 0; jj < count; ++jj) {
      const int64_t j = half * 8 + jj;
      store_channel<simd::V8>(r[jj], cs, dst + j * P, res ? res + j * P : nullptr, bias ? bias + j : nullptr,
                              hdst ? hdst + j * P : nullptr);
    }
  }
}
#endif

/** Portable path (also what the SIMD kernels are tested against through the op). */
template <int MR>
void kernel_scalar(int64_t K, const float* xb, const int64_t* off, const float* w, float* tile, int64_t) {
  float acc[MR][8] = {};
  for (int64_t k = 0; k < K; ++k) {
    const float* bk = xb + off[k];
    for (int r = 0; r < MR; ++r)
      for (int j = 0; j < 8; ++j) acc[r][j] += bk[r] * w[k * 8 + j];
  }
  for (int r = 0; r < MR; ++r)
    for (int j = 0; j < 8; ++j) tile[r * 8 + j] = acc[r][j];
}

constexpr int kMaxMr = 14;

struct PixelKernels {
  int nr;                  // channels per panel
  int max_mr;              // widest micro-tile, in pixels
  PixelKernelFn fn[kMaxMr];  // fn[mr - 1]
  // Micro-tiles of two output rows of OW = 4..7 pixels (two_rows[OW - 1], AVX-512; null elsewhere): a 7-wide
  // output (3x3 512->512 and 3x3/2 at 7x7) would otherwise run 7 pixels x 2 vectors, 14 accumulators
  // (light_resnet50's three such convs: 0.86-0.87x in the model; one-node 3x3 128->32 at 7x7 0.85x).
  PixelKernelFn two_rows[kMaxMr / 2];
  // Without the software prefetches (AVX-512; null elsewhere), for K <= kShortK: the weight panel and the few
  // input rows stay in L1 there, and the 4-5 prefetches per k only take issue slots from the k step's 28 FMAs
  // and 16 loads. Stop 27, in-model A/B (Intel Xeon, 2 threads, 30 pairs): light_resnet50's 7x7/2 stem (K = 147)
  // 0.96x the time; at K >= 1024 (1x1 1024->256, 3x3 256 at 14x14) dropping them cost 1.05-1.36x.
  PixelKernelFn short_k[kMaxMr];
};

// A weight panel of K x 32 floats up to 24 KiB: half of a 48 KiB L1d.
constexpr int64_t kShortK = 192;

#if defined(__x86_64__)
template <int... I>
PixelKernels avx512_kernels(std::integer_sequence<int, I...>) {
  return {32, 14, {kernel_avx512<I + 1>...},
          {nullptr, nullptr, nullptr, kernel_avx512<8, 4>, kernel_avx512<10, 5>, kernel_avx512<12, 6>,
           kernel_avx512<14, 7>},
          {kernel_avx512<I + 1, I + 1, false>...}};
}
template <int... I>
PixelKernels avx2_kernels(std::integer_sequence<int, I...>) {
  return {16, 6, {kernel_avx2<I + 1>...}, {}, {}};
}
#endif

PixelKernels make_kernels() {
#if defined(__x86_64__)
  switch (cpu_features().isa) {
    case KernelIsa::kAvx512:
      return avx512_kernels(std::make_integer_sequence<int, 14>{});
    case KernelIsa::kAvx2: return avx2_kernels(std::make_integer_sequence<int, 6>{});
    default: break;
  }
#endif
  return {8, 4, {kernel_scalar<1>, kernel_scalar<2>, kernel_scalar<3>, kernel_scalar<4>}, {}, {}};
}

const PixelKernels& kernels() {
  static const PixelKernels k = make_kernels();
  return k;
}

/** One conv as the sweep sees it. */
struct Plan {
  DirectInput in;
  int64_t M, panels, P;
  int64_t mr, per_row, blocks;  // micro-tile width, micro-tiles per output row, micro-tiles in all
  bool two_rows;                // micro-tiles are pairs of whole output rows (PixelKernels::two_rows)
  const float* w;
  float* y;
  const GemmEpilogue* ep;
  int64_t panel_blocks, block_blocks;  // the tile grid
};

/** Micro-tiles [b0, b1) of panel pb: kernel, then the transposed store with the epilogue. */
void sweep(const Plan& p, int64_t pb, int64_t b0, int64_t b1, float* tile) {
  const PixelKernels& ks = kernels();
  const int64_t nr = ks.nr, K = p.in.K;
  const float* wp = p.w + pb * K * nr;
  const GemmEpilogue& ep = *p.ep;
  const int64_t m0 = pb * nr, channels = std::min(nr, p.M - m0);
  for (int64_t b = b0; b < b1; ++b) {
    int64_t oh, ow0, len;
    PixelKernelFn fn;
    if (p.two_rows) {  // rows 2b and 2b + 1: consecutive in the output as well
      oh = 2 * b;
      ow0 = 0;
      const bool pair = oh + 1 < p.in.OH;
      len = pair ? 2 * p.in.OW : p.in.OW;
      fn = pair ? ks.two_rows[p.in.OW - 1] : ks.fn[p.in.OW - 1];
    } else {
      oh = b / p.per_row;
      ow0 = (b % p.per_row) * p.mr;
      len = std::min(p.mr, p.in.OW - ow0);
      fn = p.in.K <= kShortK && ks.short_k[len - 1] ? ks.short_k[len - 1] : ks.fn[len - 1];
    }
    fn(K, p.in.xp + oh * p.in.pitch + ow0, p.in.off, wp, tile, p.in.pitch - p.in.OW);
    const int64_t q = oh * p.in.OW + ow0;
    uint16_t* hdst = ep.out_half ? ep.out_half + m0 * p.P + q : nullptr;
#if defined(__x86_64__)
    if (nr == 32) {
      store_tile_avx512(tile, len, channels, p.y + m0 * p.P + q, ep.residual ? ep.residual + m0 * p.P + q : nullptr,
                        p.P, ep.row_bias ? ep.row_bias + m0 : nullptr, ep.act, hdst, ep.half_is_bf16);
      continue;
    }
    if (nr == 16) {
      store_tile_avx2(tile, len, channels, p.y + m0 * p.P + q, ep.residual ? ep.residual + m0 * p.P + q : nullptr,
                      p.P, ep.row_bias ? ep.row_bias + m0 : nullptr, ep.act, hdst, ep.half_is_bf16);
      continue;
    }
#endif
    for (int64_t j = 0; j < channels; ++j) {
      const int64_t m = m0 + j;
      float* dst = p.y + m * p.P + q;
      // The residual may be dst itself (in place): each element is read before it is written.
      const float* res = ep.residual ? ep.residual + m * p.P + q : nullptr;
      for (int64_t r = 0; r < len; ++r) dst[r] = res ? tile[r * nr + j] + res[r] : tile[r * nr + j];
      bias_activation(dst, static_cast<size_t>(len), ep.row_bias ? ep.row_bias[m] : 0.f, ep.act);
      if (hdst) float_to_half_or_bf16_n(ep.half_is_bf16, dst, hdst + j * p.P, static_cast<size_t>(len));
    }
  }
}

void run_tile(const Plan& p, size_t index) {
  float tile[kMaxMr * 32];
  const int64_t tp = static_cast<int64_t>(index) / p.block_blocks, tb = static_cast<int64_t>(index) % p.block_blocks;
  const int64_t p0 = GemmBlocking::grid_begin(tp, p.panel_blocks, p.panels, 1);
  const int64_t p1 = GemmBlocking::grid_begin(tp + 1, p.panel_blocks, p.panels, 1);
  const int64_t b0 = GemmBlocking::grid_begin(tb, p.block_blocks, p.blocks, 1);
  const int64_t b1 = GemmBlocking::grid_begin(tb + 1, p.block_blocks, p.blocks, 1);
  // Panel by panel: its weights stay in L2 while the tile's micro-tiles stream past them.
  for (int64_t pb = p0; pb < p1; ++pb) sweep(p, pb, b0, b1, tile);
}

}  // namespace

int64_t pixel_major_packed_size(int64_t m_rows, int64_t k) {
  const int64_t nr = kernels().nr;
  return ceil_div(m_rows, nr) * nr * k;
}

void pixel_major_pack_weights(const float* w, int64_t m_rows, int64_t k, float* dst) {
  const int64_t nr = kernels().nr;
  for (int64_t pb = 0; pb < ceil_div(m_rows, nr); ++pb) {
    float* panel = dst + pb * k * nr;
    for (int64_t j = 0; j < nr; ++j) {
      const int64_t m = pb * nr + j;
      if (m >= m_rows) {
        for (int64_t kk = 0; kk < k; ++kk) panel[kk * nr + j] = 0.f;
        continue;
      }
      const float* row = w + m * k;
      for (int64_t kk = 0; kk < k; ++kk) panel[kk * nr + j] = row[kk];
    }
  }
}

bool pixel_major_conv_applies(const SpatialGeometry& g, int64_t channels, int64_t m_rows, bool any) {
  if (!direct_input_supported(g) || channels <= 0 || m_rows <= 0) return false;
  if (any) return true;
  // Measured (one-node models, AVX-512, docs/perf_history.md "smallconv"): ahead of the channel-major direct
  // conv / im2col GEMM on small output planes (<= 256 pixels) of stride-1 windowed convs with long K
  // (3x3 128->32 at 7x7 / 14x14 0.52x / 0.64x of the im2col GEMM, 0.85x / 0.9x of the direct conv; 3x3
  // 512->512 at 7x7 ~0.96x). With short K, where the transposed store costs more than the junk columns it
  // saves (the stem, 1x1 convs: 1.1-2.8x), it is slower, but for the AVX-512 cases below.
  bool pointwise = true, strided = false;
  for (int i = 0; i < g.nsp; ++i) {
    pointwise = pointwise && g.kernel[i] == 1;
    strided = strided || g.stride[i] > 1;
  }
  // Strided windows over many channels into 14x14..27x27 planes (resnet50's 3x3/2 at 256) run 0.97-1.03x of
  // the im2col GEMM in the model on AVX-512 (A/B inside light_resnet50, 2 threads; 0.80-0.96x at stop 24).
  // Into 28x28 (the 3x3/2 at 128 from 56x56) the GEMM, since it reads its weights packed and prefetched (stop
  // 24), took 0.87-0.88x the pixel-major conv's time (stop 25, 20-30 pairs); into 7x7 (the 3x3/2 at 512), since
  // its K slices go as deep as L2 allows (stop 25), 0.84-0.94x (stop 29, 12-25 pairs).
  const bool wide = kernels().nr >= 32;  // the AVX-512 kernel (32 channels per tile)
  if (strided && !pointwise && channels * g.kernel_size() >= 1024 && wide && g.out_size() >= 196 &&
      g.out_size() < 784)
    return true;
  // Stop 24, A/B inside the models on AVX-512 (Intel Xeon, 2 threads, 16-20 pairs): the 7x7/2 stems over 3
  // channels took 0.81-0.86x the direct conv's time (light_resnet50, densenet121; PP-OCR's 3x3/2 stems into 8
  // and 16 channels 1.3-2.8x: they stay), 1x1 convs with K >= 512 on 14x14 planes 0.88-0.97x (1024->256,
  // 1024->512, 512->1024/2); 1x1 at K = 256 (1.05x), on 7x7 (1.15x) or from 28x28 planes up (1.1-1.8x) do not.
  // On Zen 4 (AVX-512 on 256-bit units) the direct conv took the stem at 0.89x the pixel-major conv's time
  // (stop 33, light_resnet50, 20 pairs; 0.98x through run_op once the tile store lost its gathers).
  if (wide && !cpu_features().avx512_double_pumped && strided && !pointwise && channels < 8 &&
      channels * g.kernel_size() >= 64 && m_rows >= 32)
    return true;
  if (wide && pointwise && channels >= 512 && g.out_size() >= 196 && g.out_size() < 784) return true;
  // Stride-1 windows up to 28x28 planes into at most 128 channels too (there ahead of Winograd, see
  // winograd_conv_preferred: resnet50's 3x3 128->128 0.81-0.92x, densenet121's 3x3 128->32 0.87x); vgg19's
  // 3x3 256->512 and 512->512 at 28x28 took 1.09-1.1x Winograd's time.
  const int64_t largest_plane = wide && m_rows <= 128 ? 784 : 256;
  if (pointwise || strided || channels * g.kernel_size() < 1024 || g.out_size() > largest_plane) return false;
  // The AVX2 kernel (6 pixels x 16 channels) only gains where the others are weakest, few output channels:
  // 3x3 128->32 at 7x7 / 14x14 0.89x / 0.93x, but 3x3 512->512 at 7x7 1.12x and 3x3/2 256, 512 1.3-1.4x.
  return wide || m_rows <= 64;
}

void pixel_major_conv_f32(const ConvInputPlanes& x, int64_t channels, const SpatialGeometry& g, const float* packed_w,
                          int64_t m_rows, float* y, const GemmEpilogue& ep, bool parallel) {
  const PixelKernels& ks = kernels();
  Plan p{};
  p.in = prepare_direct_input(x, channels, g, parallel);
  if (m_rows <= 0 || p.in.K <= 0 || p.in.OH <= 0 || p.in.OW <= 0) return;
  ACL_SIM_REQUIRE(p.in.xp != nullptr, ACL_ERROR_INTERNAL_ERROR,
                  "Conv: the pixel-major conv reads a 16-bit input only through the padded copy");
  p.M = m_rows;
  p.panels = ceil_div(m_rows, ks.nr);
  p.P = p.in.OH * p.in.OW;
  // Micro-tiles split each output row evenly: 14 -> 14, 28 -> 2 x 14, 7 -> 7 (AVX2: 14 -> 5 + 5 + 4).
  // When they do not share out evenly over the threads (3x3 128->32 at 7x7: one panel x 7 rows on 2
  // threads, 4 + 3), each is cut in two along the row (7 -> 4 + 3 pixels) while that leaves >= 4 pixels
  // (8 accumulators, still enough to hide the FMA latency).
  const int64_t threads = parallel ? static_cast<int64_t>(ThreadPool::instance().concurrency()) : 1;
  p.per_row = ceil_div(p.in.OW, ks.max_mr);
  const int64_t units = p.panels * p.in.OH * p.per_row;
  if (threads > 1 && ceil_div(units, threads) * threads * 10 > units * 11 && ceil_div(p.in.OW, 2 * p.per_row) >= 4)
    p.per_row *= 2;
  p.mr = ceil_div(p.in.OW, p.per_row);
  p.per_row = ceil_div(p.in.OW, p.mr);
  p.blocks = p.in.OH * p.per_row;
  p.two_rows = p.in.OW >= 4 && 2 * p.in.OW <= ks.max_mr && ks.two_rows[p.in.OW - 1] && p.in.OH >= 2;
  if (p.two_rows) {
    p.per_row = 1;
    p.mr = 2 * p.in.OW;
    p.blocks = ceil_div(p.in.OH, 2);
  }
  p.w = packed_w;
  p.y = y;
  p.ep = &ep;
  // Every tile streams its panels' weights (K x 32 floats each; from memory in a model, where they do not stay
  // cached between runs): splitting the blocks too reads them again per block range. Weighed as the GEMM weighs
  // re-reading A per N block, a streamed weight costing about as much as 48 FMAs. The block grid's unit is at
  // most a thread's share of the blocks: a conv with one panel (densenet121's 3x3 128->32) must still split its
  // rows. Until stop 28 the unit was the re-read weight itself (82 blocks of 14 pixels), so those convs' 4-56
  // blocks made one tile, run by the calling thread alone: a one-node 3x3 128->32 at 28x28 took 0.33 ms, now
  // 0.18 ms; densenet121's nodes 0.88x the time (in-model A/B, 20 pairs), light_resnet50 and vgg19 unchanged.
  const int64_t block_pixels = std::max<int64_t>(1, p.two_rows ? p.mr : p.in.OW / p.per_row);
  const int64_t reread = std::max<int64_t>(1, 48 * 24 / block_pixels);
  const int64_t unit = std::max<int64_t>(1, std::min(reread, p.blocks / threads));
  const TileSplit split = choose_tile_split(p.panels, p.blocks, 1, unit, 2.0 * m_rows * p.P * p.in.K, threads, 1, 1,
                                            -1, static_cast<double>(reread));
  p.panel_blocks = split.m_blocks;
  p.block_blocks = split.n_blocks;
  const size_t tiles = static_cast<size_t>(p.panel_blocks * p.block_blocks);
  if (tiles == 1 || threads == 1) {
    for (size_t i = 0; i < tiles; ++i) run_tile(p, i);
    return;
  }
  ThreadPool::instance().parallel_for(tiles, [&p](size_t i) { run_tile(p, i); });
}

}  // namespace acl_sim
