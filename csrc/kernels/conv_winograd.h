// Winograd F(4x4, 3x3) convolution for 3x3, stride-1, dilation-1, group-1
// 2-D convs (any pads, any batch).
//
// Each 4x4 block of outputs ("tile") comes from a 6x6 input patch d:
// Y = A^T [ (G g G^T) .* (B^T d B) ] A. The element-wise product over the 36
// positions xi, summed over input channels, is 36 independent GEMMs
// U_xi [M x C] x V_xi [C x tiles]: 36 * M * C multiply-adds per tile instead of
// the direct conv's 144 (2.25x fewer). fp32 error grows a few times over the
// direct sum (the transforms' constants reach 5 and 1/24), which the tests
// bound against float64.
//
// U (the weight transform) is built once per loaded model through the node
// cache (conv_node_data.h), else per call. Tiles are processed in blocks of a
// few micro-kernel strips: a block's transformed input V (36 x C x block) and
// GEMM output (36 x M-chunk x block) stay in L2 while the output transform
// applies bias, residual and activation and writes Y.
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/conv_geometry.h"
#include "kernels/epilogue.h"

namespace acl_sim {

/**
 * Winograd-transformed 3x3 weights U = G g G^T: 36 matrices U_xi [M, C] (xi = 6 * row + column), each in the
 * GEMM micro-kernels' packed-A layout, panels of mr rows (M rounded up to mr, the extra rows zero), C steps of
 * mr floats per panel. U streams from memory on every run of a model (4x the weights); packed, each kernel
 * call reads one contiguous panel, which the hardware prefetcher follows, where reading row-major U in place
 * was mr short streams a row (C floats) apart. One U_xi, M rounded up to mr rows:
 */
inline int64_t winograd_matrix_floats(int64_t M, int64_t C, int64_t mr) { return (M + mr - 1) / mr * mr * C; }

/** All of U: 36 matrices of winograd_matrix_floats. */
inline int64_t winograd_weights_floats(int64_t M, int64_t C, int64_t mr) {
  return 36 * winograd_matrix_floats(M, C, mr);
}

/** The panel rows (mr) winograd_conv_f32 reads U in for this geometry and batch: the micro-kernel it picks. */
int64_t winograd_panel_rows(const SpatialGeometry& g, int64_t N);

/** U for weights w [M, C, 3, 3] in panels of mr rows, computed in double and rounded once. Thread-safe; only
 * where winograd_conv_supported (its vectorised loops are the AVX-512 / AVX2 ones). */
void winograd_transform_weights(const float* w, int64_t M, int64_t C, int64_t mr, float* u);

/** True when g is a 2-D 3x3 window with stride 1 and dilation 1 and this host has the SIMD kernels (AVX2+). */
bool winograd_conv_supported(const SpatialGeometry& g);

/**
 * The measured selection rule: true when the Winograd path is expected to beat the direct / im2col paths
 * for this supported geometry with C input and M output channels (per group; group must be 1).
 * pixel_major_ready: the pixel-major conv takes this geometry with its weights packed once (a loaded model).
 */
bool winograd_conv_preferred(const SpatialGeometry& g, int64_t C, int64_t M, int64_t N, bool pixel_major_ready);

/**
 * An fp16 / bf16 model's X and Y as they lie: x is widened plane by plane as the input transform prepares it,
 * and the output transform stores y (fp16 straight from registers; bf16, and activations applied after the
 * store, as each finished row segment), so no widening or narrowing pass runs over the tensors.
 */
struct WinogradHalfIo {
  const uint16_t* x = nullptr;  // non-null: read X here instead of the fp32 x
  uint16_t* y = nullptr;        // non-null: Y goes here; the fp32 y is then scratch for segments narrowed from it
  bool bf16 = false;            // both hold bf16 instead of fp16
};

/**
 * y = act(conv3x3(x, w) + bias[m] + residual) for a batch: x [N, C, IH, IW], u the transformed weights
 * (winograd_transform_weights with mr = winograd_panel_rows(g, N)), y and residual [N, M, OH, OW] (residual
 * and bias may be null).
 * Runs on the caller plus the pool; blocks until done.
 */
void winograd_conv_f32(const float* x, int64_t N, int64_t C, const SpatialGeometry& g, const float* u, int64_t M,
                       float* y, const float* bias, const float* residual, const Activation& act,
                       const WinogradHalfIo& half = {});

}  // namespace acl_sim
