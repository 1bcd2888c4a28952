// Reduce: the root's output is every rank's input reduced in rank order.
// Every other process sends its partial result (its input, for one rank per
// process) to the root's process, which folds its local inputs and what it
// received, piece by piece. Thread ranks fold straight from the inputs.
#include <vector>

#include "hccl/algorithms/collective.h"

namespace acl_sim::hccl {

void reduce(const CollectiveRun& run) {
  const OpDesc& d = run.shape();
  const size_t es = dtype_size(d.dtype);
  const uint64_t bytes = d.count * es;
  if (!run.is_local(d.root)) {
    std::vector<char> scratch;
    run.peers->isend(run.proc_of(d.root), local_partial(run, 0, d.count, scratch), bytes, run.tag);
    run.wait("HcclReduce");
    return;
  }
  const ReceivedPartials received = post_partial_receives(run, bytes);
  run.wait("HcclReduce");
  void* out = run.of(d.root).recv;
  for_each_piece(d.count, es, run.nranks, [&](uint64_t b, uint64_t e) {
    SourceList srcs;
    reduction_sources(run, b * es, received, b * es, srcs);
    reduce_sources(mbytes(out, b * es), srcs.data(), srcs.size(), e - b, d.dtype, d.op);
  });
}

}  // namespace acl_sim::hccl
