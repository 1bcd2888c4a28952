// Hand-vectorised max / min of a float row. GCC does not vectorise float
// max/min reductions without -ffinite-math-only (which would break NaN
// handling elsewhere), so these use intrinsics per ISA with a portable tail.
#pragma once

#include <cstdint>

namespace acl_sim::kern {

/** max (or min when `want_min`) of x[0..n) and `init`; any NaN in x gives NaN (numpy semantics). */
float row_extreme_f32(const float* x, int64_t n, float init, bool want_min);

/**
 * y[i] = e^(x[i] - shift) for x[i] - shift <= 0 (softmax's shift is the row's max), returning the sum of the y;
 * below e^-87.34 a value is 0, a NaN stays NaN. False where this host has no vector version (the caller's
 * scalar loop runs instead).
 */
bool row_exp_shifted_f32(const float* x, float* y, int64_t n, float shift, float* sum);

}  // namespace acl_sim::kern
