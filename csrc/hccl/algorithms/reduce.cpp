// Reduce to a root. Large messages: every rank folds one slice of all inputs
// straight into the root's output, so the work is spread over all ranks.
// Small ones: inputs go through the staging slots and the root folds them.
#include <cstring>
#include <vector>

#include "hccl/algorithms/algorithms.h"

namespace acl_sim::hccl {
namespace {

void direct(const LocalOp& op) {
  reduce_own_slice(op, op.peer(op.mine().root).recv);
  op.sync("HcclReduce (exit)");
}

void stage_in(const LocalOp& op) {
  const OpDesc& me = op.mine();
  std::memcpy(op.staging(op.rank), me.send, me.count * dtype_size(me.dtype));
}

void staged(const LocalOp& op) {
  const OpDesc& me = op.mine();
  if (op.rank != me.root) return;
  std::vector<const void*> srcs(op.n);
  for (uint32_t k = 0; k < op.n; ++k) srcs[k] = op.staging(k);
  reduce_sources(me.recv, srcs.data(), op.n, me.count, me.dtype, me.op);
}

}  // namespace

const LocalAlgorithm kReduceDirect{"reduce_direct", nullptr, direct};
const LocalAlgorithm kReduceStaged{"reduce_staged", stage_in, staged};

}  // namespace acl_sim::hccl
