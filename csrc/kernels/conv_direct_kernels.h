// The direct conv's micro-kernels (internal to conv_direct.cpp): one strip of output positions for MR weight rows,
// the input read through the im2col row offsets of the prepared input (conv_direct_input.h).
#pragma once

#include <cstdint>

#include "kernels/conv_direct_packed.h"

namespace acl_sim {

/**
 * c[i*ldc + j] (=|+=) sum_k a[i*lda + k] * b[off[k] + j] for i < m_valid, j < n_valid. kMasked: columns past
 * n_valid are never read (the last strip may end at the input buffer's end). ep (or nullptr) is the conv's
 * epilogue, applied in registers before the store of the last K slice, in finish_run's order (+ residual,
 * + bias, ReLU), so the results are those of the pass it replaces; with ep->half the results go out as binary16.
 */
using ConvKernelFn = void (*)(int64_t kc, const float* a, int64_t lda, const float* b, const int64_t* off, float* c,
                              int64_t ldc, int m_valid, int n_valid, bool accumulate, const DirectStripEpilogue* ep);

/**
 * The same over a binary16 b (an fp16 model's activations read in place), each value widened as it is loaded:
 * the float kernel's results on the widened input.
 */
using ConvHalfBKernelFn = void (*)(int64_t kc, const float* a, int64_t lda, const uint16_t* b, const int64_t* off,
                                   float* c, int64_t ldc, int m_valid, int n_valid, bool accumulate,
                                   const DirectStripEpilogue* ep);

/** The kernels of this host's ISA (cpu_features().isa). */
struct ConvKernels {
  int mr, lanes, max_nv;
  ConvKernelFn fn[3][2];  // [nv-1][masked]
  int half_width;         // 0, or the width of a narrower tail kernel (AVX-512: an 8-float ymm strip)
  ConvKernelFn half[2];
  // Over a binary16 b, [nv-1][masked] (no narrower tail kernel); null where the ISA has none (only AVX-512 does:
  // AVX2 sends the pointwise convs, the ones that read their input in place, to the GEMM).
  ConvHalfBKernelFn fn_half_b[3][2];
};
const ConvKernels& direct_conv_kernels();

}  // namespace acl_sim
