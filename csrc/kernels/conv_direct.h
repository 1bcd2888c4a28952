// Direct (implicit-GEMM, no packing) convolution for stride-1 1-D/2-D convs.
//
// With stride 1, row k = (c, kh, kw) of the im2col matrix is the input plane
// shifted by kh*IW + kw. Computing outputs on the padded input's row pitch
// ("padded-width" positions q = oh*IWp + ow, with IWp - OW junk columns per
// row that are dropped at the end) makes every im2col row a contiguous run of
// the zero-padded input, so the micro-kernel reads B in place through a table
// of K row offsets: no im2col expansion and no B packing pass (which was a
// quarter of a 1x1 conv's time in the packed GEMM). The padded copy of the
// input is one pass over C*IHp*IWp floats, skipped when the conv has no pads.
#pragma once

#include <cstdint>

#include "kernels/conv_geometry.h"
#include "kernels/gemm.h"

namespace acl_sim {

/** True when direct_conv_f32 computes this geometry: 1-2 spatial axes, stride 1 on each. */
bool direct_conv_applies(const SpatialGeometry& g);

/**
 * y[m, p] = act(sum_k w[m, k] * im2col(x)[k, p] + ep.row_bias[m] + ep.residual[m, p]) for one image and group:
 * x is `channels` planes [channels, in...], w is [m_rows, channels * kernel] row-major, y and ep.residual are
 * [m_rows, out_size]. Runs on the caller plus the pool (only the caller when parallel is false).
 */
void direct_conv_f32(const float* x, int64_t channels, const SpatialGeometry& g, const float* w, int64_t m_rows,
                     float* y, const GemmEpilogue& ep, bool parallel);

}  // namespace acl_sim
