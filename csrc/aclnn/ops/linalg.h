// aclnnTriangularSolve: xOut = op(A)^-1 self per batch (kern::triangular_solve), mOut = a copy of A broadcast to
// the batch (torch.triangular_solve's cloned coefficient). aclnnGer: the outer product out[i, j] = self[i] * vec2[j]
// (the broadcasting Mul of [n, 1] by [1, m] views, so any strides and CANN's dtype promotion).
#pragma once

#include "aclnn/ops/op_common.h"

namespace acl_sim::aclnn {

Plan plan_triangular_solve(const char* op, TensorArg b, TensorArg a, bool upper, bool transpose, bool unit,
                           TensorArg x, TensorArg m);
Plan plan_ger(const char* op, TensorArg self, TensorArg vec2, TensorArg out);

}  // namespace acl_sim::aclnn
