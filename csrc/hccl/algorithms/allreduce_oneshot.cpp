// AllReduce for small messages (latency-bound): each rank copies its input
// into its staging slot, all meet once, and each rank folds every slot into
// its own output. One barrier per collective: staging slots alternate between
// two generations, and a rank cannot reuse a generation before every peer has
// arrived at the next collective (so has finished reading this one).
#include <cstring>
#include <vector>

#include "hccl/algorithms/algorithms.h"

namespace acl_sim::hccl {
namespace {

void stage_in(const LocalOp& op) {
  const OpDesc& me = op.mine();
  std::memcpy(op.staging(op.rank), me.send, me.count * dtype_size(me.dtype));
}

void run(const LocalOp& op) {
  const OpDesc& me = op.mine();
  const void* srcs[64];
  std::vector<const void*> many;
  const void** s = srcs;
  if (op.n > 64) {
    many.resize(op.n);
    s = many.data();
  }
  for (uint32_t k = 0; k < op.n; ++k) s[k] = op.staging(k);
  reduce_sources(me.recv, s, op.n, me.count, me.dtype, me.op);
}

}  // namespace

const LocalAlgorithm kAllReduceOneShot{"allreduce_oneshot", stage_in, run};

}  // namespace acl_sim::hccl
