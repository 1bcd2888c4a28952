// Pixel-major direct convolution: output pixels as the micro-kernel's rows,
// output channels in its vector lanes.
//
// The channel-major direct conv (conv_direct.h) puts pixels in the lanes, so a
// small plane wastes lanes on its junk columns (a 7x7 output on a pitch of 9)
// and a conv with few output channels re-reads its input for every 8 of them.
// Here a micro-tile is MR consecutive pixels of one output row times 32 (AVX2:
// 16) output channels: per im2col row k it loads that row's weights for the
// channels (pre-packed into [K][NR] panels, once per loaded model through the
// node cache) and broadcasts each pixel's input value, read in place from the
// same padded, phase-split input the channel-major path reads
// (prepare_direct_input). MR is picked per conv to divide the output width, so
// no pixel is computed twice or for nothing, and there is no im2col. The tile
// is transposed into the NCHW output with the bias / residual / activation
// epilogue, which is what limits it to long K (small planes of 3x3 convs over
// many channels, densenet's 128->32 above all).
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/conv_direct_input.h"
#include "kernels/conv_geometry.h"
#include "kernels/gemm.h"

namespace acl_sim {

/** Floats pixel_major_pack_weights writes for m_rows x k weights. */
int64_t pixel_major_packed_size(int64_t m_rows, int64_t k);

/**
 * Packs row-major weights w [m_rows, k] into ceil(m_rows / NR) panels of [k][NR] (NR =
 * pixel_major_panel_width(); channels past m_rows are 0) at dst (pixel_major_packed_size floats).
 */
void pixel_major_pack_weights(const float* w, int64_t m_rows, int64_t k, float* dst);

/**
 * True when the pixel-major path is the faster one for this conv (1-D/2-D, strides <= 8), by the
 * measured rule in the .cpp; any = true: whenever it can run it (tests, benchmarks).
 */
bool pixel_major_conv_applies(const SpatialGeometry& g, int64_t channels, int64_t m_rows, bool any);

/**
 * As direct_conv_f32 (conv_direct.h), from weights packed by pixel_major_pack_weights: y [m_rows, out_size]
 * = act(conv(x) + ep.row_bias + ep.residual) for one image and group. Runs on the caller plus the pool
 * (only the caller when parallel is false). ep.out_half (fp16, or bf16 by ep.half_is_bf16): each stored run goes
 * out there instead (fp16 from registers; y is then scratch for what is narrowed from it).
 */
void pixel_major_conv_f32(const ConvInputPlanes& x, int64_t channels, const SpatialGeometry& g, const float* packed_w,
                          int64_t m_rows, float* y, const GemmEpilogue& ep, bool parallel);

}  // namespace acl_sim
