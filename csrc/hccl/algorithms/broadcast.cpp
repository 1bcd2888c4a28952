// Broadcast, one-to-all: the root's buffer is copied into every other rank's.
#include <cstring>

#include "hccl/algorithms/algorithms.h"

namespace acl_sim::hccl {

void broadcast_all_ranks(const RankRequests& ranks) {
  const OpDesc& d0 = ranks[0];
  const size_t es = dtype_size(d0.dtype);
  const void* src = ranks[d0.root].send;
  for_each_piece(d0.count, es, ranks.n, [&](uint64_t b, uint64_t e) {
    for (uint32_t r = 0; r < ranks.n; ++r)
      if (r != d0.root) std::memcpy(mbytes(ranks[r].recv, b * es), cbytes(src, b * es), (e - b) * es);
  });
}

}  // namespace acl_sim::hccl
