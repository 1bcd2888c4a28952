// The inner loop of MaxPool / AveragePool: one output row's interior columns
// (whole window inside the input row) accumulated tap by tap.
//
// Vectorised per ISA with masked tails: an interior run is short (55 columns
// for resnet's 3x3/2 stem pool), so a scalar epilogue after the vector loop
// would cost as much as the vector part.
#pragma once

#include <cstdint>
#include <vector>

namespace acl_sim {

/**
 * For i in [0, n), t in [0, kw): acc[i] = max(acc[i], r[i*s + t*dw]) (is_max; a NaN tap is skipped) or
 * acc[i] += r[i*s + t*dw]. Reads only those elements of r. Any s >= 1, dw >= 1.
 */
void pool_row_taps_f32(bool is_max, float* acc, const float* r, int64_t n, int64_t kw, int64_t dw, int64_t s);

/** True when this host has the per-plane pool kernels (AVX-512 or AVX2): the 3x3/2, 2x2/2, 3x3/1 and flat ones. */
bool pool_plane_kernels_available();

/** True when pool_3x3s2_plane_f32 runs here: this host has its kernel (AVX-512, AVX2) and pt, pl are 0 or 1. */
bool pool_3x3s2_supported(int64_t pt, int64_t pl);

/**
 * MaxPool (inv_counts null) or AveragePool 3x3, stride 2, dilation 1 over one plane x [IH, IW] into y [OH, OW],
 * with top / left pads pt, pl (pool_3x3s2_supported); windows past the bottom or right edge are clipped.
 * Max: a window of only padding gives -inf, NaN is skipped. Average: the window's sum times inv_counts[oh * OW +
 * ow] (1 / its count under the op's count_include_pad rule, 0 for none), an array readable for a whole vector
 * (16 floats) past its end. Separable: per output row the three input rows are reduced into one padded row (this
 * thread's scratch), whose even / odd columns give the outputs a vector at a time: 3 + 3 values per output
 * instead of 9, no call per tap (resnet's stem pool took 5x onnxruntime's time on the generic row path,
 * shufflenet's 3x3/2 AveragePools 1.9x).
 */
void pool_3x3s2_plane_f32(const float* x, int64_t IH, int64_t IW, int64_t pt, int64_t pl, float* y, int64_t OH,
                          int64_t OW, const float* inv_counts);

/**
 * pool_3x3s2_plane_f32 over a binary16 plane into a binary16 one: each element widened as it is loaded and each
 * output rounded once as it is stored, so the result is the fp32 kernel's on the widened plane, narrowed, with no
 * widened copy of the plane (squeezenet's fp16 MaxPools on 111x111 and 55x55 planes took 1.4x their fp32 time
 * widening each plane into scratch first).
 */
void pool_3x3s2_plane_f16(const uint16_t* x, int64_t IH, int64_t IW, int64_t pt, int64_t pl, uint16_t* y, int64_t OH,
                          int64_t OW, const float* inv_counts);

/** True when avg_pool_2x2s2_plane_f32 runs here (AVX-512, AVX2). */
bool avg_pool_2x2s2_supported();

/**
 * AveragePool 2x2, stride 2, dilation 1, no padding, over one plane x [.., IW] into y [OH, OW] with every
 * window inside the plane (2 OH <= IH, 2 OW <= IW): densenet's transition pools, which took 1.24x
 * onnxruntime's time on the row path (a call per output row and tap).
 */
void avg_pool_2x2s2_plane_f32(const float* x, int64_t IW, float* y, int64_t OH, int64_t OW);

/** True when pool_3x3s1p1_plane_f32 runs here (AVX-512, AVX2) for an IH x IW plane (IW >= 3). */
bool pool_3x3s1p1_supported(int64_t IH, int64_t IW);

/**
 * MaxPool (is_max) or AveragePool 3x3, stride 1, dilation 1, one pad on each side (output IH x IW),
 * count_include_pad as given (AveragePool), over one plane: the generic row path's results, a vector at a time
 * over padded row copies (the row path took 2.6x onnxruntime's time on a 1x128x28x28 AveragePool, three calls
 * per output row and masked tails; the inception blocks' 3x3/1 MaxPool on 7x7 planes, 5-10x).
 */
void pool_3x3s1p1_plane_f32(bool is_max, const float* x, int64_t IH, int64_t IW, float* y, bool include_pad);

/** Sum / max of x[0..n) for a window that is the whole plane (a NaN is skipped by the max). */
float plane_sum_f32(const float* x, int64_t n);
float plane_max_f32(const float* x, int64_t n);

/**
 * plane_sum_f32 / plane_max_f32 of a binary16 plane, widened as it is read: the fp32 results on the widened plane,
 * bit for bit, with no widened copy (squeezenet's fp16 GlobalAveragePool over 1000 planes of 13x13 took 1.8x its
 * fp32 time staging them). Only where pool_plane_kernels_available().
 */
float plane_sum_f16(const uint16_t* x, int64_t n);
float plane_max_f16(const uint16_t* x, int64_t n);

}  // namespace acl_sim
