#include "kernels/conv_depthwise.h"

#include <algorithm>
#include <cstring>

#include "executor/thread_pool.h"
#include "kernels/cpu_features.h"
#include "kernels/gemm_simd.h"
#include "kernels/thread_scratch.h"

namespace acl_sim {
namespace {

/** One plane's geometry as the SIMD path sees it: the input zero-padded into a row pitch of Wps floats. */
struct DwGeom {
  int64_t IH, IW, OH, OW, KH, KW, sh, sw, dh, dw, ph, pw;
  int64_t Hp, Wps;  // padded rows (exactly those the windows read) and row pitch (with slack for whole vectors)
};

// The padded plane of this thread (one plane at a time).
thread_local Scratch<float> t_padded;

/** xpad = the plane x [IH, IW] zero-padded: xpad[r][c] = x[r - ph][c - pw] inside, 0 outside. */
void pad_plane(const DwGeom& d, const float* x, float* xpad) {
  const int64_t cols = std::max<int64_t>(0, std::min(d.IW, d.Wps - d.pw));
  for (int64_t r = 0; r < d.Hp; ++r) {
    float* row = xpad + r * d.Wps;
    const int64_t ih = r - d.ph;
    if (ih < 0 || ih >= d.IH || cols == 0) {
      std::memset(row, 0, static_cast<size_t>(d.Wps) * sizeof(float));
      continue;
    }
    const int64_t lead = std::min(d.pw, d.Wps);
    std::memset(row, 0, static_cast<size_t>(lead) * sizeof(float));
    std::memcpy(row + lead, x + ih * d.IW, static_cast<size_t>(cols) * sizeof(float));
    std::memset(row + lead + cols, 0, static_cast<size_t>(d.Wps - lead - cols) * sizeof(float));
  }
}

#if defined(__x86_64__)
/**
 * y = act(sum over the window of w * xpad + b) for one plane, a vector of output columns at a time with the
 * whole window accumulated in a register (stride 2 reads its columns as the even lanes of two loads). The
 * generic loop below made one call per output row and tap (PP-OCR's 5x5/2 at 20x20: 25 calls of 20 columns).
 */
template <class V>
__attribute__((always_inline)) inline void dw_plane_simd(const DwGeom& d, const float* xpad, const float* w, float b,
                                                         const Activation& act, float* y) {
  using T = typename V::T;
  constexpr int W = V::W;
  const bool relu = act.plain_relu();
  const bool in_regs = act.none() || relu;
  for (int64_t oh = 0; oh < d.OH; ++oh) {
    float* yrow = y + oh * d.OW;
    for (int64_t ow0 = 0; ow0 < d.OW; ow0 += W) {
      T acc = V::zero();
      for (int64_t kh = 0; kh < d.KH; ++kh) {
        const float* row = xpad + (oh * d.sh + kh * d.dh) * d.Wps + ow0 * d.sw;
        const float* wk = w + kh * d.KW;
        for (int64_t kw = 0; kw < d.KW; ++kw) {
          const float* p = row + kw * d.dw;
          const T v = d.sw == 1 ? V::load(p) : V::evens(V::load(p), V::load(p + W));
          acc = V::fma(v, V::set1(wk[kw]), acc);
        }
      }
      acc = V::add(acc, V::set1(b));
      if (relu) acc = V::max(acc, V::zero());
      const int64_t n = std::min<int64_t>(W, d.OW - ow0);
      if (n == W) V::store(yrow + ow0, acc);
      else V::store_n(yrow + ow0, acc, static_cast<int>(n));
    }
    if (!in_regs) bias_activation(yrow, static_cast<size_t>(d.OW), 0.f, act);
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

}  // namespace

void depthwise_conv_f32(const float* x, const float* w, const float* bias, float* y, int64_t N, int64_t C, int64_t M,
                        const SpatialGeometry& g, const Activation& act) {
  const bool two_d = g.nsp == 2;
  const int64_t IH = two_d ? g.in[0] : 1, IW = g.in[g.nsp - 1];
  const int64_t OH = two_d ? g.out[0] : 1, OW = g.out[g.nsp - 1];
  const int64_t KH = two_d ? g.kernel[0] : 1, KW = g.kernel[g.nsp - 1];
  const int64_t sh = two_d ? g.stride[0] : 1, sw = g.stride[g.nsp - 1];
  const int64_t dh = two_d ? g.dilation[0] : 1, dw = g.dilation[g.nsp - 1];
  const int64_t ph = two_d ? g.pad_begin[0] : 0, pw = g.pad_begin[g.nsp - 1];
  const int64_t mult = M / C;

  // Strides 1 and 2 on AVX-512 / AVX2: the padded-plane SIMD path (dw_plane_simd); else the generic loop.
  const KernelIsa isa = cpu_features().isa;
  const bool simd = (isa == KernelIsa::kAvx512 || isa == KernelIsa::kAvx2) && (sw == 1 || sw == 2);
  DwGeom d{IH, IW, OH, OW, KH, KW, sh, sw, dh, dw, ph, pw, (OH - 1) * sh + (KH - 1) * dh + 1, 0};
  // Whole vectors read below column (OW + lanes) * sw + (KW - 1) * dw (stride 2: two loads per vector); the
  // pitch leaves another vector of slack.
  const int64_t lanes = isa == KernelIsa::kAvx512 ? 16 : 8;
  d.Wps = ((OW + 2 * lanes) * sw + (KW - 1) * dw + 15) / 16 * 16;
  auto simd_plane = [&](size_t index) {
#if defined(__x86_64__)
    const int64_t n = static_cast<int64_t>(index) / M, m = static_cast<int64_t>(index) % M;
    float* xpad = t_padded.get(static_cast<size_t>(d.Hp * d.Wps));
    pad_plane(d, x + (n * C + m / mult) * IH * IW, xpad);
    const float b = bias ? bias[m] : 0.f;
    float* yp = y + (n * M + m) * OH * OW;
    if (isa == KernelIsa::kAvx512) dw_plane_avx512(d, xpad, w + m * KH * KW, b, act, yp);
    else dw_plane_avx2(d, xpad, w + m * KH * KW, b, act, yp);
#else
    (void)index;
#endif
  };

  auto plane = [&](size_t index) {
    const int64_t n = static_cast<int64_t>(index) / M, m = static_cast<int64_t>(index) % M;
    const float* xp = x + (n * C + m / mult) * IH * IW;
    const float* wp = w + m * KH * KW;
    float* yp = y + (n * M + m) * OH * OW;
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
  const int64_t planes = N * M;
  // Small planes (PP-OCR cls: 3x96) are grouped so each pool index carries
  // ~32K multiply-adds; one index per plane drowned them in scheduling.
  const int64_t per_task = std::max<int64_t>(1, 32768 / std::max<int64_t>(1, OH * OW * KH * KW));
  const int64_t tasks = (planes + per_task - 1) / per_task;
  auto run_tasks = [&](size_t t) {
    const int64_t first = static_cast<int64_t>(t) * per_task, last = std::min(planes, first + per_task);
    for (int64_t pl = first; pl < last; ++pl) {
      if (simd) simd_plane(static_cast<size_t>(pl));
      else plane(static_cast<size_t>(pl));
    }
  };
  if (tasks == 1) run_tasks(0);
  else ThreadPool::instance().parallel_for(static_cast<size_t>(tasks), run_tasks);
}

}  // namespace acl_sim
