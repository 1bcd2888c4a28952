// CANN's "GEMM" single op (the op aclblasGemmEx runs): inputs a, b, c, alpha, beta
// and output c, attrs transpose_a / transpose_b; fractal formats as aclblas
// describes them. Translated onto the BlasGemm kernel (kernels/blas_gemm.h).
#pragma once

#include "op/op_plan.h"

namespace acl_sim {

/** Checks a GEMM call (counts, dtype combination, formats, consistent m/n/k) and emits BlasGemm. */
void translate_blas_gemm(const TranslateInput& call, OpPlan& plan);

}  // namespace acl_sim
