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
 * geometry, mult = M / C. Spreads (n, m) planes over the thread pool,
 * depthwise_planes_per_task of them per pool index.
 */
void depthwise_conv_f32(const float* x, const float* w, const float* bias, float* y, int64_t N, int64_t C, int64_t M,
                        const SpatialGeometry& g, const Activation& act);

/** How many output planes depthwise_conv_f32 gives each pool index (~32K multiply-adds). */
int64_t depthwise_planes_per_task(const SpatialGeometry& g);

/**
 * Output planes [first, last) of depthwise_conv_f32 (plane n * M + m), on this thread: x points at the input
 * plane of output plane first, y at output plane first (a task's own staged planes, for_each_plane_range).
 */
void depthwise_conv_planes_f32(const float* x, const float* w, const float* bias, float* y, int64_t first,
                               int64_t last, int64_t C, int64_t M, const SpatialGeometry& g, const Activation& act);

}  // namespace acl_sim
