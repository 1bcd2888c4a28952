// What every collective shares: checking the ranks' requests against each
// other, the choice of algorithm, and the sources of a reduction.
#include "hccl/algorithms/collective.h"

#include <cstring>

#include "common/error.h"

namespace acl_sim::hccl {
namespace {

// What a process tells the others about each of its ranks' requests (buffers stay private).
struct RequestHeader {
  uint32_t kind, dtype, op, root;
  uint64_t count;
};

// Every rank's request, in rank order, when ranks span processes: the local ones as they are, the
// others from an allgather of headers (plus alltoallv counts), owned by @p remote.
std::vector<const OpDesc*> all_requests(const CollectiveRun& run, std::vector<OpDesc>& remote) {
  const uint32_t n = run.nranks, k = run.k();
  std::vector<const OpDesc*> all(n);
  const size_t rec = sizeof(RequestHeader) + 2 * n * sizeof(uint64_t);
  std::vector<char> mine(rec * k, 0), gathered(rec * n);
  for (uint32_t l = 0; l < k; ++l) {
    const OpDesc& d = *run.local[l];
    char* p = mine.data() + l * rec;
    RequestHeader h{static_cast<uint32_t>(d.kind), static_cast<uint32_t>(d.dtype), static_cast<uint32_t>(d.op),
                    d.root, d.count};
    std::memcpy(p, &h, sizeof(h));
    if (d.kind == OpKind::kAllToAllV) {
      std::memcpy(p + sizeof(h), d.send_counts.data(), n * sizeof(uint64_t));
      std::memcpy(p + sizeof(h) + n * sizeof(uint64_t), d.recv_counts.data(), n * sizeof(uint64_t));
    }
  }
  run.peers->allgather(mine.data(), gathered.data(), rec * k, run.deadline, kind_name(run.shape().kind));
  remote.resize(n);
  for (uint32_t r = 0; r < n; ++r) {
    if (run.is_local(r)) {
      all[r] = &run.of(r);
      continue;
    }
    const char* p = gathered.data() + r * rec;
    RequestHeader h;
    std::memcpy(&h, p, sizeof(h));
    OpDesc& x = remote[r];
    x.kind = static_cast<OpKind>(h.kind);
    x.dtype = static_cast<HcclDataType>(h.dtype);
    x.op = static_cast<HcclReduceOp>(h.op);
    x.root = h.root;
    x.count = h.count;
    if (x.kind == OpKind::kAllToAllV) {
      x.send_counts.resize(n);
      x.recv_counts.resize(n);
      std::memcpy(x.send_counts.data(), p + sizeof(h), n * sizeof(uint64_t));
      std::memcpy(x.recv_counts.data(), p + sizeof(h) + n * sizeof(uint64_t), n * sizeof(uint64_t));
    }
    all[r] = &x;
  }
  return all;
}

}  // namespace

void run_collective(const CollectiveRun& run) {
  ACL_SIM_REQUIRE(run.k() >= 1 && run.procs() * run.k() == run.nranks, HCCL_E_INTERNAL, "a collective of ",
                  run.nranks, " ranks cannot run as ", run.procs(), " process(es) of ", run.k(), " rank(s)");
  if (run.procs() == 1) {
    validate_descs(run.local.data(), run.nranks);
  } else {
    std::vector<OpDesc> remote;
    validate_descs(all_requests(run, remote).data(), run.nranks);  // also the whole of a barrier
  }
  switch (run.shape().kind) {
    case OpKind::kAllReduce: return allreduce(run);
    case OpKind::kBroadcast: return broadcast(run);
    case OpKind::kAllGather: return allgather(run);
    case OpKind::kReduceScatter: return reduce_scatter(run);
    case OpKind::kReduce: return reduce(run);
    case OpKind::kScatter: return scatter(run);
    case OpKind::kAllToAllV: return alltoallv(run);
    case OpKind::kBarrier: return;  // every rank arrived (threads) or sent its header (processes)
    default: fail(HCCL_E_INTERNAL, kind_name(run.shape().kind), " is not a group collective");
  }
}

const void* local_partial(const CollectiveRun& run, uint64_t offset, uint64_t count, std::vector<char>& scratch) {
  if (run.k() == 1) return cbytes(run.local[0]->send, offset);
  const OpDesc& d = run.shape();
  scratch.resize(count * dtype_size(d.dtype));
  SourceList srcs;
  for (const OpDesc* l : run.local) srcs.push(cbytes(l->send, offset));
  reduce_sources(scratch.data(), srcs.data(), srcs.size(), count, d.dtype, d.op);
  return scratch.data();
}

ReceivedPartials post_partial_receives(const CollectiveRun& run, uint64_t bytes) {
  ReceivedPartials got;
  const uint32_t procs = run.procs();
  if (procs == 1) return got;
  got.storage.resize(bytes * (procs - 1));
  got.from.assign(procs, nullptr);
  char* next = got.storage.data();
  for (uint32_t q = 0; q < procs; ++q) {
    if (q == run.proc()) continue;
    run.peers->irecv(q, next, bytes, run.tag);
    got.from[q] = next;
    next += bytes;
  }
  return got;
}

void reduction_sources(const CollectiveRun& run, uint64_t local_offset, const ReceivedPartials& received,
                       uint64_t received_offset, SourceList& out) {
  for (uint32_t q = 0; q < run.procs(); ++q) {
    if (q != run.proc()) {
      out.push(received.from[q] + received_offset);
      continue;
    }
    for (const OpDesc* l : run.local) out.push(cbytes(l->send, local_offset));
  }
}

}  // namespace acl_sim::hccl
