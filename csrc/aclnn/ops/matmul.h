// Matrix products on strided operands: aclnnMm, aclnnBatchMatMul, aclnnMatmul (torch.matmul
// broadcasting), aclnnMv, and aclnnWeightQuantBatchMatmulV2 (int8 / int4 weights with per-channel
// or per-group float16 scales). All run the packed fp32 GEMM (csrc/kernels/gemm.h): float32
// operands are read in place through their strides (transposed weight views cost nothing),
// float16 / bfloat16 ones are widened first; results are converted into out's view.
#pragma once

#include "aclnn/ops/op_common.h"

namespace acl_sim::aclnn {

/** How the operator names constrain ranks: Mm 2x2, BatchMatMul 3x3, Matmul any (torch.matmul), Mv 2x1. */
enum class MatmulKind { Mm, BatchMatMul, Matmul, Mv };

Plan plan_matmul(const char* op, MatmulKind kind, TensorArg self, TensorArg mat2, TensorArg out, int8_t cube_math);

/** y = x @ ((weight + offset) * scale) + bias. weight [K, N] is int8 or int4 (any strides, e.g. a transposed
 *  view); scale / offset are [N], [1, N] (per channel) or [K / group, N] (group_size > 0). */
Plan plan_weight_quant_matmul(const char* op, TensorArg x, TensorArg weight, TensorArg scale, TensorArg offset,
                              TensorArg bias, int64_t group_size, TensorArg y);

}  // namespace acl_sim::aclnn
