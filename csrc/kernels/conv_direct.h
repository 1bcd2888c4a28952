// Direct (implicit-GEMM, no packing) convolution for 1-D/2-D convs.
//
// With stride 1, row k = (c, kh, kw) of the im2col matrix is the input plane
// shifted by kh*IW + kw. Computing outputs on the padded input's row pitch
// (positions q = oh*pitch + ow, with pitch - OW junk columns per row that are
// dropped at the end) makes every im2col row a contiguous run of the
// zero-padded input, so the micro-kernel reads B in place through a table of
// K row offsets: no im2col expansion and no B packing pass (which was a
// quarter of a 1x1 conv's time in the packed GEMM). A stride s conv becomes
// the same thing after the padded input is split into s*s phase planes (space
// to depth: phase (a, b) holds pixels (i*s + a, j*s + b)): tap (kh, kw) reads
// phase (kh % s, kw % s) shifted by (kh / s, kw / s). Preparing the input is
// one pass over it, skipped when the conv has no pads and stride 1.
#pragma once

#include <cstdint>

#include "kernels/conv_direct_input.h"
#include "kernels/conv_geometry.h"
#include "kernels/gemm.h"

namespace acl_sim {

/**
 * True when direct_conv_f32 takes this geometry over `channels` input channels (per group): 1-2 spatial
 * axes, strides <= 8; unless any_width, also a plane pitch that adds at most 5% junk columns per output
 * row, strided windows only over few channels (where it was measured faster than im2col), and on AVX2 no
 * pointwise conv (slower than the packed GEMM there).
 */
bool direct_conv_applies(const SpatialGeometry& g, int64_t channels, int64_t m_rows, bool any_width = false);

/**
 * True when direct_conv_f32 reads a binary16 x in place (no pads, stride 1) with kernels that widen it as they load
 * it (AVX-512); elsewhere such an input is widened before it.
 */
bool direct_conv_half_b_available();

/**
 * y[m, p] = act(sum_k w[m, k] * im2col(x)[k, p] + ep.row_bias[m] + ep.residual[m, p]) for one image and group:
 * x is `channels` planes [channels, in...] (fp32; or 16-bit, widened by the padded copy, where
 * direct_input_copies(g); or binary16 read in place, elsewhere, where direct_conv_half_b_available()), w is
 * [m_rows, channels * kernel] row-major, y and ep.residual are [m_rows, out_size]. Runs on the caller plus the
 * pool (only the caller when parallel is false). packed_w, when given (only where direct_packed_available()), is w
 * packed by direct_pack_weights (conv_direct_packed.h): tiles whose columns split into 48-column strips plus 1-2
 * extra columns each then run the packed strip kernels.
 * ep.out_half (fp16 or bf16 by ep.half_is_bf16; residual_half is not read): y is then fp32 staging, and each
 * finished region is narrowed into out_half (same offsets) while it is in cache, so no pass over y follows.
 */
void direct_conv_f32(const ConvInputPlanes& x, int64_t channels, const SpatialGeometry& g, const float* w,
                     int64_t m_rows, float* y, const GemmEpilogue& ep, bool parallel,
                     const float* packed_w = nullptr);

}  // namespace acl_sim
