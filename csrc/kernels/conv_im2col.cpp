#include "kernels/conv_im2col.h"

#include <algorithm>

namespace acl_sim {

Im2ColSource::Im2ColSource(const float* x, int64_t channels, const SpatialGeometry& g) : x_(x), channels_(channels) {
  const int lead = 3 - g.nsp;
  for (int i = 0; i < 3; ++i) {
    const int j = i - lead;
    const bool real = j >= 0;
    in_[i] = real ? g.in[j] : 1;
    out_[i] = real ? g.out[j] : 1;
    k_[i] = real ? g.kernel[j] : 1;
    s_[i] = real ? g.stride[j] : 1;
    d_[i] = real ? g.dilation[j] : 1;
    p_[i] = real ? g.pad_begin[j] : 0;
  }
}

void Im2ColSource::pack(int64_t k0, int64_t kc, int64_t n0, int64_t n_valid, int64_t width, float* dst) const {
  const int64_t KW = k_[2], KH = k_[1], KD = k_[0];
  const int64_t OW = out_[2], OH = out_[1];
  const int64_t IW = in_[2], IH = in_[1], ID = in_[0];
  const int64_t sw = s_[2];
  for (int64_t kk = 0; kk < kc; ++kk) {
    const int64_t k = k0 + kk;
    const int64_t kw = k % KW, kh = (k / KW) % KH, kd = (k / (KW * KH)) % KD, c = k / (KW * KH * KD);
    float* row = dst + kk * width;
    const float* plane = x_ + c * ID * IH * IW;
    // The valid output-column range for this kernel column: 0 <= ow*sw - pw + kw*dw < IW.
    const int64_t off_w = kw * d_[2] - p_[2];
    const int64_t ow_lo = off_w >= 0 ? 0 : (-off_w + sw - 1) / sw;
    const int64_t ow_hi = IW - 1 - off_w < 0 ? 0 : std::min(OW, (IW - 1 - off_w) / sw + 1);
    int64_t n = n0, j = 0;
    int64_t ow = n % OW, oh = (n / OW) % OH, od = n / (OW * OH);
    while (j < n_valid) {
      const int64_t run = std::min(OW - ow, n_valid - j);
      const int64_t ih = oh * s_[1] - p_[1] + kh * d_[1];
      const int64_t id = od * s_[0] - p_[0] + kd * d_[0];
      float* out = row + j;
      if (ih < 0 || ih >= IH || id < 0 || id >= ID) {
        for (int64_t t = 0; t < run; ++t) out[t] = 0.f;
      } else {
        const float* src = plane + (id * IH + ih) * IW + off_w;
        const int64_t lo = std::clamp(ow_lo - ow, int64_t{0}, run), hi = std::clamp(ow_hi - ow, lo, run);
        for (int64_t t = 0; t < lo; ++t) out[t] = 0.f;
        if (sw == 1) {
          const float* s = src + ow;
          for (int64_t t = lo; t < hi; ++t) out[t] = s[t];
        } else {
          for (int64_t t = lo; t < hi; ++t) out[t] = src[(ow + t) * sw];
        }
        for (int64_t t = hi; t < run; ++t) out[t] = 0.f;
      }
      j += run;
      ow += run;
      if (ow == OW) {
        ow = 0;
        if (++oh == OH) {
          oh = 0;
          ++od;
        }
      }
    }
    for (int64_t t = n_valid; t < width; ++t) row[t] = 0.f;
  }
}

}  // namespace acl_sim
