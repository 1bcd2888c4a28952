#include "hccl/op_desc.h"

#include "common/error.h"
#include "hccl/reduce_ops.h"

namespace acl_sim::hccl {

const char* kind_name(OpKind k) {
  switch (k) {
    case OpKind::kAllReduce: return "HcclAllReduce";
    case OpKind::kBroadcast: return "HcclBroadcast";
    case OpKind::kAllGather: return "HcclAllGather";
    case OpKind::kReduceScatter: return "HcclReduceScatter";
    case OpKind::kReduce: return "HcclReduce";
    case OpKind::kScatter: return "HcclScatter";
    case OpKind::kAllToAllV: return "HcclAlltoAllV";
    case OpKind::kBarrier: return "HcclBarrier";
    case OpKind::kSend: return "HcclSend";
    case OpKind::kRecv: return "HcclRecv";
  }
  return "unknown collective";
}

void validate_descs(const OpDesc* const* descs, uint32_t n) {
  const OpDesc& a = *descs[0];
  for (uint32_t r = 1; r < n; ++r) {
    const OpDesc& b = *descs[r];
    ACL_SIM_REQUIRE(a.kind == b.kind, HCCL_E_PARA, "collective mismatch: rank 0 called ", kind_name(a.kind),
                    ", rank ", r, " called ", kind_name(b.kind), " (ranks must issue collectives in the same order)");
    ACL_SIM_REQUIRE(a.dtype == b.dtype, HCCL_E_PARA, kind_name(a.kind), ": data type mismatch: rank 0 uses ",
                    dtype_name(a.dtype), ", rank ", r, " uses ", dtype_name(b.dtype));
    if (a.kind != OpKind::kAllToAllV && a.kind != OpKind::kBarrier)
      ACL_SIM_REQUIRE(a.count == b.count, HCCL_E_PARA, kind_name(a.kind), ": count mismatch: rank 0 passed ",
                      a.count, ", rank ", r, " passed ", b.count);
    if (a.reduces())
      ACL_SIM_REQUIRE(a.op == b.op, HCCL_E_PARA, kind_name(a.kind), ": reduce op mismatch: rank 0 uses ",
                      op_name(a.op), ", rank ", r, " uses ", op_name(b.op));
    if (a.rooted())
      ACL_SIM_REQUIRE(a.root == b.root, HCCL_E_PARA, kind_name(a.kind), ": root mismatch: rank 0 names root ",
                      a.root, ", rank ", r, " names root ", b.root);
  }
  if (a.kind == OpKind::kAllToAllV) {
    for (uint32_t src = 0; src < n; ++src)
      for (uint32_t dst = 0; dst < n; ++dst) {
        uint64_t sent = descs[src]->send_counts[dst];
        uint64_t expected = descs[dst]->recv_counts[src];
        ACL_SIM_REQUIRE(sent == expected, HCCL_E_PARA, "HcclAlltoAllV: rank ", src, " sends ", sent,
                        " elements to rank ", dst, ", which expects ", expected, " from it");
      }
  }
}

}  // namespace acl_sim::hccl
