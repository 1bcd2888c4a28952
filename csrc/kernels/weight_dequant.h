// Antiquantisation of int8 / int4 matmul weights to fp32 (aclnnWeightQuantBatchMatmulV2):
// w_f32[k][n] = (w[k][n] + offset) * scale, with the scale per tensor, per output channel n, or
// per group of `group` consecutive k (ggml's Q8_0 / Q4_0: groups of 32).
#pragma once

#include <cstdint>

namespace acl_sim::kern {

/** A strided [K, N] weight. Element (k, n) is number offset + k*row_stride + n*col_stride; for int4, number e
 *  is the low (e even) or high (e odd) signed nibble of byte e / 2. */
struct QuantWeight {
  const void* data = nullptr;
  bool int4 = false;
  int64_t offset = 0, row_stride = 0, col_stride = 0;
};

/** out (dense [K, N]) = dequantised w. scale / offset (offset may be NULL) are dense: scale_rows 0 means one
 *  value, 1 means [N], G means [G, N] with row k / group. Tiled over the pool. */
void dequantize_weight(const QuantWeight& w, int64_t K, int64_t N, const float* scale, const float* offset,
                       int64_t scale_rows, int64_t group, float* out);

}  // namespace acl_sim::kern
