// AllReduce: reduce every rank's input once, in rank order, into rank 0's
// output, then copy the result to the other ranks' outputs; piece by piece,
// so each piece's sources are all read before any of its outputs is written
// (in-place ranks, send == recv, are safe) and the reduced piece is still in
// cache when it is copied. Traffic: n reads + n writes of S, the minimum.
#include <cstring>
#include <vector>

#include "hccl/algorithms/algorithms.h"

namespace acl_sim::hccl {

void allreduce_all_ranks(const RankRequests& ranks) {
  const OpDesc& d0 = ranks[0];
  const uint32_t n = ranks.n;
  const size_t es = dtype_size(d0.dtype);
  std::vector<const void*> sends(n);
  for (uint32_t r = 0; r < n; ++r) sends[r] = ranks[r].send;
  for_each_piece(d0.count, es, 2 * n, [&](uint64_t b, uint64_t e) {
    const void* srcs_small[16];
    std::vector<const void*> srcs_big;
    const void** srcs = srcs_small;
    if (n > 16) {
      srcs_big.resize(n);
      srcs = srcs_big.data();
    }
    for (uint32_t r = 0; r < n; ++r) srcs[r] = cbytes(sends[r], b * es);
    char* out0 = mbytes(d0.recv, b * es);
    reduce_sources(out0, srcs, n, e - b, d0.dtype, d0.op);
    for (uint32_t r = 1; r < n; ++r) std::memcpy(mbytes(ranks[r].recv, b * es), out0, (e - b) * es);
  });
}

}  // namespace acl_sim::hccl
