// CANN's GEMM single op (what aclblasGemmEx and friends run):
//
//   C = alpha * op(A) * op(B) + beta * C
//
// with A and B in fp16 or int8 and C in fp16 / fp32 (fp16 inputs) or fp32 /
// int32 (int8 inputs); alpha and beta have C's dtype. Operands are row-major
// (ND), row-major transposed, or in the Cube unit's fractal layouts (FRACTAL_NZ
// for A, B and C; FRACTAL_Z for an int8 B), as aclblas describes them.
// Float products run on the packed fp32 GEMM (gemm.h) with fp32 accumulation;
// int8 products are exact in int32 (the fp32 GEMM runs over K slices short
// enough that every partial sum is an exactly representable integer).
#pragma once

#include <cstdint>
#include <vector>

namespace acl_sim {

/** How an operand is stored (aclTransType values ACL_TRANS_N/T/NZ). */
enum class BlasLayout : int { kRowMajor = 0, kTransposed = 1, kFractal = 2 };

/** Which GEMM operand a layout question is about. */
enum class BlasOperand { kA, kB, kC };

/**
 * Dims of the stored operand for a logical m x n x k product: A is m x k, B is k x n, C is m x n.
 * kRowMajor gives {rows, cols}, kTransposed {cols, rows}; kFractal gives the fractal tensor's
 * 4-D dims ({ceil(cols/c0), ceil(rows/16), 16, c0} for NZ, c0 = 32 for int8 else 16; an int8 B
 * is FRACTAL_Z {ceil(k/32), ceil(n/16), 16, 32}).
 */
std::vector<int64_t> blas_stored_dims(BlasOperand which, BlasLayout layout, int64_t m, int64_t n, int64_t k,
                                      int dtype);

struct BlasGemmArgs {
  int64_t m = 0, n = 0, k = 0;
  int dtype_ab = 0;  // ACL_FLOAT16 or ACL_INT8
  int dtype_c = 0;   // ACL_FLOAT16 / ACL_FLOAT (fp16 inputs), ACL_FLOAT / ACL_INT32 (int8 inputs)
  BlasLayout layout_a = BlasLayout::kRowMajor, layout_b = BlasLayout::kRowMajor;
  bool c_fractal = false;  // C stored as FRACTAL_NZ
  const void* a = nullptr;
  const void* b = nullptr;
  const void* c_in = nullptr;  // read when beta != 0 (may equal c_out)
  void* c_out = nullptr;
  const void* alpha = nullptr;  // one value of dtype_c
  const void* beta = nullptr;
};

/**
 * Runs the product on the calling thread plus the thread pool; blocks until done. Pointers are
 * host-addressable (device memory in acl_sim is). beta == 0 makes C write-only. Throws
 * ACL_ERROR_UNSUPPORTED_DATA_TYPE for a dtype combination CANN does not list.
 */
void blas_gemm(const BlasGemmArgs& args);

/** True for the (A/B dtype, C dtype) pairs CANN's GEMM accepts. */
bool blas_dtypes_supported(int dtype_ab, int dtype_c);

}  // namespace acl_sim
