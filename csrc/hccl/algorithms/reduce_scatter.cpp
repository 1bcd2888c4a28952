// ReduceScatter: rank r's output is block r of every rank's input, reduced in
// rank order. Each process sends every other process the blocks of that
// process's ranks (its input's blocks, for one rank per process), then folds,
// for each of its ranks, its local inputs' block and the blocks it received,
// piece by piece. Thread ranks fold straight from the inputs.
#include <vector>

#include "hccl/algorithms/collective.h"

namespace acl_sim::hccl {

void reduce_scatter(const CollectiveRun& run) {
  const OpDesc& d = run.shape();
  const size_t es = dtype_size(d.dtype);
  const uint64_t block = d.count * es;
  const uint64_t run_bytes = run.k() * block;  // the blocks of one process's ranks
  std::vector<char> scratch;
  for (uint32_t q = 0; q < run.procs(); ++q)
    if (q != run.proc())
      run.peers->isend(q, local_partial(run, q * run_bytes, run.k() * d.count, scratch), run_bytes, run.tag);
  const ReceivedPartials received = post_partial_receives(run, run_bytes);
  run.wait("HcclReduceScatter");
  for_each_piece(d.count, es, uint64_t(run.nranks) * run.k(), [&](uint64_t b, uint64_t e) {
    for (uint32_t l = 0; l < run.k(); ++l) {
      const uint32_t r = run.first_local() + l;
      SourceList srcs;
      reduction_sources(run, r * block + b * es, received, l * block + b * es, srcs);
      reduce_sources(mbytes(run.local[l]->recv, b * es), srcs.data(), srcs.size(), e - b, d.dtype, d.op);
    }
  });
}

}  // namespace acl_sim::hccl
