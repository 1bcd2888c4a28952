// y = x * a + b (then Relu) over one binary16 plane, widened as loaded and rounded once as stored: a BatchNorm of
// an fp16 model (force_fp16) in one pass over half the bytes, where staging each plane through fp32 scratch took
// 2.5x the fp32 BN's time (densenet121's 58 pre-activation BN-ReLUs).
#pragma once

#include <cstdint>

namespace acl_sim {

/** True when channel_affine_half runs here (AVX-512, AVX2 with F16C). */
bool channel_affine_half_available();

/**
 * y[i] = half(fma(x[i], a, b)), or max(that, 0) before rounding when `relu` (a NaN gives 0, as the fp32 kernel's
 * v > 0 ? v : 0 does), for i in [0, n): the fp32 kernel's result on the widened plane, rounded once.
 */
void channel_affine_half(const uint16_t* x, uint16_t* y, int64_t n, float a, float b, bool relu);

}  // namespace acl_sim
