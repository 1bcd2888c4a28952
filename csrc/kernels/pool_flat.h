// 3x3 Max- and AveragePool over small planes, each plane one flat run of IH * IW floats.
//
// Row by row, a 7x7 or 14x14 plane spends most of its time on edges and row copies; taken as one run no vector
// is cut at a row's end. Each vector of the run sums its three rows straight from the input (offsets -IW, 0,
// +IW), and its left and right neighbours' sums are shifted in from the vectors either side in registers, the
// ones across a row's end masked to the fill (-inf for the max, 0 for the average) by per-shape masks worked out
// once per call; stride 2 packs its window centres out of the run. Nothing is written and read back: the stop-37
// kernel copied the plane to scratch and read it at other offsets, which stalled on store forwarding (one
// thread, AVX-512: shufflenet's 1x960x7x7 3x3/2 AveragePool 0.057 ms, now 0.019; inception's 1x576x14x14
// 3x3/1 0.052, now 0.027).
#pragma once

#include <cstdint>
#include <vector>

namespace acl_sim {

/**
 * Planes up to this many floats take the flat kernel at stride 1, up to the second at stride 2. One thread, against
 * the row kernels (pool_taps.h): stride 1 on 56x56 0.55x / 0.72x the time (AVX-512 / AVX2), on 64x64 0.86x /
 * 0.90x; stride 2 on 28x28 0.66x / 0.81x, but on 56x56 1.2x / 2.4x (the 3x3/2 kernel works out only its outputs,
 * the flat one every stride-1 window).
 */
constexpr int64_t kFlatPlaneMax = 4096;
constexpr int64_t kFlatPlaneMaxStride2 = 1024;

/**
 * True when pool_3x3_flat_f32 runs here (AVX-512, AVX2) for a 3x3 window, dilation 1, over an IH x IW plane
 * into OH x OW at this stride with top / left pads pt, pl: stride 1 with pads of one (output IH x IW), or stride
 * 2 with pads 0 or 1 and every window centred inside the plane (the windows past the bottom or right edge of a
 * ceil_mode or end pad are clipped, as the op's counts say).
 */
bool pool_3x3_flat_supported(int64_t IH, int64_t IW, int64_t stride, int64_t pt, int64_t pl, int64_t OH, int64_t OW);

/**
 * pool_3x3_flat_f32's per-shape masks: per 16 positions of the flat plane, ten 16-bit masks (bit l: position
 * 16 b + l): one per tap (dy + 1) * 3 + (dx + 1), set where the tap lies inside the plane, then one set where
 * the position is the window centre of an output.
 */
std::vector<uint32_t> pool_3x3_flat_masks(int64_t IH, int64_t IW, int64_t stride, int64_t pt, int64_t pl,
                                          int64_t OH, int64_t OW);

/**
 * Max- or AveragePool 3x3 over `planes` consecutive IH x IW planes into OH x OW (pool_3x3_flat_supported), with
 * `masks` from pool_3x3_flat_masks. The average is each window's sum times inv_counts[o] (1 / its count under
 * the op's rule), an array readable a vector (16 floats) past OH * OW. Max: NaN taps skipped, as everywhere.
 */
void pool_3x3_flat_f32(bool is_max, const float* x, int64_t planes, int64_t IH, int64_t IW, float* y, int64_t OH,
                       int64_t OW, const uint32_t* masks, const float* inv_counts);

/**
 * True when pool_3x3_flat_f16 runs here: AVX-512, whose 16-bit masked loads serve the edge blocks. (AVX2 has none:
 * copying the edge lanes one by one took inception_v2's fp16 3x3 pools 1.2-1.5x the time of widening each plane
 * first; stop 43, in-model A/B, Zen 4, 60 pairs.)
 */
bool pool_3x3_flat_f16_available();

/** pool_3x3_flat_f32 over binary16 planes into binary16, widened as loaded and rounded once as stored. */
void pool_3x3_flat_f16(bool is_max, const uint16_t* x, int64_t planes, int64_t IH, int64_t IW, uint16_t* y,
                       int64_t OH, int64_t OW, const uint32_t* masks, const float* inv_counts);

}  // namespace acl_sim
