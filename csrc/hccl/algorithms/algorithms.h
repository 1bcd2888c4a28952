// In-process collective algorithms, gloo-style: one file per algorithm, each
// a LocalAlgorithm (see local_group.h). The ranks work on each other's device
// memory directly; the small-message variants copy through the group's
// staging slots so they need a single barrier per collective.
#pragma once

#include <cstddef>
#include <cstdint>

#include "hccl/local_group.h"
#include "hccl/reduce_ops.h"

namespace acl_sim::hccl {

extern const LocalAlgorithm kAllReduceRing;      // allreduce_ring.cpp: reduce-scatter + allgather, 3 barriers
extern const LocalAlgorithm kAllReduceOneShot;   // allreduce_oneshot.cpp: staged, 1 barrier
extern const LocalAlgorithm kBroadcastDirect;    // broadcast.cpp
extern const LocalAlgorithm kBroadcastStaged;
extern const LocalAlgorithm kAllGatherDirect;    // allgather.cpp
extern const LocalAlgorithm kAllGatherStaged;
extern const LocalAlgorithm kReduceScatterDirect;  // reduce_scatter.cpp
extern const LocalAlgorithm kReduceScatterStaged;
extern const LocalAlgorithm kReduceDirect;       // reduce.cpp
extern const LocalAlgorithm kReduceStaged;
extern const LocalAlgorithm kScatterDirect;      // scatter.cpp
extern const LocalAlgorithm kAllToAllVDirect;    // alltoallv.cpp
extern const LocalAlgorithm kBarrierAllToAll;    // barrier.cpp

/** Bytes at or below which allreduce takes the one-shot staged path (ACL_SIM_HCCL_ONESHOT_BYTES,
 *  default 64 KiB, capped by the staging slot). */
size_t oneshot_threshold_bytes();

/** [begin, end) of part @p i when @p count elements are split into @p n balanced parts. */
inline void split_range(uint64_t count, uint32_t n, uint32_t i, uint64_t* begin, uint64_t* end) {
  const uint64_t base = count / n, rem = count % n;
  *begin = i * base + (i < rem ? i : rem);
  *end = *begin + base + (i < rem ? 1 : 0);
}

inline const char* cbytes(const void* p, uint64_t offset = 0) { return static_cast<const char*>(p) + offset; }
inline char* mbytes(void* p, uint64_t offset = 0) { return static_cast<char*>(p) + offset; }

/** The reduce-scatter step every reducing algorithm shares: this rank reduces its balanced slice
 *  of every peer's send buffer into the same slice of @p dst_base (its own or the root's recv). */
void reduce_own_slice(const LocalOp& op, void* dst_base);

}  // namespace acl_sim::hccl
