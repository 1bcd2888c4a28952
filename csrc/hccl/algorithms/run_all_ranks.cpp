// Which algorithm runs a collective of in-process ranks: one per kind.
#include "common/error.h"
#include "hccl/algorithms/algorithms.h"

namespace acl_sim::hccl {

void run_all_ranks(const RankRequests& ranks) {
  switch (ranks[0].kind) {
    case OpKind::kAllReduce: return allreduce_all_ranks(ranks);
    case OpKind::kBroadcast: return broadcast_all_ranks(ranks);
    case OpKind::kAllGather: return allgather_all_ranks(ranks);
    case OpKind::kReduceScatter: return reduce_scatter_all_ranks(ranks);
    case OpKind::kReduce: return reduce_all_ranks(ranks);
    case OpKind::kScatter: return scatter_all_ranks(ranks);
    case OpKind::kAllToAllV: return alltoallv_all_ranks(ranks);
    case OpKind::kBarrier: return;  // arriving was the whole operation
    default: fail(HCCL_E_INTERNAL, kind_name(ranks[0].kind), " is not a group collective");
  }
}

}  // namespace acl_sim::hccl
