// Every other element of a row: the column phase planes of stride-2 convs.
#pragma once

#include <cstdint>

namespace acl_sim {

/**
 * dst[j] = src[2 * j] for j in [0, n); reads src[0 .. 2n - 2] only. Vectorised (AVX-512, AVX2): a scalar
 * strided copy took 17% of a 3x3/2 conv's time building its phase planes (resnet50's 128 channels at 56x56);
 * im2col's stride-2 runs of 16+ columns use it too (0.93x on that conv's im2col GEMM, AVX-512, in the model).
 */
void gather_stride2_f32(const float* src, int64_t n, float* dst);

}  // namespace acl_sim
