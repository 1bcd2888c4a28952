// Packing for the GEMM driver (internal): A micro-panels for strided or scaled A,
// and the strided-matrix B source. The k-major layouts are what the micro-kernels read.
#pragma once

#include <cstdint>

#include "kernels/gemm.h"

namespace acl_sim {

/**
 * Pack rows [m0, m0+mc) x cols [k0, k0+kc) of alpha*A into MR-row micro-panels:
 * panel p holds kc steps of mr floats; rows past mc are zero.
 */
void pack_a(const MatrixRef& A, float alpha, int64_t m0, int64_t mc, int64_t k0, int64_t kc, int mr, float* dst);

}  // namespace acl_sim
