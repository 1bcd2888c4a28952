// AlltoAll(V): rank r's output at its receive displacement for j is the block
// rank j addressed to r (at j's send displacement for r). Counts were
// cross-checked by validate_descs. One pool index per receiving rank when the
// exchange is large.
#include <cstring>

#include "hccl/algorithms/algorithms.h"

namespace acl_sim::hccl {

void alltoallv_all_ranks(const RankRequests& ranks) {
  const uint32_t n = ranks.n;
  const size_t es = dtype_size(ranks[0].dtype);
  uint64_t total = 0;
  for (uint32_t r = 0; r < n; ++r)
    for (uint32_t j = 0; j < n; ++j) total += ranks[r].recv_counts[j] * es;
  auto receive = [&](size_t r) {
    const OpDesc& me = ranks[uint32_t(r)];
    for (uint32_t j = 0; j < n; ++j) {
      const OpDesc& src = ranks[j];
      const uint64_t count = me.recv_counts[j];
      if (count)
        std::memcpy(mbytes(me.recv, me.recv_displs[j] * es), cbytes(src.send, src.send_displs[r] * es), count * es);
    }
  };
  if (total <= kPieceBytes) {
    for (uint32_t r = 0; r < n; ++r) receive(r);
  } else {
    ThreadPool::instance().parallel_for(n, receive);
  }
}

}  // namespace acl_sim::hccl
