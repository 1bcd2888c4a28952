// AllReduce for large messages: reduce-scatter then allgather, over the
// ranks' device memory directly. Rank r owns chunk r: it folds chunk r of
// every rank's send buffer into its own recv buffer (all ranks in parallel,
// in rank order so every rank gets bit-identical results), then copies the
// other ranks' finished chunks from their recv buffers. Each rank reads S
// and writes S(1 + (n-1)/n) bytes; three barriers in all (arrival, between
// the phases, exit, so no peer still reads our buffers when we return).
#include <cstring>
#include <vector>

#include "hccl/algorithms/algorithms.h"

namespace acl_sim::hccl {
namespace {

void run(const LocalOp& op) {
  const OpDesc& me = op.mine();
  const size_t es = dtype_size(me.dtype);
  reduce_own_slice(op, me.recv);
  op.sync("HcclAllReduce (reduce-scatter phase)");
  for (uint32_t k = 1; k < op.n; ++k) {
    const uint32_t j = (op.rank + k) % op.n;  // staggered so ranks read different peers at once
    uint64_t jb, je;
    split_range(me.count, op.n, j, &jb, &je);
    std::memcpy(mbytes(me.recv, jb * es), cbytes(op.peer(j).recv, jb * es), (je - jb) * es);
  }
  op.sync("HcclAllReduce (allgather phase)");
}

}  // namespace

void reduce_own_slice(const LocalOp& op, void* dst_base) {
  const OpDesc& me = op.mine();
  const size_t es = dtype_size(me.dtype);
  uint64_t b, e;
  split_range(me.count, op.n, op.rank, &b, &e);
  std::vector<const void*> srcs(op.n);
  for (uint32_t k = 0; k < op.n; ++k) srcs[k] = cbytes(op.peer(k).send, b * es);
  reduce_sources(mbytes(dst_base, b * es), srcs.data(), op.n, e - b, me.dtype, me.op);
}

const LocalAlgorithm kAllReduceRing{"allreduce_ring", nullptr, run};

}  // namespace acl_sim::hccl
