// Blocked GEMM for the element types the packed fp32 GEMM does not cover: float64 (MatMul on
// double) and int32 accumulation (MatMulInteger / ConvInteger on shifted 8-bit values).
// C[M, N] = A[M, K] x B[K, N], row-major with leading dimensions; rows of C are tiled over the
// pool, K in cache-sized panels, and the inner loop is a unit-stride axpy over a row of B that
// the compiler vectorises (multiversioned for AVX-512 / AVX2).
#pragma once

#include <cstdint>

namespace acl_sim {

void gemm_f64(int64_t M, int64_t N, int64_t K, const double* A, int64_t lda, const double* B, int64_t ldb, double* C,
              int64_t ldc, bool parallel = true);
void gemm_i32(int64_t M, int64_t N, int64_t K, const int32_t* A, int64_t lda, const int32_t* B, int64_t ldb,
              int32_t* C, int64_t ldc, bool parallel = true);

}  // namespace acl_sim
