#include "kernels/weight_dequant.h"

#include "kernels/elementwise_common.h"

namespace acl_sim::kern {

void dequantize_weight(const QuantWeight& w, int64_t K, int64_t N, const float* scale, const float* offset,
                       int64_t scale_rows, int64_t group, float* out) {
  const auto* bytes = static_cast<const uint8_t*>(w.data);
  parallel_blocks(K, rows_grain(N), [&](int64_t k0, int64_t k1) {
    for (int64_t k = k0; k < k1; ++k) {
      const int64_t srow = scale_rows <= 1 ? 0 : k / group;
      const float* sr = scale + (scale_rows == 0 ? 0 : srow * N);
      const float* orow = offset ? offset + (scale_rows == 0 ? 0 : srow * N) : nullptr;
      const int64_t cstep = scale_rows == 0 ? 0 : 1;
      float* o = out + k * N;
      for (int64_t n = 0; n < N; ++n) {
        const int64_t e = w.offset + k * w.row_stride + n * w.col_stride;
        int v;
        if (w.int4) {
          const uint8_t b = bytes[e >> 1];
          const int nib = (e & 1) ? (b >> 4) : (b & 0xf);
          v = nib >= 8 ? nib - 16 : nib;
        } else {
          v = static_cast<int8_t>(bytes[e]);
        }
        const float off = orow ? orow[n * cstep] : 0.f;
        o[n] = (static_cast<float>(v) + off) * sr[n * cstep];
      }
    }
  });
}

}  // namespace acl_sim::kern
