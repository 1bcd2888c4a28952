#include "kernels/conv_depthwise.h"

#include <algorithm>
#include <cstring>

#include "executor/thread_pool.h"
#include "kernels/cpu_features.h"
#include "kernels/gemm_simd.h"
#include "kernels/thread_scratch.h"

namespace acl_sim {
namespace {

/** One plane's geometry as the SIMD path sees it: the input rows zero-padded along W into a row pitch of Wps floats. */
struct DwGeom {
  int64_t IH, IW, OH, OW, KH, KW, sh, sw, dh, dw, ph, pw;
  int64_t Wps;  // row pitch of the padded rows (with slack for whole vectors)
};

// The padded plane of this thread (one plane at a time).
thread_local Scratch<float> t_padded;

/** xpad = the plane x [IH, IW] with its rows zero-padded along W: xpad[r][c] = x[r][c - pw] inside, 0 outside.
 * The rows above and below the plane are not stored: the windows skip those taps (dw_plane_simd). */
void pad_plane(const DwGeom& d, const float* x, float* xpad) {
  const int64_t cols = std::max<int64_t>(0, std::min(d.IW, d.Wps - d.pw));
  const int64_t lead = std::min(d.pw, d.Wps);
  for (int64_t r = 0; r < d.IH; ++r) {
    float* row = xpad + r * d.Wps;
    std::memset(row, 0, static_cast<size_t>(lead) * sizeof(float));
    std::memcpy(row + lead, x + r * d.IW, static_cast<size_t>(cols) * sizeof(float));
    std::memset(row + lead + cols, 0, static_cast<size_t>(d.Wps - lead - cols) * sizeof(float));
  }
}

#if defined(__x86_64__)
/**
 * NV vectors of output columns from ow0 of output row oh, accumulated in registers over the window's taps that
 * fall inside the plane (rows kh_lo .. kh_hi): each tap's weight is broadcast once for the NV vectors.
 */
template <class V, int NV>
__attribute__((always_inline)) inline void dw_chunk(const DwGeom& d, const float* xpad, const float* w, float b,
                                                    bool relu, int64_t oh, int64_t kh_lo, int64_t kh_hi, int64_t ow0,
                                                    float* yrow) {
  using T = typename V::T;
  constexpr int W = V::W;
  T acc[NV];
#pragma GCC unroll 8
  for (int v = 0; v < NV; ++v) acc[v] = V::set1(b);
  for (int64_t kh = kh_lo; kh < kh_hi; ++kh) {
    const float* row = xpad + (oh * d.sh - d.ph + kh * d.dh) * d.Wps + ow0 * d.sw;
    const float* wk = w + kh * d.KW;
    for (int64_t kw = 0; kw < d.KW; ++kw) {
      const float* p = row + kw * d.dw;
      const T wv = V::set1(wk[kw]);
      if (d.sw == 1) {
#pragma GCC unroll 8
        for (int v = 0; v < NV; ++v) acc[v] = V::fma(V::load(p + v * W), wv, acc[v]);
      } else {
#pragma GCC unroll 8
        for (int v = 0; v < NV; ++v)
          acc[v] = V::fma(V::evens(V::load(p + 2 * v * W), V::load(p + 2 * v * W + W)), wv, acc[v]);
      }
    }
  }
#pragma GCC unroll 8
  for (int v = 0; v < NV; ++v) {
    const T r = relu ? V::max(acc[v], V::zero()) : acc[v];
    const int64_t n = std::min<int64_t>(W, d.OW - ow0 - v * W);
    if (n == W) V::store(yrow + ow0 + v * W, r);
    else if (n > 0) V::store_n(yrow + ow0 + v * W, r, static_cast<int>(n));
  }
}

/**
 * y = act(sum over the window of w * x + b) for one plane, up to 8 vectors of an output row at a time (stride 2
 * reads its columns as the even lanes of two loads). Stop 31: one vector at a time, with the window's 25
 * weights broadcast again for every vector and the padding rows multiplied through, PP-OCR cls's 5x5 convs on
 * 2-6 row planes ran at 4-6x onnxruntime's time (AMD EPYC Zen 3, AVX2).
 */
template <class V>
__attribute__((always_inline)) inline void dw_plane_simd(const DwGeom& d, const float* xpad, const float* w, float b,
                                                         const Activation& act, float* y) {
  constexpr int W = V::W, kMaxNv = 8;
  const bool relu = act.plain_relu();
  const bool in_regs = act.none() || relu;
  const float bias = in_regs ? b : 0.f;
  for (int64_t oh = 0; oh < d.OH; ++oh) {
    // The taps whose input row oh * sh - ph + kh * dh lies in [0, IH).
    const int64_t top = oh * d.sh - d.ph;
    const int64_t kh_lo = top >= 0 ? 0 : (-top + d.dh - 1) / d.dh;
    const int64_t kh_hi = std::min(d.KH, d.IH - 1 - top < 0 ? 0 : (d.IH - 1 - top) / d.dh + 1);
    float* yrow = y + oh * d.OW;
    for (int64_t ow0 = 0; ow0 < d.OW; ow0 += kMaxNv * W) {
      const int64_t nv = std::min<int64_t>(kMaxNv, (d.OW - ow0 + W - 1) / W);
      switch (nv) {
        case 1: dw_chunk<V, 1>(d, xpad, w, bias, relu, oh, kh_lo, kh_hi, ow0, yrow); break;
        case 2: dw_chunk<V, 2>(d, xpad, w, bias, relu, oh, kh_lo, kh_hi, ow0, yrow); break;
        case 3: dw_chunk<V, 3>(d, xpad, w, bias, relu, oh, kh_lo, kh_hi, ow0, yrow); break;
        case 4: dw_chunk<V, 4>(d, xpad, w, bias, relu, oh, kh_lo, kh_hi, ow0, yrow); break;
        case 5: dw_chunk<V, 5>(d, xpad, w, bias, relu, oh, kh_lo, kh_hi, ow0, yrow); break;
        case 6: dw_chunk<V, 6>(d, xpad, w, bias, relu, oh, kh_lo, kh_hi, ow0, yrow); break;
        case 7: dw_chunk<V, 7>(d, xpad, w, bias, relu, oh, kh_lo, kh_hi, ow0, yrow); break;
        default: dw_chunk<V, 8>(d, xpad, w, bias, relu, oh, kh_lo, kh_hi, ow0, yrow); break;
      }
    }
    if (!in_regs) bias_activation(yrow, static_cast<size_t>(d.OW), b, act);
  }
}

ACL_SIM_TARGET_AVX512 void dw_plane_avx512(const DwGeom& d, const float* xpad, const float* w, float b,
                                           const Activation& act, float* y) {
  dw_plane_simd<simd::V16>(d, xpad, w, b, act, y);
}

ACL_SIM_TARGET_AVX2 void dw_plane_avx2(const DwGeom& d, const float* xpad, const float* w, float b,
                                       const Activation& act, float* y) {
  dw_plane_simd<simd::V8>(d, xpad, w, b, act, y);
}
#endif

// Plain loops, compiled per ISA (isa_target.h) so the compiler vectorises them for AVX-512 / AVX2.
struct AxpyStrided {
  __attribute__((always_inline)) void operator()(float* acc, const float* x, float w, int64_t n,
                                                 int64_t stride) const {
    if (stride == 1) {
      for (int64_t i = 0; i < n; ++i) acc[i] += w * x[i];
    } else {
      for (int64_t i = 0; i < n; ++i) acc[i] += w * x[i * stride];
    }
  }
};

/** The input plane that output plane pl (n * M + m) reads: n * C + m / (M / C). */
int64_t input_plane(int64_t pl, int64_t C, int64_t M) { return (pl / M) * C + (pl % M) / (M / C); }

}  // namespace

int64_t depthwise_planes_per_task(const SpatialGeometry& g) {
  // Small planes (PP-OCR cls: 3x96) are grouped so each pool index carries ~32K multiply-adds; one index per plane
  // drowned them in scheduling.
  return std::max<int64_t>(1, 32768 / std::max<int64_t>(1, g.out_size() * g.kernel_size()));
}

void depthwise_conv_planes_f32(const float* x, const float* w, const float* bias, float* y, int64_t first,
                               int64_t last, int64_t C, int64_t M, const SpatialGeometry& g, const Activation& act) {
  const bool two_d = g.nsp == 2;
  const int64_t IH = two_d ? g.in[0] : 1, IW = g.in[g.nsp - 1];
  const int64_t OH = two_d ? g.out[0] : 1, OW = g.out[g.nsp - 1];
  const int64_t KH = two_d ? g.kernel[0] : 1, KW = g.kernel[g.nsp - 1];
  const int64_t sh = two_d ? g.stride[0] : 1, sw = g.stride[g.nsp - 1];
  const int64_t dh = two_d ? g.dilation[0] : 1, dw = g.dilation[g.nsp - 1];
  const int64_t ph = two_d ? g.pad_begin[0] : 0, pw = g.pad_begin[g.nsp - 1];
  const int64_t mult = M / C;
  const int64_t in0 = input_plane(first, C, M);  // the plane x points at

  // Strides 1 and 2 on AVX-512 / AVX2: the padded-plane SIMD path (dw_plane_simd); else the generic loop.
  const KernelIsa isa = cpu_features().isa;
  const bool simd = cpu_features().vector_isa() && (sw == 1 || sw == 2);
  DwGeom d{IH, IW, OH, OW, KH, KW, sh, sw, dh, dw, ph, pw, 0};
  // Whole vectors read below column (OW + lanes) * sw + (KW - 1) * dw (stride 2: two loads per vector); the
  // pitch leaves another vector of slack.
  const int64_t lanes = isa == KernelIsa::kAvx512 ? 16 : 8;
  d.Wps = ((OW + 2 * lanes) * sw + (KW - 1) * dw + 15) / 16 * 16;
  auto simd_plane = [&](size_t index) {
#if defined(__x86_64__)
    const int64_t n = static_cast<int64_t>(index) / M, m = static_cast<int64_t>(index) % M;
    float* xpad = t_padded.get(static_cast<size_t>(std::max<int64_t>(1, IH) * d.Wps));
    pad_plane(d, x + (n * C + m / mult - in0) * IH * IW, xpad);
    const float b = bias ? bias[m] : 0.f;
    float* yp = y + (n * M + m - first) * OH * OW;
    if (isa == KernelIsa::kAvx512) dw_plane_avx512(d, xpad, w + m * KH * KW, b, act, yp);
    else dw_plane_avx2(d, xpad, w + m * KH * KW, b, act, yp);
#else
    (void)index;
#endif
  };

  auto plane = [&](size_t index) {
    const int64_t n = static_cast<int64_t>(index) / M, m = static_cast<int64_t>(index) % M;
    const float* xp = x + (n * C + m / mult - in0) * IH * IW;
    const float* wp = w + m * KH * KW;
    float* yp = y + (n * M + m - first) * OH * OW;
    const float b = bias ? bias[m] : 0.f;
    for (int64_t oh = 0; oh < OH; ++oh) {
      float* acc = yp + oh * OW;
      std::fill(acc, acc + OW, 0.f);
      for (int64_t kh = 0; kh < KH; ++kh) {
        const int64_t ih = oh * sh - ph + kh * dh;
        if (ih < 0 || ih >= IH) continue;
        const float* xrow = xp + ih * IW;
        for (int64_t kw = 0; kw < KW; ++kw) {
          const int64_t off = kw * dw - pw;
          // Output columns whose input column ow*sw + off lies inside the row.
          const int64_t lo = off >= 0 ? 0 : (-off + sw - 1) / sw;
          const int64_t hi = IW - 1 - off < 0 ? 0 : std::min(OW, (IW - 1 - off) / sw + 1);
          if (hi <= lo) continue;
          const float wv = wp[kh * KW + kw];
          isa_call(AxpyStrided{}, acc + lo, xrow + lo * sw + off, wv, hi - lo, sw);
        }
      }
      bias_activation(acc, static_cast<size_t>(OW), b, act);
    }
  };
  for (int64_t pl = first; pl < last; ++pl) {
    if (simd) simd_plane(static_cast<size_t>(pl));
    else plane(static_cast<size_t>(pl));
  }
}

void depthwise_conv_f32(const float* x, const float* w, const float* bias, float* y, int64_t N, int64_t C, int64_t M,
                        const SpatialGeometry& g, const Activation& act) {
  const int64_t planes = N * M, per_task = depthwise_planes_per_task(g);
  const int64_t in_size = g.in_size(), out_size = g.out_size();
  ThreadPool::instance().parallel_for(static_cast<size_t>((planes + per_task - 1) / per_task), [&](size_t t) {
    const int64_t first = static_cast<int64_t>(t) * per_task, last = std::min(planes, first + per_task);
    depthwise_conv_planes_f32(x + input_plane(first, C, M) * in_size, w, bias, y + first * out_size, first, last, C,
                              M, g, act);
  });
}

}  // namespace acl_sim
