// Batched triangular solve (aclnnTriangularSolve, torch.linalg.solve_triangular's contract):
// X = op(A)^-1 B for each batch, by forward / back substitution in double precision.
#pragma once

#include <cstdint>

namespace acl_sim::kern {

/** A [batch, n, n], B and X [batch, n, k], dense fp32 (X may alias B). op(A) = A or A^T (transpose); upper
 *  selects the triangle of A that is used; unit takes its diagonal as 1. A zero pivot gives inf / nan like
 *  IEEE division. Batches run over the pool. */
void triangular_solve(const float* A, const float* B, float* X, int64_t batch, int64_t n, int64_t k, bool upper,
                      bool transpose, bool unit);

}  // namespace acl_sim::kern
