// Hand-vectorised max / min of a float row. GCC does not vectorise float
// max/min reductions without -ffinite-math-only (which would break NaN
// handling elsewhere), so these use intrinsics per ISA with a portable tail.
#pragma once

#include <cstdint>

namespace acl_sim::kern {

/** max (or min when `want_min`) of x[0..n) and `init`; any NaN in x gives NaN (numpy semantics). */
float row_extreme_f32(const float* x, int64_t n, float init, bool want_min);

}  // namespace acl_sim::kern
