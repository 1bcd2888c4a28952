// AlltoAll(V): rank r's output at its receive displacement for j is the block
// rank j addressed to r (at j's send displacement for r). Counts were
// cross-checked by validate_descs. Blocks between ranks of this process are
// copied (thread ranks: all of them; one pool index per receiving rank when
// the exchange is large); blocks to and from other processes go over the
// transport, posted in (source rank, destination rank) order on both sides so
// the messages of one process pair match.
#include <cstring>

#include "hccl/algorithms/collective.h"

namespace acl_sim::hccl {

void alltoallv(const CollectiveRun& run) {
  const uint32_t n = run.nranks, first = run.first_local();
  const size_t es = dtype_size(run.shape().dtype);
  if (run.procs() > 1) {
    for (uint32_t s = first; s < first + run.k(); ++s) {
      const OpDesc& me = run.of(s);
      for (uint32_t j = 0; j < n; ++j)
        if (!run.is_local(j))
          run.peers->isend(run.proc_of(j), cbytes(me.send, me.send_displs[j] * es), me.send_counts[j] * es, run.tag);
    }
    for (uint32_t j = 0; j < n; ++j) {
      if (run.is_local(j)) continue;
      for (uint32_t r = first; r < first + run.k(); ++r) {
        const OpDesc& me = run.of(r);
        run.peers->irecv(run.proc_of(j), mbytes(me.recv, me.recv_displs[j] * es), me.recv_counts[j] * es, run.tag);
      }
    }
  }
  uint64_t local_bytes = 0;
  for (const OpDesc* l : run.local)
    for (uint32_t j = first; j < first + run.k(); ++j) local_bytes += l->recv_counts[j] * es;
  auto receive_local = [&](size_t l) {
    const OpDesc& me = *run.local[l];
    const uint32_t r = first + static_cast<uint32_t>(l);
    for (uint32_t j = first; j < first + run.k(); ++j) {
      const OpDesc& src = run.of(j);
      const uint64_t count = me.recv_counts[j];
      if (count)
        std::memmove(mbytes(me.recv, me.recv_displs[j] * es), cbytes(src.send, src.send_displs[r] * es), count * es);
    }
  };
  if (local_bytes <= kPieceBytes) {
    for (uint32_t l = 0; l < run.k(); ++l) receive_local(l);
  } else {
    ThreadPool::instance().parallel_for(run.k(), receive_local);
  }
  run.wait("HcclAlltoAllV");
}

}  // namespace acl_sim::hccl
