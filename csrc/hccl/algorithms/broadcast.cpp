// Broadcast, one-to-all: every non-root rank copies the root's buffer
// (in parallel). Small messages go through the root's staging slot (one
// barrier); large ones are read from the root's buffer directly, with an exit
// barrier so the root does not return while peers still read it.
#include <cstring>

#include "hccl/algorithms/algorithms.h"

namespace acl_sim::hccl {
namespace {

uint64_t bytes_of(const OpDesc& d) { return d.count * dtype_size(d.dtype); }

void direct(const LocalOp& op) {
  const OpDesc& me = op.mine();
  if (op.rank != me.root) std::memcpy(me.recv, op.peer(me.root).send, bytes_of(me));
  op.sync("HcclBroadcast (exit)");
}

void stage_in(const LocalOp& op) {
  const OpDesc& me = op.mine();
  if (op.rank == me.root) std::memcpy(op.staging(op.rank), me.send, bytes_of(me));
}

void staged(const LocalOp& op) {
  const OpDesc& me = op.mine();
  if (op.rank != me.root) std::memcpy(me.recv, op.staging(me.root), bytes_of(me));
}

}  // namespace

const LocalAlgorithm kBroadcastDirect{"broadcast_one_to_all", nullptr, direct};
const LocalAlgorithm kBroadcastStaged{"broadcast_staged", stage_in, staged};

}  // namespace acl_sim::hccl
