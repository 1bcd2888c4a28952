// Scatter: rank r's output is block r of the root's input.
#include <cstring>

#include "hccl/algorithms/algorithms.h"

namespace acl_sim::hccl {

void scatter_all_ranks(const RankRequests& ranks) {
  const OpDesc& d0 = ranks[0];
  const size_t es = dtype_size(d0.dtype);
  const uint64_t block = d0.count * es;
  const void* src = ranks[d0.root].send;
  for_each_piece(d0.count, es, ranks.n, [&](uint64_t b, uint64_t e) {
    for (uint32_t r = 0; r < ranks.n; ++r) {
      const char* from = cbytes(src, r * block + b * es);
      char* to = mbytes(ranks[r].recv, b * es);
      if (to != from) std::memmove(to, from, (e - b) * es);  // the root may scatter in place
    }
  });
}

}  // namespace acl_sim::hccl
