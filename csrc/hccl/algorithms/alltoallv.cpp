// AlltoAll(V), pairwise in one step: rank r pulls, from every rank j, the
// block j addressed to r (j's send displacement for r) into its own output at
// its receive displacement for j. Counts were cross-checked by validate_descs.
#include <cstring>

#include "hccl/algorithms/algorithms.h"

namespace acl_sim::hccl {
namespace {

void direct(const LocalOp& op) {
  const OpDesc& me = op.mine();
  const size_t es = dtype_size(me.dtype);
  for (uint32_t k = 0; k < op.n; ++k) {
    const uint32_t j = (op.rank + k) % op.n;
    const OpDesc& src = op.peer(j);
    const uint64_t n = me.recv_counts[j];
    if (n) std::memcpy(mbytes(me.recv, me.recv_displs[j] * es), cbytes(src.send, src.send_displs[op.rank] * es), n * es);
  }
  op.sync("HcclAlltoAllV (exit)");
}

}  // namespace

const LocalAlgorithm kAllToAllVDirect{"alltoallv_pairwise", nullptr, direct};

}  // namespace acl_sim::hccl
