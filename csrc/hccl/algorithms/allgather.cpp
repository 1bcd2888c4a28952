// AllGather: block j of every rank's output is rank j's input.
#include <cstring>

#include "hccl/algorithms/algorithms.h"

namespace acl_sim::hccl {

void allgather_all_ranks(const RankRequests& ranks) {
  const OpDesc& d0 = ranks[0];
  const uint32_t n = ranks.n;
  const size_t es = dtype_size(d0.dtype);
  const uint64_t block = d0.count * es;
  for_each_piece(d0.count, es, uint64_t(n) * n, [&](uint64_t b, uint64_t e) {
    for (uint32_t j = 0; j < n; ++j) {
      const char* src = cbytes(ranks[j].send, b * es);
      for (uint32_t r = 0; r < n; ++r) {
        char* dst = mbytes(ranks[r].recv, j * block + b * es);
        if (dst != src) std::memcpy(dst, src, (e - b) * es);  // in place: rank j's own block
      }
    }
  });
}

}  // namespace acl_sim::hccl
