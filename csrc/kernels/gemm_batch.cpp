#include "kernels/gemm_batch.h"

#include <algorithm>

#include "acl/acl_base.h"
#include "common/error.h"
#include "kernels/gemm_tensor_io.h"

namespace acl_sim {

MatMulBatch plan_matmul(const char* op, const std::vector<int64_t>& a_shape, const std::vector<int64_t>& b_shape) {
  ACL_SIM_REQUIRE(!a_shape.empty() && !b_shape.empty(), ACL_ERROR_OP_INPUT_NOT_MATCH, op,
                  ": inputs must have rank >= 1, got ", shape_str(a_shape), " and ", shape_str(b_shape));
  std::vector<int64_t> as = a_shape, bs = b_shape;
  const bool a1 = as.size() == 1, b1 = bs.size() == 1;
  if (a1) as.insert(as.begin(), 1);
  if (b1) bs.push_back(1);
  MatMulBatch p;
  p.M = as[as.size() - 2];
  p.K = as.back();
  p.N = bs.back();
  ACL_SIM_REQUIRE(bs[bs.size() - 2] == p.K, ACL_ERROR_OP_INPUT_NOT_MATCH, op, ": inner dimensions differ: ",
                  shape_str(a_shape), " x ", shape_str(b_shape));
  const size_t ra = as.size() - 2, rb = bs.size() - 2, rank = std::max(ra, rb);
  std::vector<int64_t> batch(rank), a_bdim(rank, 1), b_bdim(rank, 1);
  for (size_t i = 0; i < ra; ++i) a_bdim[rank - ra + i] = as[i];
  for (size_t i = 0; i < rb; ++i) b_bdim[rank - rb + i] = bs[i];
  for (size_t i = 0; i < rank; ++i) {
    ACL_SIM_REQUIRE(a_bdim[i] == b_bdim[i] || a_bdim[i] == 1 || b_bdim[i] == 1, ACL_ERROR_OP_INPUT_NOT_MATCH, op,
                    ": batch dimensions do not broadcast: ", shape_str(a_shape), " x ", shape_str(b_shape));
    batch[i] = (a_bdim[i] == 1) ? b_bdim[i] : a_bdim[i];
    p.batch_count *= batch[i];
    p.a_count *= a_bdim[i];
    p.b_count *= b_bdim[i];
  }
  p.out_shape = batch;
  if (!a1) p.out_shape.push_back(p.M);
  if (!b1) p.out_shape.push_back(p.N);
  p.a_off.resize(static_cast<size_t>(p.batch_count));
  p.b_off.resize(static_cast<size_t>(p.batch_count));
  for (int64_t bi = 0; bi < p.batch_count; ++bi) {
    int64_t rem = bi, ao = 0, bo = 0, astride = p.M * p.K, bstride = p.K * p.N;
    for (size_t d = rank; d-- > 0;) {
      const int64_t idx = rem % batch[d];
      rem /= batch[d];
      if (a_bdim[d] != 1) ao += idx * astride;
      if (b_bdim[d] != 1) bo += idx * bstride;
      astride *= a_bdim[d];
      bstride *= b_bdim[d];
    }
    p.a_off[static_cast<size_t>(bi)] = ao;
    p.b_off[static_cast<size_t>(bi)] = bo;
  }
  return p;
}

}  // namespace acl_sim
