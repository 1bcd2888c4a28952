// MatMul's N-D shape rule, shared by every MatMul-shaped op (MatMul on each dtype, MatMulInteger):
// 1-D operands are promoted, the batch dimensions broadcast (right-aligned), and each output
// batch gets the element offsets of its A and B matrices.
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/op_registry.h"

namespace acl_sim {

struct MatMulBatch {
  int64_t M = 0, N = 0, K = 0;
  int64_t batch_count = 1, a_count = 1, b_count = 1;  // output batches; distinct A / B matrices
  std::vector<int64_t> out_shape;
  std::vector<int64_t> a_off, b_off;  // per output batch, element offsets of its A / B matrix

  /** One B for every batch and A not broadcast: the batch folds into M (one big GEMM). */
  bool folds_into_m() const { return b_count == 1 && a_count == batch_count; }
};

/** Validates the shapes (throws ACL_ERROR_OP_INPUT_NOT_MATCH naming `op`) and plans the batches. */
MatMulBatch plan_matmul(const char* op, const std::vector<int64_t>& a_shape, const std::vector<int64_t>& b_shape);

}  // namespace acl_sim
