// ReduceScatter: rank r folds block r of every rank's input into its output,
// all ranks in parallel and in rank order (deterministic). Small inputs go
// through the staging slots (one barrier); large ones are read in place.
#include <cstring>
#include <vector>

#include "hccl/algorithms/algorithms.h"

namespace acl_sim::hccl {
namespace {

void fold(const LocalOp& op, bool from_staging) {
  const OpDesc& me = op.mine();
  const uint64_t bytes = me.count * dtype_size(me.dtype);
  std::vector<const void*> srcs(op.n);
  for (uint32_t k = 0; k < op.n; ++k)
    srcs[k] = cbytes(from_staging ? op.staging(k) : op.peer(k).send, op.rank * bytes);
  reduce_sources(me.recv, srcs.data(), op.n, me.count, me.dtype, me.op);
}

void direct(const LocalOp& op) {
  fold(op, false);
  op.sync("HcclReduceScatter (exit)");
}

void stage_in(const LocalOp& op) {
  const OpDesc& me = op.mine();
  std::memcpy(op.staging(op.rank), me.send, op.n * me.count * dtype_size(me.dtype));
}

void staged(const LocalOp& op) { fold(op, true); }

}  // namespace

const LocalAlgorithm kReduceScatterDirect{"reduce_scatter_direct", nullptr, direct};
const LocalAlgorithm kReduceScatterStaged{"reduce_scatter_staged", stage_in, staged};

}  // namespace acl_sim::hccl
