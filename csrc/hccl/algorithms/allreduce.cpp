// AllReduce: every rank's output is all inputs reduced element-wise.
//
// Direct exchange (thread ranks, and MPI up to 64 KiB): each process sends its
// partial result (its input, for one rank per process) to every other
// process; then, piece by piece, every input is folded once in rank order into
// the first local rank's output and the piece is copied to the other local
// outputs while it is still in cache. Each piece's sources are all read before
// any of its outputs is written, so in-place ranks (send == recv) are safe. For
// thread ranks that is n reads + n writes of S, the minimum, and no transport.
//
// Ring (MPI above 64 KiB): reduce-scatter then allgather of n chunks around
// the ring of processes, 2(n-1)/n * S sent per process instead of (n-1) * S.
#include <cstring>
#include <vector>

#include "hccl/algorithms/collective.h"

namespace acl_sim::hccl {
namespace {

constexpr uint64_t kDirectExchangeBytes = 64 << 10;

// Ring allreduce of @p count elements in place in @p acc across the processes of @p t.
void ring_allreduce(PeerTransport& t, void* acc, uint64_t count, HcclDataType dt, HcclReduceOp op, int tag,
                    const Deadline& dl) {
  if (is_half(dt)) {
    // fp16/bf16 are reduced in fp32: run the ring on a widened copy, round once at the end.
    std::vector<float> wide(count);
    widen_half(acc, wide.data(), count, dt);
    ring_allreduce(t, wide.data(), count, HCCL_DATA_TYPE_FP32, op, tag, dl);
    narrow_half(wide.data(), acc, count, dt);
    return;
  }
  const uint32_t n = t.size(), r = t.rank();
  const size_t es = dtype_size(dt);
  const uint32_t right = (r + 1) % n, left = (r + n - 1) % n;
  auto chunk = [&](uint32_t i, uint64_t* off, uint64_t* len) {
    uint64_t b, e;
    split_range(count, n, i, &b, &e);
    *off = b * es;
    *len = (e - b) * es;
  };
  uint64_t max_off, max_len;
  chunk(0, &max_off, &max_len);
  std::vector<char> tmp(max_len);
  for (uint32_t s = 0; s + 1 < n; ++s) {  // reduce-scatter: after it, chunk r+1 is complete here
    uint64_t so, sl, ro, rl;
    chunk((r + n - s) % n, &so, &sl);
    chunk((r + 2 * n - s - 1) % n, &ro, &rl);
    t.isend(right, mbytes(acc, so), sl, tag);
    t.irecv(left, tmp.data(), rl, tag);
    t.wait_all(dl, "HcclAllReduce (ring reduce-scatter)");
    const void* srcs[2] = {mbytes(acc, ro), tmp.data()};
    reduce_sources(mbytes(acc, ro), srcs, 2, rl / es, dt, op);
  }
  for (uint32_t s = 0; s + 1 < n; ++s) {  // allgather of the complete chunks
    uint64_t so, sl, ro, rl;
    chunk((r + 1 + n - s) % n, &so, &sl);
    chunk((r + n - s) % n, &ro, &rl);
    t.isend(right, mbytes(acc, so), sl, tag);
    t.irecv(left, mbytes(acc, ro), rl, tag);
    t.wait_all(dl, "HcclAllReduce (ring allgather)");
  }
}

void copy_to_other_outputs(const CollectiveRun& run, const char* from, uint64_t offset, uint64_t bytes) {
  for (uint32_t l = 1; l < run.k(); ++l) std::memcpy(mbytes(run.local[l]->recv, offset), from, bytes);
}

}  // namespace

void allreduce(const CollectiveRun& run) {
  const OpDesc& d = run.shape();
  const size_t es = dtype_size(d.dtype);
  const uint64_t bytes = d.count * es;
  void* acc = run.local[0]->recv;
  std::vector<char> scratch;
  if (run.procs() > 1 && bytes > kDirectExchangeBytes && d.count >= run.procs()) {
    const void* mine = local_partial(run, 0, d.count, scratch);
    if (mine != acc) std::memcpy(acc, mine, bytes);
    ring_allreduce(*run.peers, acc, d.count, d.dtype, d.op, run.tag, run.deadline);
    copy_to_other_outputs(run, cbytes(acc), 0, bytes);
    return;
  }
  if (run.procs() > 1) {
    const void* mine = local_partial(run, 0, d.count, scratch);
    for (uint32_t q = 0; q < run.procs(); ++q)
      if (q != run.proc()) run.peers->isend(q, mine, bytes, run.tag);
  }
  const ReceivedPartials received = post_partial_receives(run, bytes);
  run.wait("HcclAllReduce");
  for_each_piece(d.count, es, 2 * run.nranks, [&](uint64_t b, uint64_t e) {
    SourceList srcs;
    reduction_sources(run, b * es, received, b * es, srcs);
    char* out = mbytes(acc, b * es);
    reduce_sources(out, srcs.data(), srcs.size(), e - b, d.dtype, d.op);
    copy_to_other_outputs(run, out, b * es, (e - b) * es);
  });
}

}  // namespace acl_sim::hccl
