// Reduce: the root's output is every rank's input reduced in rank order.
#include <vector>

#include "hccl/algorithms/algorithms.h"

namespace acl_sim::hccl {

void reduce_all_ranks(const RankRequests& ranks) {
  const OpDesc& d0 = ranks[0];
  const uint32_t n = ranks.n;
  const size_t es = dtype_size(d0.dtype);
  void* out = ranks[d0.root].recv;
  for_each_piece(d0.count, es, n, [&](uint64_t b, uint64_t e) {
    std::vector<const void*> srcs(n);
    for (uint32_t j = 0; j < n; ++j) srcs[j] = cbytes(ranks[j].send, b * es);
    reduce_sources(mbytes(out, b * es), srcs.data(), n, e - b, d0.dtype, d0.op);
  });
}

}  // namespace acl_sim::hccl
