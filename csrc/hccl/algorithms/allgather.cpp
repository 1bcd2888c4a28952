// AllGather: block j of every rank's output is rank j's input.
// Each process gathers its ranks' inputs into its first local rank's output,
// exchanges that run of blocks with every other process, and copies the whole
// output to its other local ranks. Thread ranks do both copies piece by piece
// (a piece of every block is still in cache when it is copied out); an
// in-place rank (input = its own block of the output) is safe, since each
// piece of its input is read before the same bytes are rewritten with
// themselves.
#include <cstring>

#include "hccl/algorithms/collective.h"

namespace acl_sim::hccl {
namespace {

// Elements [b, e) of each local input into its block of @p out.
void gather_local_inputs(const CollectiveRun& run, char* out, uint64_t block, size_t es, uint64_t b, uint64_t e) {
  for (uint32_t l = 0; l < run.k(); ++l) {
    const char* src = cbytes(run.local[l]->send, b * es);
    char* dst = out + (run.first_local() + l) * block + b * es;
    if (dst != src) std::memcpy(dst, src, (e - b) * es);
  }
}

// Elements [b, e) of every block of @p out into the other local outputs.
void copy_to_other_outputs(const CollectiveRun& run, const char* out, uint64_t block, size_t es, uint64_t b,
                           uint64_t e) {
  for (uint32_t l = 1; l < run.k(); ++l)
    for (uint32_t j = 0; j < run.nranks; ++j)
      std::memcpy(mbytes(run.local[l]->recv, j * block + b * es), out + j * block + b * es, (e - b) * es);
}

}  // namespace

void allgather(const CollectiveRun& run) {
  const OpDesc& d = run.shape();
  const size_t es = dtype_size(d.dtype);
  const uint64_t block = d.count * es;
  char* out = mbytes(run.local[0]->recv);
  if (run.procs() == 1) {
    for_each_piece(d.count, es, uint64_t(run.nranks) * run.nranks, [&](uint64_t b, uint64_t e) {
      gather_local_inputs(run, out, block, es, b, e);
      copy_to_other_outputs(run, out, block, es, b, e);
    });
    return;
  }
  gather_local_inputs(run, out, block, es, 0, d.count);
  const uint64_t run_bytes = run.k() * block;  // one process's blocks
  for (uint32_t q = 0; q < run.procs(); ++q) {
    if (q == run.proc()) continue;
    run.peers->isend(q, out + run.proc() * run_bytes, run_bytes, run.tag);
    run.peers->irecv(q, out + q * run_bytes, run_bytes, run.tag);
  }
  run.wait("HcclAllGather");
  copy_to_other_outputs(run, out, block, es, 0, d.count);
}

}  // namespace acl_sim::hccl
