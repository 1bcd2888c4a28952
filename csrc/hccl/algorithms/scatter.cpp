// Scatter from a root: rank r copies block r of the root's input (all ranks
// in parallel), then an exit barrier releases the root's buffer.
#include <cstring>

#include "hccl/algorithms/algorithms.h"

namespace acl_sim::hccl {
namespace {

void direct(const LocalOp& op) {
  const OpDesc& me = op.mine();
  const uint64_t bytes = me.count * dtype_size(me.dtype);
  const void* src = cbytes(op.peer(me.root).send, op.rank * bytes);
  if (src != me.recv) std::memcpy(me.recv, src, bytes);
  op.sync("HcclScatter (exit)");
}

}  // namespace

const LocalAlgorithm kScatterDirect{"scatter_direct", nullptr, direct};

}  // namespace acl_sim::hccl
