// Direct depthwise convolution (group == C, each output channel reads one
// input channel): a GEMM would have K = kernel size only, so a sliding-window
// kernel over output rows is faster. Used for MobileNet / PP-OCR 3x3 and 5x5.
// Strides 1 and 2 on AVX-512 / AVX2 pad each plane once and accumulate a
// vector of output columns over the whole window in a register.
#pragma once

#include <cstdint>

#include "kernels/conv_geometry.h"
#include "kernels/epilogue.h"

namespace acl_sim {

/**
 * y[n, m] = act(sum_k x[n, m / mult] * w[m, 0, k] + bias[m]) for 1-D or 2-D
 * geometry, mult = M / C. Spreads (n, m) planes over the thread pool.
 */
void depthwise_conv_f32(const float* x, const float* w, const float* bias, float* y, int64_t N, int64_t C, int64_t M,
                        const SpatialGeometry& g, const Activation& act);

}  // namespace acl_sim
