// aclnnTriangularSolve, aclnnGer (aclnn/ops/linalg.h).
#include "aclnn/ops/linalg.h"
#include "aclnnop/aclnn_ger.h"
#include "aclnnop/aclnn_triangular_solve.h"
#include "capi/aclnn_guard.h"

using namespace acl_sim::aclnn;

extern "C" {

ACLNN_OPERATOR(TriangularSolve, (const aclTensor* self, const aclTensor* A, bool upper, bool transpose,
                                 bool unitriangular, aclTensor* xOut, aclTensor* mOut),
               plan_triangular_solve(op, tensor_arg(self, "self"), tensor_arg(A, "A"), upper, transpose, unitriangular,
                                     tensor_arg(xOut, "xOut"), tensor_arg(mOut, "mOut")))
ACLNN_OPERATOR(Ger, (const aclTensor* self, const aclTensor* vec2, aclTensor* out),
               plan_ger(op, tensor_arg(self, "self"), tensor_arg(vec2, "vec2"), tensor_arg(out, "out")))

}  // extern "C"
