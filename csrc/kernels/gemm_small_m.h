// Few-row GEMM (GEMV-like) fast path; internal to the GEMM entry points.
#pragma once

#include <cstdint>

#include "kernels/gemm.h"

namespace acl_sim {

/** Whether gemm_small_m takes this product. */
bool gemm_small_m_applies(int64_t M, int64_t K, const MatrixRef& A, const MatrixRef& B);

/**
 * Same contract as gemm_f32 with a strided B. Handles M <= 4 with A rows
 * contiguous and B row- or column-contiguous, returning true; returns false
 * (having done nothing) for any other shape so the caller uses the packed path.
 */
bool gemm_small_m(int64_t M, int64_t N, int64_t K, float alpha, const MatrixRef& A, const MatrixRef& B, float beta,
                  float* C, int64_t ldc, const GemmEpilogue& ep, bool parallel);

}  // namespace acl_sim
