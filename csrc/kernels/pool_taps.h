// The inner loop of MaxPool / AveragePool: one output row's interior columns
// (whole window inside the input row) accumulated tap by tap.
//
// Vectorised per ISA with masked tails: an interior run is short (55 columns
// for resnet's 3x3/2 stem pool), so a scalar epilogue after the vector loop
// would cost as much as the vector part.
#pragma once

#include <cstdint>

namespace acl_sim {

/**
 * For i in [0, n), t in [0, kw): acc[i] = max(acc[i], r[i*s + t*dw]) (is_max; a NaN tap is skipped) or
 * acc[i] += r[i*s + t*dw]. Reads only those elements of r. Any s >= 1, dw >= 1.
 */
void pool_row_taps_f32(bool is_max, float* acc, const float* r, int64_t n, int64_t kw, int64_t dw, int64_t s);

/** Sum / max of x[0..n) for a window that is the whole plane (a NaN is skipped by the max). */
float plane_sum_f32(const float* x, int64_t n);
float plane_max_f32(const float* x, int64_t n);

}  // namespace acl_sim
