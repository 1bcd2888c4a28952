/**
 * @file acl_cblas.h
 * AscendCL BLAS (aclblas*): matrix-matrix and matrix-vector products on the
 * device, C = alpha * op(A) * op(B) + beta * C, asynchronous on a stream.
 * Names, enum values and signatures follow CANN's acl/ops/acl_cblas.h; acl_sim
 * runs them on its GEMM kernels (see docs/aclblas.md). CANN ships these in a
 * separate libacl_cblas.so; acl_sim exports them from libascendcl.so and also
 * installs a libacl_cblas.so that only depends on it, so that `-lacl_cblas` links.
 *
 * Conventions shared by every function here:
 * - Matrices are row-major. A is m x k (stored k x m for ACL_TRANS_T), B is
 *   k x n (n x k for ACL_TRANS_T), C is m x n. The fractal layouts
 *   (ACL_TRANS_NZ) are FRACTAL_NZ {ceil(cols/16), ceil(rows/16), 16, 16}
 *   ({..., 16, 32} for int8 A) and, for an int8 B, FRACTAL_Z
 *   {ceil(k/32), ceil(n/16), 16, 32}. transC takes ACL_TRANS_N or ACL_TRANS_NZ.
 * - lda / ldb / ldc and incx / incy are reserved and must be -1.
 * - alpha, beta and every matrix / vector are device memory (aclrtMalloc);
 *   alpha and beta hold one value of C's data type.
 * - type must be ACL_COMPUTE_HIGH_PRECISION (fp16 products accumulate in fp32,
 *   int8 products in int32).
 * - Supported (A/B, C) data types: (float16, float16), (float16, float),
 *   (int8, float), (int8, int32).
 * Failures return ACL_ERROR_INVALID_PARAM (bad enum, size, pointer or leading
 * dimension) or ACL_ERROR_UNSUPPORTED_DATA_TYPE, with a message for
 * aclGetRecentErrMsg.
 */
#ifndef ACL_SIM_ACL_OPS_ACL_CBLAS_H_
#define ACL_SIM_ACL_OPS_ACL_CBLAS_H_

#include "../acl_base.h"
#include "../acl_mdl.h"
#include "../acl_op.h"
#include "../acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

/** How a matrix is stored: as is, transposed, or in the fractal (NZ) layout. */
typedef enum aclTransType { ACL_TRANS_N, ACL_TRANS_T, ACL_TRANS_NZ, ACL_TRANS_NZ_T } aclTransType;

/** Accumulation precision. Only ACL_COMPUTE_HIGH_PRECISION is accepted (as on CANN). */
typedef enum aclComputeType { ACL_COMPUTE_HIGH_PRECISION, ACL_COMPUTE_LOW_PRECISION } aclComputeType;

/* ---- matrix x vector: y = alpha * op(A) * x + beta * y; op(A) is m x n --------------- */

ACL_FUNC_VISIBILITY aclError aclblasGemvEx(aclTransType transA, int m, int n, const void *alpha, const void *a,
                                           int lda, aclDataType dataTypeA, const void *x, int incx,
                                           aclDataType dataTypeX, const void *beta, void *y, int incy,
                                           aclDataType dataTypeY, aclComputeType type, aclrtStream stream);
/** A handle for aclopExecWithHandle: inputs {a, x, y, alpha, beta}, output {y}. */
ACL_FUNC_VISIBILITY aclError aclblasCreateHandleForGemvEx(aclTransType transA, int m, int n, aclDataType dataTypeA,
                                                          aclDataType dataTypeX, aclDataType dataTypeY,
                                                          aclComputeType type, aclopHandle **handle);
ACL_FUNC_VISIBILITY aclError aclblasHgemv(aclTransType transA, int m, int n, const aclFloat16 *alpha,
                                          const aclFloat16 *a, int lda, const aclFloat16 *x, int incx,
                                          const aclFloat16 *beta, aclFloat16 *y, int incy, aclComputeType type,
                                          aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclblasCreateHandleForHgemv(aclTransType transA, int m, int n, aclComputeType type,
                                                         aclopHandle **handle);
ACL_FUNC_VISIBILITY aclError aclblasS8gemv(aclTransType transA, int m, int n, const int32_t *alpha, const int8_t *a,
                                           int lda, const int8_t *x, int incx, const int32_t *beta, int32_t *y,
                                           int incy, aclComputeType type, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclblasCreateHandleForS8gemv(aclTransType transA, int m, int n, aclComputeType type,
                                                          aclopHandle **handle);

/* ---- matrix x matrix: C = alpha * op(A) * op(B) + beta * C ---------------------------- */

ACL_FUNC_VISIBILITY aclError aclblasGemmEx(aclTransType transA, aclTransType transB, aclTransType transC, int m,
                                           int n, int k, const void *alpha, const void *matrixA, int lda,
                                           aclDataType dataTypeA, const void *matrixB, int ldb,
                                           aclDataType dataTypeB, const void *beta, void *matrixC, int ldc,
                                           aclDataType dataTypeC, aclComputeType type, aclrtStream stream);
/** A handle for aclopExecWithHandle: inputs {A, B, C, alpha, beta}, output {C}. */
ACL_FUNC_VISIBILITY aclError aclblasCreateHandleForGemmEx(aclTransType transA, aclTransType transB,
                                                          aclTransType transC, int m, int n, int k,
                                                          aclDataType dataTypeA, aclDataType dataTypeB,
                                                          aclDataType dataTypeC, aclComputeType type,
                                                          aclopHandle **handle);
ACL_FUNC_VISIBILITY aclError aclblasHgemm(aclTransType transA, aclTransType transB, aclTransType transC, int m,
                                          int n, int k, const aclFloat16 *alpha, const aclFloat16 *matrixA, int lda,
                                          const aclFloat16 *matrixB, int ldb, const aclFloat16 *beta,
                                          aclFloat16 *matrixC, int ldc, aclComputeType type, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclblasCreateHandleForHgemm(aclTransType transA, aclTransType transB,
                                                         aclTransType transC, int m, int n, int k,
                                                         aclComputeType type, aclopHandle **handle);
ACL_FUNC_VISIBILITY aclError aclblasS8gemm(aclTransType transA, aclTransType transB, aclTransType transC, int m,
                                           int n, int k, const int32_t *alpha, const int8_t *matrixA, int lda,
                                           const int8_t *matrixB, int ldb, const int32_t *beta, int32_t *matrixC,
                                           int ldc, aclComputeType type, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclblasCreateHandleForS8gemm(aclTransType transA, aclTransType transB,
                                                          aclTransType transC, int m, int n, int k,
                                                          aclComputeType type, aclopHandle **handle);

#ifdef __cplusplus
}
#endif

#endif  // ACL_SIM_ACL_OPS_ACL_CBLAS_H_
