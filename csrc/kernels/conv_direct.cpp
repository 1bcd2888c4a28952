// Direct convolution: see conv_direct.h for the padded-pitch and phase-plane scheme.
//
// Blocking follows the packed GEMM (gemm.cpp): the output [M, Nq] (Nq
// padded-width positions) is cut into tiles, one thread-pool index each; a
// tile walks K in slices and, per strip of output columns, sweeps its MR-row
// weight panels. The strip's input rows stay in L1 across the M sweep and the
// weights are read in place (row-major [M, K], as the GEMM's direct-A path).
#include "kernels/conv_direct.h"

#include <algorithm>
#include <cstring>
#include <type_traits>

#include "acl/acl_base.h"
#include "common/error.h"
#include "common/fp16.h"
#include "executor/thread_pool.h"
#include "kernels/conv_direct_kernels.h"
#include "kernels/conv_direct_packed.h"
#include "kernels/cpu_features.h"
#include "kernels/epilogue.h"
#include "kernels/gemm_blocking.h"
#include "kernels/gemm_simd.h"
#include "kernels/thread_scratch.h"

namespace acl_sim {
namespace {

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }
int64_t round_up(int64_t a, int64_t b) { return ceil_div(a, b) * b; }

// A tile's output on the padded row pitch.
thread_local Scratch<float> t_ctile;

const ConvKernels& kernels() { return direct_conv_kernels(); }

/** The conv as seen by the kernels: 2-D (a 1-D conv is 1 x W) over the prepared input's phase planes. */
struct Plan {
  int64_t C, M, K;
  int64_t IHs, pitch;    // rows and row pitch of one (phase) plane of the prepared input
  int64_t OH, OW, KH, KW;
  int64_t Nq;            // output positions on the plane pitch computed: (OH - 1) * pitch + OW
  bool in_place_out;     // pitch == OW: positions are output pixels, so the kernels write y directly
  bool by_rows;          // strips never cross an output row: the kernels write y directly, no junk columns
  const float* xp;       // prepared input [phases, C, IHs, pitch] (the caller's x when no pads and stride 1)
  const uint16_t* xh;    // or the caller's binary16 x, read in place by the half-B kernels (xp null)
  const int64_t* off;    // K row offsets into xp
  const float* w;
  const float* wpack;    // w as [panel][k][8] (conv_direct_packed.h), or nullptr
  float* y;
  const GemmEpilogue* ep;  // without the residual when y holds it
  // ep is at most bias, residual and ReLU: kernels writing y in place apply it in their last slice's stores.
  bool epilogue_in_kernel;
  bool half_in_kernel;  // the kernels store the fp16 output themselves (DirectStripEpilogue::half), where they write y
  // The residual is y's own buffer (in place): the first K slice accumulates onto y (in place out, by
  // rows), or the copy-out adds the tile to y (tile buffer).
  bool y_holds_residual;
  int64_t kc, widest;
  int64_t m_blocks, n_blocks;  // the tile grid: near-equal blocks of whole MR panels x whole widest strips
};

/** The epilogue of the strip at output row m, position q of a plane ld floats long (rows of y are P apart). */
DirectStripEpilogue strip_epilogue(const Plan& p, int64_t m, int64_t q, int64_t ld) {
  DirectStripEpilogue dep;
  dep.bias = p.ep->row_bias ? p.ep->row_bias + m : nullptr;
  dep.residual = p.ep->residual ? p.ep->residual + m * ld + q : nullptr;
  dep.ldr = ld;
  dep.relu = p.ep->act.plain_relu();
  dep.half = p.half_in_kernel ? p.ep->out_half + m * ld + q : nullptr;
  return dep;
}

/** The strip width for `remaining` columns; the narrower tail kernel only over a float B (with_half_width). */
int64_t strip_width(int64_t remaining, const ConvKernels& ks, bool with_half_width = true) {
  const int64_t widest = ks.max_nv * ks.lanes;
  if (remaining >= widest) return widest;
  if (with_half_width && ks.half_width && remaining <= ks.half_width) return ks.half_width;
  return round_up(remaining, ks.lanes);
}

ConvKernelFn kernel_for(int64_t width, bool masked, const ConvKernels& ks, const float*) {
  return width == ks.half_width ? ks.half[masked] : ks.fn[width / ks.lanes - 1][masked];
}
ConvHalfBKernelFn kernel_for(int64_t width, bool masked, const ConvKernels& ks, const uint16_t*) {
  return ks.fn_half_b[width / ks.lanes - 1][masked];
}

DirectPackedStripFn packed_strip_kernel(int64_t extra, const float*) { return direct_packed_strip_kernel(extra); }
DirectPackedStripHalfBFn packed_strip_kernel(int64_t extra, const uint16_t*) {
  return direct_packed_strip_kernel_half_b(extra);
}

/** Bias, residual and activation of finished output values (one run of one output row). */
void finish_run(float* dst, const float* res, int64_t len, float bias, const Activation& act) {
  residual_bias_activation(dst, res, static_cast<size_t>(len), bias, act);
}

/** Finished outputs y[m, q0 .. q0 + len) narrowed into the epilogue's fp16 / bf16 output while in cache. */
void narrow_out(const Plan& p, int64_t m, int64_t q0, int64_t len) {
  const int64_t at = m * p.OH * p.OW + q0;
  float_to_half_or_bf16_n(p.ep->half_is_bf16, p.y + at, p.ep->out_half + at, static_cast<size_t>(len));
}

/**
 * Output rows [m0, m0+rows) x padded-width positions [q0, q0+len), computed at src (row pitch lds):
 * junk columns dropped (unless the kernels wrote y in place), then residual, bias and activation.
 */
void emit(const Plan& p, int64_t m0, int64_t rows, int64_t q0, int64_t len, const float* src, int64_t lds) {
  const GemmEpilogue& ep = *p.ep;
  const bool finish = has_epilogue(ep);
  if (p.in_place_out && !finish) return;
  // (A tile buffer is always copied out, also when y holds the residual and nothing else is left to apply.)
  const int64_t P = p.OH * p.OW;
  for (int64_t r = 0; r < rows; ++r) {
    const int64_t m = m0 + r;
    const float bias = ep.row_bias ? ep.row_bias[m] : 0.f;
    float* yrow = p.y + m * P;
    const float* rrow = ep.residual ? ep.residual + m * P : nullptr;
    if (p.in_place_out) {
      finish_run(yrow + q0, rrow ? rrow + q0 : nullptr, len, bias, ep.act);
      continue;
    }
    const float* s = src + r * lds;
    for (int64_t q = q0; q < q0 + len;) {
      const int64_t oh = q / p.pitch, ow = q - oh * p.pitch;
      const int64_t run_end = std::min(q0 + len, q + (p.pitch - ow));
      if (ow < p.OW) {
        const int64_t n = std::min(p.OW - ow, run_end - q);
        float* dst = yrow + oh * p.OW + ow;
        if (p.y_holds_residual) {
          for (int64_t i = 0; i < n; ++i) dst[i] += s[q - q0 + i];
        } else {
          std::memcpy(dst, s + (q - q0), static_cast<size_t>(n) * sizeof(float));
        }
        if (finish) finish_run(dst, rrow ? rrow + oh * p.OW + ow : nullptr, n, bias, ep.act);
        if (ep.out_half) narrow_out(p, m, oh * p.OW + ow, n);
      }
      q = run_end;
    }
  }
}

/** B's base as the kernels over BT read it: the prepared float input, or the binary16 input in place. */
const float* input_base(const Plan& p, const float*) { return p.xp; }
const uint16_t* input_base(const Plan& p, const uint16_t*) { return p.xh; }

template <class BT>
void run_tile(const Plan& p, size_t index) {
  const ConvKernels& ks = kernels();
  const BT* xb = input_base(p, static_cast<const BT*>(nullptr));
  constexpr bool kHalfWidth = std::is_same_v<BT, float>;
  const int64_t tm = static_cast<int64_t>(index) / p.n_blocks, tn = static_cast<int64_t>(index) % p.n_blocks;
  const int64_t m0 = GemmBlocking::grid_begin(tm, p.m_blocks, p.M, ks.mr);
  const int64_t n0 = GemmBlocking::grid_begin(tn, p.n_blocks, p.Nq, p.widest);
  const int64_t mc = GemmBlocking::grid_begin(tm + 1, p.m_blocks, p.M, ks.mr) - m0;
  const int64_t nc = GemmBlocking::grid_begin(tn + 1, p.n_blocks, p.Nq, p.widest) - n0;
  if (mc <= 0 || nc <= 0) return;
  float* ct;
  int64_t ldt;
  if (p.in_place_out) {
    ldt = p.OH * p.OW;
    ct = p.y + m0 * ldt + n0;
  } else {
    ldt = round_up(nc, ks.lanes);
    ct = t_ctile.get(static_cast<size_t>(mc * ldt));
  }
  // With packed weights, nc = 48 s + r with r <= 2 s runs as s strips of 48 + 0..2 columns (r spread over them).
  const int64_t full = nc / kDirectPackedStrip, extra_cols = nc - full * kDirectPackedStrip;
  if (p.wpack && full > 0 && extra_cols <= kDirectMaxExtra * full) {
    // Written in place (no junk columns) with at most bias, residual and ReLU: the last K slice's store applies
    // them, and there is no epilogue pass over the tile.
    const bool in_kernel = p.in_place_out && (p.epilogue_in_kernel || p.half_in_kernel);
    for (int64_t k0 = 0; k0 < p.K; k0 += p.kc) {
      const int64_t kc = std::min(p.kc, p.K - k0);
      const bool last_slice = k0 + kc == p.K;
      for (int64_t s = 0, j = 0; s < full; ++s) {
        const int64_t e = extra_cols * (s + 1) / full - extra_cols * s / full;
        const auto fn = packed_strip_kernel(e, xb);
        for (int64_t i = 0; i < mc; i += ks.mr) {
          const int m_valid = static_cast<int>(std::min<int64_t>(ks.mr, mc - i));
          const float* ap = p.wpack + (m0 + i) * p.K + k0 * kDirectPanelRows;
          const DirectStripEpilogue dep = strip_epilogue(p, m0 + i, n0 + j, ldt);
          fn(kc, ap, i + ks.mr < mc ? ap + ks.mr * p.K : nullptr, xb + n0 + j, p.off + k0, ct + i * ldt + j, ldt,
             m_valid, k0 > 0 || (p.in_place_out && p.y_holds_residual), in_kernel && last_slice ? &dep : nullptr);
        }
        j += kDirectPackedStrip + e;
      }
    }
    if (!in_kernel) emit(p, m0, mc, n0, nc, ct, ldt);
    if (p.in_place_out && p.ep->out_half && !p.half_in_kernel)
      for (int64_t m = m0; m < m0 + mc; ++m) narrow_out(p, m, n0, nc);
    return;
  }
  // Written in place, the last K slice's stores finish the outputs (strip_epilogue); a tile buffer is emitted.
  const bool in_kernel = p.in_place_out && (p.epilogue_in_kernel || p.half_in_kernel);
  for (int64_t k0 = 0; k0 < p.K; k0 += p.kc) {
    const int64_t kc = std::min(p.kc, p.K - k0);
    const bool accumulate = k0 > 0 || (p.in_place_out && p.y_holds_residual);
    const bool finish = in_kernel && k0 + kc == p.K;
    auto strip = [&](int64_t i, int64_t j, int64_t width) {
      const int n_valid = static_cast<int>(std::min(width, nc - j));
      const int m_valid = static_cast<int>(std::min<int64_t>(ks.mr, mc - i));
      const DirectStripEpilogue dep = strip_epilogue(p, m0 + i, n0 + j, ldt);
      kernel_for(width, n_valid < width, ks, xb)(kc, p.w + (m0 + i) * p.K + k0, p.K, xb + n0 + j, p.off + k0,
                                                 ct + i * ldt + j, ldt, m_valid, n_valid, accumulate,
                                                 finish ? &dep : nullptr);
    };
    // Wide-output convs (1x1 64->256: M >= 4K) sweep each weight panel along its rows, so the output is
    // written row after row (measured ~2% faster); otherwise each strip's input stays in L1 across M.
    if (p.M >= 4 * p.K) {
      for (int64_t i = 0; i < mc; i += ks.mr)
        for (int64_t j = 0; j < nc;) {
          const int64_t width = strip_width(nc - j, ks, kHalfWidth);
          strip(i, j, width);
          j += width;
        }
    } else {
      for (int64_t j = 0; j < nc;) {
        const int64_t width = strip_width(nc - j, ks, kHalfWidth);
        for (int64_t i = 0; i < mc; i += ks.mr) strip(i, j, width);
        j += width;
      }
    }
  }
  // Finished per tile, row by row (sequential residual reads), not per micro-tile: measured no slower.
  if (!in_kernel) emit(p, m0, mc, n0, nc, ct, ldt);
  if (p.in_place_out && p.ep->out_half && !p.half_in_kernel)
    for (int64_t m = m0; m < m0 + mc; ++m) narrow_out(p, m, n0, nc);
}

/**
 * A tile of whole output rows [r0, r1) x M rows [m0, m0 + mc), its strips cut per output row: the kernels
 * accumulate straight into y (no junk columns, no tile buffer), then the epilogue runs on the finished rows.
 */
void run_tile_rows(const Plan& p, size_t index) {
  const ConvKernels& ks = kernels();
  const int64_t tm = static_cast<int64_t>(index) / p.n_blocks, tn = static_cast<int64_t>(index) % p.n_blocks;
  const int64_t m0 = GemmBlocking::grid_begin(tm, p.m_blocks, p.M, ks.mr);
  const int64_t mc = GemmBlocking::grid_begin(tm + 1, p.m_blocks, p.M, ks.mr) - m0;
  const int64_t r0 = GemmBlocking::grid_begin(tn, p.n_blocks, p.OH, 1);
  const int64_t r1 = GemmBlocking::grid_begin(tn + 1, p.n_blocks, p.OH, 1);
  if (mc <= 0 || r1 <= r0) return;
  const int64_t P = p.OH * p.OW;
  const GemmEpilogue& ep = *p.ep;
  const bool finish = has_epilogue(ep);
  for (int64_t k0 = 0; k0 < p.K; k0 += p.kc) {
    const int64_t kc = std::min(p.kc, p.K - k0);
    const bool last_slice = k0 + kc == p.K;
    for (int64_t r = r0; r < r1; ++r) {
      for (int64_t j = 0; j < p.OW;) {
        const int64_t width = strip_width(p.OW - j, ks);
        const int n_valid = static_cast<int>(std::min(width, p.OW - j));
        const ConvKernelFn fn = kernel_for(width, n_valid < width, ks, p.xp);
        for (int64_t i = 0; i < mc; i += ks.mr) {
          const int m_valid = static_cast<int>(std::min<int64_t>(ks.mr, mc - i));
          const DirectStripEpilogue dep = strip_epilogue(p, m0 + i, r * p.OW + j, P);
          float* out = p.y + (m0 + i) * P + r * p.OW + j;
          fn(kc, p.w + (m0 + i) * p.K + k0, p.K, p.xp + r * p.pitch + j, p.off + k0, out, P, m_valid, n_valid,
             k0 > 0 || p.y_holds_residual,
             last_slice && (p.epilogue_in_kernel || p.half_in_kernel) ? &dep : nullptr);
          // The next output row's lines of this strip, for writing: the kernels' stores alone, 4 rows a
          // whole plane apart, do not train the hardware prefetcher, and every line they touch missed. Stop 36,
          // in-model A/B (Zen 4, 30 pairs), with the epilogue moved into the stores: the stems 7x7/2 3->64 and
          // 3x3/2 3->64 0.83-0.96x the time on both ISAs. The prefetch alone, one-node stems with caches
          // flushed: 0.68-0.93x.
          if (r + 1 < r1 && last_slice && p.half_in_kernel) {
            const uint16_t* hout = ep.out_half + (out - p.y);  // the kernels store there instead
            for (int m = 0; m < m_valid; ++m)
              for (int64_t q = 0; q < n_valid; q += 32) __builtin_prefetch(hout + m * P + p.OW + q, 1, 3);
          } else if (r + 1 < r1) {
            for (int m = 0; m < m_valid; ++m)
              for (int64_t q = 0; q < n_valid; q += 16) __builtin_prefetch(out + m * P + p.OW + q, 1, 3);
          }
        }
        j += width;
      }
      // Other activations: the finished row's epilogue while its mc x OW outputs are still in L1. As one pass
      // over the tile after its last slice it read the tile back from L3 (the stem 7x7/2 3->64 at 112x112,
      // 1.6 MiB a tile: 6% of its samples on AVX2).
      if (finish && last_slice && !p.epilogue_in_kernel)
        for (int64_t m = m0; m < m0 + mc; ++m)
          finish_run(p.y + m * P + r * p.OW, ep.residual ? ep.residual + m * P + r * p.OW : nullptr, p.OW,
                     ep.row_bias ? ep.row_bias[m] : 0.f, ep.act);
      if (last_slice && ep.out_half && !p.half_in_kernel)
        for (int64_t m = m0; m < m0 + mc; ++m) narrow_out(p, m, r * p.OW, p.OW);
    }
  }
}

}  // namespace

bool direct_conv_half_b_available() { return kernels().fn_half_b[0][0] != nullptr; }

bool direct_conv_applies(const SpatialGeometry& g, int64_t channels, int64_t m_rows, bool any_width) {
  if (!direct_input_supported(g)) return false;
  bool strided = false, pointwise = true;
  for (int i = 0; i < g.nsp; ++i) {
    strided = strided || g.stride[i] > 1;
    pointwise = pointwise && g.kernel[i] == 1;
  }
  if (any_width) return true;
  // Strided windows over many channels (3x3/2 at 128 channels) measured ~7% slower than im2col: taps
  // alternate between phase planes. Few channels (the 7x7/2 stem, 3 channels) gain ~12%.
  if (strided && !pointwise && channels > 16) return false;
  // Unless the input is well past L2's size: the phase split copies all of it (from DRAM), where im2col reads it
  // in place. Stop 36, in-model A/B (Zen 4, 1 MiB L2, 30 pairs): PP-OCR det's 3x3/2 3->16 on 640x640 (4.9 MB) took
  // 0.78x the time on the GEMM (AVX2; AVX-512 0.80x), the model 0.984x / 0.987x, while the 224x224 stems (0.6 MB)
  // stay ahead on the direct conv. Twice L2 keeps those stems direct on Zen 3's 512 KiB L2 too (not measured).
  if (strided && !pointwise && channels * g.in_size() * 4 > 2 * cpu_features().l2_bytes) return false;
  // Stride 1 over very few channels (vgg19's first conv, 3x3 3->64 at 224: K = 27) measured 1.16x slower
  // than the im2col GEMM, whose im2col costs little there (K x P values for 64 x K x P FMAs).
  if (!strided && !pointwise && channels < 8) return false;
  // On AVX2 the packed GEMM beats the direct kernel on every pointwise conv measured (1x1 at 56x56..7x7,
  // 64..1024 channels: 0.73-0.84x the direct time, single thread; 1x1/2: 0.87-0.95x): the input rows a
  // 1x1 strip reads lie a whole plane apart, often map to a few L1 sets and miss again for every panel.
  if (pointwise && kernels().lanes == 8) return false;
  // On AVX-512 too for pointwise convs with output planes of 28x28 and up, strided or not: in light_resnet50 on an
  // Intel Xeon (stop 23, bench_node_ab.py, 30 pairs) the GEMM took 0.74-0.82x the direct conv's time on 1x1
  // 512->128 and 512->256 at 28x28 and 1x1/2 256->512 from 56x56, the same on the rest (56x56, 128->512).
  // On smaller planes the direct conv's packed weights and folded extra columns win (14x14: GEMM 1.03-1.1x,
  // 7x7: 1.1-1.25x; 1x1/2 to 14x14 and 7x7: 1.1-1.2x). Not with 16 output channels or fewer, where the GEMM packs
  // the whole input (K x P values) for only 16 x K x P FMAs: stop 39, in-model A/B on Zen 4 (bench_node_ab.py, 40
  // pairs, the vCPUs on one die and on two alike), squeezenet's 1x1 64->16 and 128->16 at 55x55 took 0.71x and
  // 0.83x the GEMM's time on the direct conv; the models 0.990-0.996x (squeezenet, PP-OCR cls and det), PP-OCR rec
  // and shufflenet unchanged. On AVX2 (which returned above) the GEMM took 1.13x and 0.96x the direct conv's time
  // on those two: mixed, so they stay on the GEMM there.
  if (pointwise && g.out_size() >= 784 && m_rows > 16) return false;
  // Junk columns per output row (pitch - OW) cost as much as real ones: on small planes (3x3 at 28x28
  // and below) they outweigh the im2col the GEMM path pays, so those stay on the GEMM. Unless the conv
  // has few output rows: im2col writes K x P values for only m_rows x K x P FMAs (3x3 128->32 at 14x14
  // spent as long in im2col as in the micro-kernel), so a junk share up to 8 / m_rows is cheaper.
  const int64_t w = g.nsp - 1;
  const int64_t pitch = ceil_div(g.in[w] + g.pad_begin[w] + g.pad_end[w], g.stride[w]);
  const int64_t junk = pitch - g.out[w];
  return junk * 20 <= pitch || junk * m_rows <= 8 * pitch;
}

void direct_conv_f32(const ConvInputPlanes& x, int64_t channels, const SpatialGeometry& g, const float* w,
                     int64_t m_rows, float* y, const GemmEpilogue& ep, bool parallel, const float* packed_w) {
  const ConvKernels& ks = kernels();
  const DirectInput in = prepare_direct_input(x, channels, g, parallel);
  Plan p{};
  p.C = channels;
  p.M = m_rows;
  p.K = in.K;
  p.IHs = in.IHs;
  p.pitch = in.pitch;
  p.OH = in.OH;
  p.OW = in.OW;
  p.KH = in.KH;
  p.KW = in.KW;
  if (p.M <= 0 || p.OH <= 0 || p.OW <= 0 || p.K <= 0) return;
  p.Nq = (p.OH - 1) * p.pitch + p.OW;
  p.in_place_out = p.pitch == p.OW;
  p.w = w;
  p.wpack = packed_w;
  p.y = y;
  GemmEpilogue own_ep = ep;
  p.y_holds_residual = ep.residual != nullptr && ep.residual == y;
  if (p.y_holds_residual) own_ep.residual = nullptr;
  p.ep = &own_ep;
  p.epilogue_in_kernel = has_epilogue(own_ep) && (own_ep.act.none() || own_ep.act.plain_relu());
  // fp16 stored by the kernels where they write y and no pass follows them (bias, residual, Relu or nothing):
  // on the last K slice the fp32 staging is then not written at all (the by-rows stems: narrowed per finished row
  // instead, the 3x3/2 3->64 into 111x111 took 1.2x the time of one narrowing pass; stop 42, in-model A/B, AVX2).
  p.half_in_kernel = own_ep.out_half && !own_ep.half_is_bf16 && (p.epilogue_in_kernel || !has_epilogue(own_ep));
  p.xp = in.xp;
  p.xh = in.xh;
  ACL_SIM_REQUIRE(!p.xh || direct_conv_half_b_available(), ACL_ERROR_INTERNAL_ERROR,
                  "Conv: a binary16 input read in place needs the direct conv's half-B kernels");
  p.off = in.off;
  const int64_t threads = parallel ? static_cast<int64_t>(ThreadPool::instance().concurrency()) : 1;

  // Blocking: K slices of <= 256 rows; tiles of at most 256 rows x 480 positions, split further as
  // the GEMM splits its tiles (balanced over the threads).
  // With junk columns, rows at least one widest strip wide are cut into strips per output row when that
  // computes no more columns than the padded pitch (the stem: 112 = 48 + 48 + 16 columns for a pitch of
  // 115; 3x3 at 224: 224 for 226): the kernels then write y in place and no tile is copied out.
  static constexpr int64_t kKcMax = 256, kKcMaxSmallPlane = 2048, kMcMax = 256, kNcMax = 480;
  p.widest = ks.max_nv * ks.lanes;
  int64_t row_cols = 0;
  for (int64_t j = 0; j < p.OW;) {
    const int64_t width = strip_width(p.OW - j, ks);
    row_cols += width;
    j += width;
  }
  p.by_rows = !p.in_place_out && p.OW >= p.widest && row_cols <= p.pitch;
  // On small planes (7x7, 14x14: a few strips per output row) K slices of up to 2048: fewer passes over the
  // output and fewer kernel calls. Stop 25, in-model A/B on AVX-512 (20 pairs): resnet50's 1x1 convs at 7x7
  // 0.93-0.96x, 1x1/2 1024->2048 0.94x, all nodes 0.995.
  p.kc = ceil_div(p.K, ceil_div(p.K, p.Nq <= 256 ? kKcMaxSmallPlane : kKcMax));
  const int64_t mb_min = std::min(std::max<int64_t>(1, p.M / ks.mr), ceil_div(p.M, kMcMax));
  const int64_t nb_min =
      p.by_rows ? 1 : std::min(std::max<int64_t>(1, p.Nq / p.widest), ceil_div(p.Nq, kNcMax));
  const TileSplit split = p.by_rows ? choose_tile_split(p.M, p.OH, ks.mr, 1, 2.0 * p.M * p.Nq * p.K, threads, mb_min, 1)
                                    : choose_tile_split(p.M, p.Nq, ks.mr, p.widest, 2.0 * p.M * p.Nq * p.K, threads,
                                                        mb_min, nb_min);
  p.m_blocks = split.m_blocks;
  p.n_blocks = split.n_blocks;
  const size_t tiles = static_cast<size_t>(p.m_blocks * p.n_blocks);
  // Read in place (no pads, stride 1): pitch == OW, so a binary16 x is never by rows.
  auto tile = p.by_rows ? run_tile_rows : p.xh ? run_tile<uint16_t> : run_tile<float>;
  if (tiles == 1 || threads == 1) {
    for (size_t i = 0; i < tiles; ++i) tile(p, i);
    return;
  }
  ThreadPool::instance().parallel_for(tiles, [&p, tile](size_t i) { tile(p, i); });
}

}  // namespace acl_sim
