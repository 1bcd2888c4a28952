// AllGather: each rank copies every rank's block into its own output, all
// ranks in parallel. Small blocks go through the staging slots (one barrier);
// large ones are read from the peers' send buffers, with an exit barrier.
#include <cstring>

#include "hccl/algorithms/algorithms.h"

namespace acl_sim::hccl {
namespace {

void direct(const LocalOp& op) {
  const OpDesc& me = op.mine();
  const uint64_t bytes = me.count * dtype_size(me.dtype);
  for (uint32_t k = 0; k < op.n; ++k) {
    const uint32_t j = (op.rank + k) % op.n;
    const void* src = j == op.rank ? me.send : op.peer(j).send;
    char* dst = mbytes(me.recv, j * bytes);
    if (src != dst) std::memcpy(dst, src, bytes);
  }
  op.sync("HcclAllGather (exit)");
}

void stage_in(const LocalOp& op) {
  const OpDesc& me = op.mine();
  std::memcpy(op.staging(op.rank), me.send, me.count * dtype_size(me.dtype));
}

void staged(const LocalOp& op) {
  const OpDesc& me = op.mine();
  const uint64_t bytes = me.count * dtype_size(me.dtype);
  for (uint32_t j = 0; j < op.n; ++j) std::memcpy(mbytes(me.recv, j * bytes), op.staging(j), bytes);
}

}  // namespace

const LocalAlgorithm kAllGatherDirect{"allgather_direct", nullptr, direct};
const LocalAlgorithm kAllGatherStaged{"allgather_staged", stage_in, staged};

}  // namespace acl_sim::hccl
