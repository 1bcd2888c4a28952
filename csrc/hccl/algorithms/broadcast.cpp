// Broadcast, one-to-all: every rank's buffer becomes a copy of the root's.
// The root's process sends it once to every other process, into that
// process's first local rank's buffer; then each process copies it to its
// other local ranks (thread ranks: the root's buffer straight into every
// other rank's).
#include <cstring>

#include "hccl/algorithms/collective.h"

namespace acl_sim::hccl {

void broadcast(const CollectiveRun& run) {
  const OpDesc& d = run.shape();
  const size_t es = dtype_size(d.dtype);
  const uint64_t bytes = d.count * es;
  const bool root_here = run.is_local(d.root);
  const void* src = root_here ? run.of(d.root).send : run.local[0]->recv;
  if (run.procs() > 1) {
    if (root_here) {
      for (uint32_t q = 0; q < run.procs(); ++q)
        if (q != run.proc()) run.peers->isend(q, src, bytes, run.tag);
    } else {
      run.peers->irecv(run.proc_of(d.root), run.local[0]->recv, bytes, run.tag);
    }
    run.wait("HcclBroadcast");
  }
  if (run.k() == 1) return;
  for_each_piece(d.count, es, run.k(), [&](uint64_t b, uint64_t e) {
    for (const OpDesc* l : run.local)
      if (l->recv != src) std::memcpy(mbytes(l->recv, b * es), cbytes(src, b * es), (e - b) * es);
  });
}

}  // namespace acl_sim::hccl
