// aclnnTriangularSolve: xOut = op(A)^-1 self per batch (kern::triangular_solve), mOut = a copy of A broadcast to
// the batch (torch.triangular_solve's cloned coefficient).
#pragma once

#include "aclnn/ops/op_common.h"

namespace acl_sim::aclnn {

Plan plan_triangular_solve(const char* op, TensorArg b, TensorArg a, bool upper, bool transpose, bool unit,
                           TensorArg x, TensorArg m);

}  // namespace acl_sim::aclnn
