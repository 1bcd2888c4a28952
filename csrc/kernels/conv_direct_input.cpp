// The direct convs' padded, phase-split input: see conv_direct_input.h.
#include "kernels/conv_direct_input.h"

#include <algorithm>
#include <cstring>

#include "acl/acl_base.h"
#include "common/error.h"
#include "common/fp16.h"
#include "executor/thread_pool.h"
#include "kernels/stride2_gather.h"
#include "kernels/thread_scratch.h"

namespace acl_sim {
namespace {

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

// The padded (and phase-split) input and the im2col row offsets into it.
thread_local Scratch<float> t_input;
thread_local Scratch<int64_t> t_offsets;
// A 16-bit input plane widened (on the thread copying it).
thread_local Scratch<float> t_plane;

}  // namespace

bool direct_input_supported(const SpatialGeometry& g) {
  if (g.nsp < 1 || g.nsp > 2) return false;
  for (int i = 0; i < g.nsp; ++i)
    if (g.stride[i] > 8) return false;
  return true;
}

bool direct_input_copies(const SpatialGeometry& g) {
  for (int i = 0; i < g.nsp; ++i)
    if (g.pad_begin[i] || g.pad_end[i] || g.stride[i] > 1) return true;
  return false;
}

DirectInput prepare_direct_input(const ConvInputPlanes& x, int64_t channels, const SpatialGeometry& g, bool parallel) {
  const bool two_d = g.nsp == 2;
  const int64_t IH = two_d ? g.in[0] : 1, IW = g.in[g.nsp - 1];
  const int64_t pt = two_d ? g.pad_begin[0] : 0, pb = two_d ? g.pad_end[0] : 0;
  const int64_t pl = g.pad_begin[g.nsp - 1], pr = g.pad_end[g.nsp - 1];
  const int64_t sh = two_d ? g.stride[0] : 1, sw = g.stride[g.nsp - 1];
  DirectInput in{};
  in.KH = two_d ? g.kernel[0] : 1;
  in.KW = g.kernel[g.nsp - 1];
  const int64_t dh = two_d ? g.dilation[0] : 1, dw = g.dilation[g.nsp - 1];
  in.K = channels * in.KH * in.KW;
  in.IHs = ceil_div(IH + pt + pb, sh);
  in.pitch = ceil_div(IW + pl + pr, sw);
  in.OH = two_d ? g.out[0] : 1;
  in.OW = g.out[g.nsp - 1];
  if (in.K <= 0 || in.OH <= 0 || in.OW <= 0) return in;

  // The input the kernels read: zero-padded and, for strides > 1, split into sh x sw phase planes
  // (phase (a, b) holds padded pixels (i*sh + a, j*sw + b)), so that every tap reads a contiguous run
  // of one phase plane. Only phases some tap reads are built. Spread over the pool when large.
  const int64_t threads = parallel ? static_cast<int64_t>(ThreadPool::instance().concurrency()) : 1;
  const int64_t plane = in.IHs * in.pitch;
  const int64_t pitch = in.pitch, IHs = in.IHs;
  bool used[8][8] = {};
  for (int64_t kh = 0; kh < in.KH; ++kh)
    for (int64_t kw = 0; kw < in.KW; ++kw) used[(kh * dh) % sh % 8][(kw * dw) % sw % 8] = true;
  if (direct_input_copies(g)) {
    float* xs = t_input.get(static_cast<size_t>(sh * sw * channels * plane));
    // Work items: (phase, channel) planes of the phases some tap reads.
    int64_t phases[64], nphases = 0;
    for (int64_t a = 0; a < sh; ++a)
      for (int64_t b = 0; b < sw; ++b)
        if (used[a][b]) phases[nphases++] = a * sw + b;
    // A 16-bit input is widened a whole channel plane at a time (one bulk conversion, not a tail per row),
    // its items taken channel by channel so that the phases of one plane reuse it.
    auto build = [&](int64_t i0, int64_t i1) {
      float* widened = x.f32 ? nullptr : t_plane.get(static_cast<size_t>(IH * IW));
      int64_t widened_c = -1;
      for (int64_t item = i0; item < i1; ++item) {
        const int64_t ph = x.f32 ? phases[item / channels] : phases[item % nphases];
        const int64_t c = x.f32 ? item % channels : item / nphases, a = ph / sw, b = ph % sw;
        const float* src = x.f32 ? x.f32 + c * IH * IW : widened;
        if (!x.f32 && c != widened_c) {
          half_or_bf16_to_float_n(x.bf16, x.half + c * IH * IW, widened, static_cast<size_t>(IH * IW));
          widened_c = c;
        }
        float* dst = xs + (ph * channels + c) * plane;
        // Phase columns j whose source column j*sw + b - pl lies inside the row: [j0, j1).
        const int64_t j0 = std::min(pitch, ceil_div(std::max<int64_t>(0, pl - b), sw));
        const int64_t j1 = std::max(j0, std::min(pitch, ceil_div(IW + pl - b, sw)));
        for (int64_t i = 0; i < IHs; ++i) {
          float* d = dst + i * pitch;
          const int64_t r = i * sh + a - pt;
          if (r < 0 || r >= IH) {
            std::fill(d, d + pitch, 0.f);
            continue;
          }
          const float* srow = src + r * IW;
          std::fill(d, d + j0, 0.f);
          if (sw == 1) {
            std::memcpy(d + j0, srow + (j0 + b - pl), static_cast<size_t>(j1 - j0) * sizeof(float));
          } else if (sw == 2) {
            gather_stride2_f32(srow + (j0 * 2 + b - pl), j1 - j0, d + j0);
          } else {
            for (int64_t j = j0; j < j1; ++j) d[j] = srow[j * sw + b - pl];
          }
          std::fill(d + j1, d + pitch, 0.f);
        }
      }
    };
    const int64_t items = nphases * channels;
    // Per row the copy costs a few ns more than its floats (fills, the gather's set-up): 1x1/2 over 1024
    // channels of 14x14 (7 phase rows each, 50K floats) took 60 us on the caller alone in light_resnet50.
    const bool large = items * plane >= (1 << 16) || items * IHs >= 512;
    const int64_t chunks = threads > 1 && large ? std::min(items, 2 * threads) : 1;
    if (chunks == 1) {
      build(0, items);
    } else {
      ThreadPool::instance().parallel_for(static_cast<size_t>(chunks), [&](size_t i) {
        const int64_t ci = static_cast<int64_t>(i);
        build(items * ci / chunks, items * (ci + 1) / chunks);
      });
    }
    in.xp = xs;
  } else {
    ACL_SIM_REQUIRE(x.f32 != nullptr || !x.bf16, ACL_ERROR_INTERNAL_ERROR,
                    "Conv: a bfloat16 input reaches the direct conv without a padded copy to widen it");
    in.xp = x.f32;
    in.xh = x.f32 ? nullptr : x.half;
  }
  // Row k = (c, kh, kw) of the implicit im2col starts at its tap's offset plus c planes: the taps' offsets
  // (with their divisions) are worked out once, then each channel adds a plane (this runs per conv call, on
  // the caller alone: K = 4608 rows for 3x3 over 512 channels).
  int64_t* off = t_offsets.get(static_cast<size_t>(in.K + kDirectOffsetSlack));
  const int64_t taps = in.KH * in.KW;
  for (int64_t kh = 0; kh < in.KH; ++kh)
    for (int64_t kw = 0; kw < in.KW; ++kw) {
      const int64_t th = kh * dh, tw = kw * dw;
      off[kh * in.KW + kw] = (th % sh * sw + tw % sw) * channels * plane + th / sh * pitch + tw / sw;
    }
  for (int64_t c = 1; c < channels; ++c)
    for (int64_t t = 0; t < taps; ++t) off[c * taps + t] = off[t] + c * plane;
  std::fill(off + in.K, off + in.K + kDirectOffsetSlack, off[in.K - 1]);
  in.off = off;
  return in;
}

}  // namespace acl_sim
