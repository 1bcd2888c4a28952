// What one rank asks of a collective: the kind, element count and type, the
// buffers. Every rank publishes its OpDesc; peers validate them against each
// other (HCCL_E_PARA on a mismatch) before any data moves.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hccl/hccl_types.h"

namespace acl_sim::hccl {

enum class OpKind : uint32_t {
  kAllReduce = 1,
  kBroadcast,
  kAllGather,
  kReduceScatter,
  kReduce,
  kScatter,
  kAllToAllV,  // HcclAlltoAll is the uniform case
  kBarrier,
  kSend,
  kRecv,
};

const char* kind_name(OpKind k);

struct OpDesc {
  OpKind kind = OpKind::kBarrier;
  uint64_t count = 0;  // elements: per rank for allgather/reduce-scatter/scatter (CANN's sendCount/recvCount)
  HcclDataType dtype = HCCL_DATA_TYPE_INT8;
  HcclReduceOp op = HCCL_REDUCE_SUM;
  uint32_t root = 0;  // root rank; the peer rank for send/recv
  const void* send = nullptr;
  void* recv = nullptr;
  // AlltoAllV (elements, one entry per rank); HcclAlltoAll fills them uniformly.
  std::vector<uint64_t> send_counts, send_displs, recv_counts, recv_displs;

  bool reduces() const {
    return kind == OpKind::kAllReduce || kind == OpKind::kReduceScatter || kind == OpKind::kReduce;
  }
  bool rooted() const { return kind == OpKind::kBroadcast || kind == OpKind::kReduce || kind == OpKind::kScatter; }
};

/** Throws Error(HCCL_E_PARA) naming the first rank whose request does not match (kind, count, data type,
 *  op, root; alltoallv: rank j's recv count from r must equal rank r's send count to j). @p descs[r] is
 *  rank r's request. Every rank runs this on the same inputs, so all ranks decide alike. */
void validate_descs(const OpDesc* const* descs, uint32_t n);

}  // namespace acl_sim::hccl
