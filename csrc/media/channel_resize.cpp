#include "media/channel_resize.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "executor/thread_pool.h"

namespace acl_sim::media {

namespace {

/** Source taps of one output coordinate: value = s[i0] * (1 - w) + s[i1] * w. */
struct Taps {
  std::vector<uint32_t> i0, i1;
  std::vector<float> w;
};

Taps make_taps(uint32_t src_n, uint32_t dst_n, double scale, Interpolation mode) {
  Taps t;
  t.i0.resize(dst_n);
  t.i1.resize(dst_n);
  t.w.resize(dst_n);
  const uint32_t last = src_n - 1;
  for (uint32_t d = 0; d < dst_n; ++d) {
    if (mode == Interpolation::kNearest || mode == Interpolation::kNearestTf) {
      uint32_t s = std::min(static_cast<uint32_t>(std::floor(d * scale)), last);
      t.i0[d] = t.i1[d] = s;
      t.w[d] = 0.f;
      continue;
    }
    double f = mode == Interpolation::kBilinear ? (d + 0.5) * scale - 0.5 : d * scale;
    if (f < 0) f = 0;
    auto s = static_cast<uint32_t>(std::floor(f));
    double frac = f - s;
    if (s >= last) {
      s = last;
      frac = 0;
    }
    t.i0[d] = s;
    t.i1[d] = std::min(s + 1, last);
    t.w[d] = static_cast<float>(frac);
  }
  return t;
}

inline uint8_t to_u8(float v) {
  v += 0.5f;
  return static_cast<uint8_t>(v <= 0.f ? 0.f : (v >= 255.f ? 255.f : v));
}

void fill_rect(const ChannelView& dst, const Rect& r, uint8_t value) {
  for (uint32_t y = 0; y < r.h; ++y) {
    uint8_t* row = dst.base + (r.y + y) * dst.row_stride + static_cast<size_t>(r.x) * dst.step;
    for (uint32_t x = 0; x < r.w; ++x) row[x * dst.step] = value;
  }
}

void copy_rect(const ChannelView& src, const Rect& s, const ChannelView& dst, const Rect& d) {
  ThreadPool::instance().parallel_for(d.h, [&](size_t y) {
    const uint8_t* in = src.base + (s.y + y) * src.row_stride + static_cast<size_t>(s.x) * src.step;
    uint8_t* out = dst.base + (d.y + y) * dst.row_stride + static_cast<size_t>(d.x) * dst.step;
    if (src.step == 1 && dst.step == 1) {
      std::copy(in, in + d.w, out);
      return;
    }
    for (uint32_t x = 0; x < d.w; ++x) out[x * dst.step] = in[x * src.step];
  });
}

}  // namespace

void resize_channel(const ChannelView& src, const Rect& s, const ChannelView& dst, const Rect& d,
                    Interpolation mode) {
  if (d.w == 0 || d.h == 0) return;
  resize_channel(src, s, dst, d, mode, static_cast<double>(s.w) / d.w, static_cast<double>(s.h) / d.h);
}

void resize_channel(const ChannelView& src, const Rect& s, const ChannelView& dst, const Rect& d,
                    Interpolation mode, double scale_x, double scale_y) {
  if (d.w == 0 || d.h == 0) return;
  if (!src.base) return fill_rect(dst, d, src.fill);
  if (scale_x == 1.0 && scale_y == 1.0 && s.w == d.w && s.h == d.h) return copy_rect(src, s, dst, d);

  const Taps tx = make_taps(s.w, d.w, scale_x, mode);
  const Taps ty = make_taps(s.h, d.h, scale_y, mode);
  constexpr uint32_t kRowsPerTask = 16;
  const size_t tasks = (d.h + kRowsPerTask - 1) / kRowsPerTask;
  ThreadPool::instance().parallel_for(tasks, [&](size_t task) {
    // Separable: each needed source row is resampled horizontally once into a float row (a gather), then
    // output rows are blended vertically from two such rows (contiguous, vectorised).
    std::vector<float> rows[2] = {std::vector<float>(d.w), std::vector<float>(d.w)};
    int64_t cached[2] = {-1, -1};
    std::vector<float> blended(d.w);
    auto ensure = [&](int slot, uint32_t sy) {
      if (cached[slot] == sy) return;
      const uint8_t* in = src.base + (s.y + sy) * src.row_stride + static_cast<size_t>(s.x) * src.step;
      float* out = rows[slot].data();
      const size_t step = src.step;
      for (uint32_t x = 0; x < d.w; ++x) {
        float a = in[tx.i0[x] * step], b = in[tx.i1[x] * step];
        out[x] = a + (b - a) * tx.w[x];
      }
      cached[slot] = sy;
    };
    const uint32_t y_end = std::min<uint32_t>(d.h, static_cast<uint32_t>((task + 1) * kRowsPerTask));
    for (uint32_t y = static_cast<uint32_t>(task * kRowsPerTask); y < y_end; ++y) {
      if (cached[1] == ty.i0[y] && cached[0] != ty.i0[y]) {  // moving down: the lower row becomes the upper
        std::swap(rows[0], rows[1]);
        std::swap(cached[0], cached[1]);
      }
      ensure(0, ty.i0[y]);
      ensure(1, ty.i1[y]);
      const float* r0 = rows[0].data();
      const float* r1 = rows[1].data();
      const float wy = ty.w[y];
      uint8_t* out = dst.base + (d.y + y) * dst.row_stride + static_cast<size_t>(d.x) * dst.step;
      float* b = blended.data();
      for (uint32_t x = 0; x < d.w; ++x) b[x] = r0[x] + (r1[x] - r0[x]) * wy;
      if (dst.step == 1) {
        for (uint32_t x = 0; x < d.w; ++x) out[x] = to_u8(b[x]);
      } else {
        for (uint32_t x = 0; x < d.w; ++x) out[x * dst.step] = to_u8(b[x]);
      }
    }
  });
}

}  // namespace acl_sim::media
