// Algorithm choice for in-process ranks: staged single-barrier paths while the
// message fits a staging slot and is latency-bound, direct multi-reader paths
// above. The choice depends only on the request, so ranks that passed the
// same request choose alike (mismatched requests fail validation first).
#include <cstdlib>

#include "common/error.h"
#include "hccl/algorithms/algorithms.h"

namespace acl_sim::hccl {

size_t oneshot_threshold_bytes() {
  static const size_t value = [] {
    size_t v = size_t(64) << 10;
    if (const char* s = std::getenv("ACL_SIM_HCCL_ONESHOT_BYTES")) v = std::strtoull(s, nullptr, 10);
    return v < LocalGroup::kStagingBytes ? v : LocalGroup::kStagingBytes;
  }();
  return value;
}

const LocalAlgorithm& choose_local_algorithm(const OpDesc& d, uint32_t n) {
  const uint64_t es = d.kind == OpKind::kBarrier ? 0 : dtype_size(d.dtype);
  const uint64_t bytes = d.count * es;
  const uint64_t small = oneshot_threshold_bytes();
  switch (d.kind) {
    case OpKind::kAllReduce: return bytes <= small ? kAllReduceOneShot : kAllReduceRing;
    case OpKind::kBroadcast: return bytes <= LocalGroup::kStagingBytes ? kBroadcastStaged : kBroadcastDirect;
    case OpKind::kAllGather: return bytes <= small ? kAllGatherStaged : kAllGatherDirect;
    case OpKind::kReduceScatter: return bytes * n <= small ? kReduceScatterStaged : kReduceScatterDirect;
    case OpKind::kReduce: return bytes <= small ? kReduceStaged : kReduceDirect;
    case OpKind::kScatter: return kScatterDirect;
    case OpKind::kAllToAllV: return kAllToAllVDirect;
    case OpKind::kBarrier: return kBarrierAllToAll;
    default: fail(HCCL_E_INTERNAL, kind_name(d.kind), " is not a group collective");
  }
}

}  // namespace acl_sim::hccl
