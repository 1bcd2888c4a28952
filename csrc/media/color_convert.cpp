#include "media/color_convert.h"

#include <algorithm>
#include <cstring>

#include "executor/thread_pool.h"

namespace acl_sim::media {

namespace {

inline uint8_t sat(float v) {
  v += 0.5f;
  return static_cast<uint8_t>(v <= 0.f ? 0.f : (v >= 255.f ? 255.f : v));
}

// Plain loops over contiguous planes: the compiler vectorises them (no gathers, no branches but the clamp).
void yuv_to_rgb(const uint8_t* y, const uint8_t* u, const uint8_t* v, uint8_t* r, uint8_t* g, uint8_t* b, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    float yy = y[i], uu = u[i] - 128.f, vv = v[i] - 128.f;
    r[i] = sat(yy + 1.402f * vv);
    g[i] = sat(yy - 0.344136f * uu - 0.714136f * vv);
    b[i] = sat(yy + 1.772f * uu);
  }
}

void rgb_to_yuv(const uint8_t* r, const uint8_t* g, const uint8_t* b, uint8_t* y, uint8_t* u, uint8_t* v, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    float rr = r[i], gg = g[i], bb = b[i];
    y[i] = sat(0.299f * rr + 0.587f * gg + 0.114f * bb);
    u[i] = sat(-0.168736f * rr - 0.331264f * gg + 0.5f * bb + 128.f);
    v[i] = sat(0.5f * rr - 0.418688f * gg - 0.081312f * bb + 128.f);
  }
}

}  // namespace

void convert_planes(const uint8_t* const in[3], uint8_t* const out[3], size_t n, ColorFamily from, ColorFamily to) {
  constexpr size_t kChunk = 64 * 1024;
  const size_t chunks = (n + kChunk - 1) / kChunk;
  ThreadPool::instance().parallel_for(chunks, [&](size_t c) {
    const size_t lo = c * kChunk, len = std::min(kChunk, n - lo);
    if (from == to) {
      for (int k = 0; k < 3; ++k) std::memcpy(out[k] + lo, in[k] + lo, len);
    } else if (from == ColorFamily::kYuv) {
      yuv_to_rgb(in[0] + lo, in[1] + lo, in[2] + lo, out[0] + lo, out[1] + lo, out[2] + lo, len);
    } else {
      rgb_to_yuv(in[0] + lo, in[1] + lo, in[2] + lo, out[0] + lo, out[1] + lo, out[2] + lo, len);
    }
  });
}

}  // namespace acl_sim::media
