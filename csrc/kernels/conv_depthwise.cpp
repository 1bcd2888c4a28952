#include "kernels/conv_depthwise.h"

#include <algorithm>

#include "executor/thread_pool.h"

namespace acl_sim {
namespace {

// Plain loops, cloned per ISA so the compiler vectorises them for AVX-512 / AVX2.
__attribute__((target_clones("avx512f", "avx2", "default"))) void axpy_contiguous(float* acc, const float* x, float w,
                                                                                  int64_t n) {
  for (int64_t i = 0; i < n; ++i) acc[i] += w * x[i];
}

__attribute__((target_clones("avx512f", "avx2", "default"))) void axpy_strided(float* acc, const float* x, float w,
                                                                               int64_t n, int64_t stride) {
  for (int64_t i = 0; i < n; ++i) acc[i] += w * x[i * stride];
}

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
          if (sw == 1) axpy_contiguous(acc + lo, xrow + lo + off, wv, hi - lo);
          else axpy_strided(acc + lo, xrow + lo * sw + off, wv, hi - lo, sw);
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
    for (int64_t pl = first; pl < last; ++pl) plane(static_cast<size_t>(pl));
  };
  if (tasks == 1) run_tasks(0);
  else ThreadPool::instance().parallel_for(static_cast<size_t>(tasks), run_tasks);
}

}  // namespace acl_sim
