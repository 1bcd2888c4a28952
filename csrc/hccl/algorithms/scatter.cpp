// Scatter: rank r's output is block r of the root's input. The root's process
// sends each block of a rank in another process straight into that rank's
// output and copies the blocks of its own ranks (thread ranks: all of them).
#include <cstring>

#include "hccl/algorithms/collective.h"

namespace acl_sim::hccl {

void scatter(const CollectiveRun& run) {
  const OpDesc& d = run.shape();
  const size_t es = dtype_size(d.dtype);
  const uint64_t block = d.count * es;
  if (!run.is_local(d.root)) {
    for (const OpDesc* l : run.local) run.peers->irecv(run.proc_of(d.root), l->recv, block, run.tag);
    run.wait("HcclScatter");
    return;
  }
  const void* src = run.of(d.root).send;
  for (uint32_t r = 0; r < run.nranks; ++r)
    if (!run.is_local(r)) run.peers->isend(run.proc_of(r), cbytes(src, r * block), block, run.tag);
  for_each_piece(d.count, es, run.k(), [&](uint64_t b, uint64_t e) {
    for (uint32_t l = 0; l < run.k(); ++l) {
      const char* from = cbytes(src, (run.first_local() + l) * block + b * es);
      char* to = mbytes(run.local[l]->recv, b * es);
      if (to != from) std::memmove(to, from, (e - b) * es);  // the root may scatter in place
    }
  });
  run.wait("HcclScatter");
}

}  // namespace acl_sim::hccl
