// HCCL collectives, gloo-style: one file per collective, each written once
// for both kinds of rank. A collective runs in one process over
//  - the buffers of the ranks this process holds, read and written directly
//    (shared memory): all n ranks for thread ranks (HcclCommInitAll, or
//    HcclCommInitRootInfo inside one process; the last rank to arrive runs the
//    collective for everyone, see local_group.h), and
//  - a PeerTransport (transport.h) to the other processes: MPI, one rank per
//    process (transport_mpi.h); none for thread ranks.
// As in gloo's multi-input algorithms, each collective combines the local
// ranks' buffers directly and exchanges only what other processes need, so
// thread ranks move no data through a transport and MPI ranks do no extra
// local copies. Rank r lives in process r / k (k = ranks per process).
//
// Results are bit-identical on every rank: a reduction folds the inputs in
// rank order (MPI AllReduce above 64 KiB uses a ring: still identical on every
// rank, but folded in ring order). Large local steps are split into pieces run
// on the executor pool (for_each_piece).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "executor/thread_pool.h"
#include "hccl/op_desc.h"
#include "hccl/reduce_ops.h"
#include "hccl/sync.h"
#include "hccl/transport.h"

namespace acl_sim::hccl {

/** One collective as this process runs it. */
struct CollectiveRun {
  std::vector<const OpDesc*> local;  // requests of this process's ranks, in rank order (k >= 1)
  uint32_t nranks = 1;               // ranks in the communicator: procs() * k()
  PeerTransport* peers = nullptr;    // the other processes; nullptr when every rank is local
  int tag = 0;                       // transport tag of this collective (same on every process)
  Deadline deadline;                 // bounds every transport wait

  uint32_t k() const { return static_cast<uint32_t>(local.size()); }
  uint32_t procs() const { return peers ? peers->size() : 1; }
  uint32_t proc() const { return peers ? peers->rank() : 0; }
  uint32_t proc_of(uint32_t rank) const { return rank / k(); }
  bool is_local(uint32_t rank) const { return proc_of(rank) == proc(); }
  uint32_t first_local() const { return proc() * k(); }
  /** The request of local rank @p rank (is_local(rank) must hold). */
  const OpDesc& of(uint32_t rank) const { return *local[rank - first_local()]; }
  /** What every rank agreed on (kind, count, dtype, op, root): validated before an algorithm runs. */
  const OpDesc& shape() const { return *local[0]; }
  /** Complete the transport requests posted so far (nothing to do for thread ranks). */
  void wait(const char* what) const {
    if (peers) peers->wait_all(deadline, what);
  }
};

/** Validate every rank's request against the others (exchanging headers with the other processes;
 *  HCCL_E_PARA on a mismatch, on every rank alike), then run the collective. Throws Error. */
void run_collective(const CollectiveRun& run);  // collective.cpp

void allreduce(const CollectiveRun& run);       // allreduce.cpp
void broadcast(const CollectiveRun& run);       // broadcast.cpp
void allgather(const CollectiveRun& run);       // allgather.cpp
void reduce_scatter(const CollectiveRun& run);  // reduce_scatter.cpp
void reduce(const CollectiveRun& run);          // reduce.cpp
void scatter(const CollectiveRun& run);         // scatter.cpp
void alltoallv(const CollectiveRun& run);       // alltoallv.cpp

/** Sources of a reduction, in rank order: a fixed array for the usual rank counts, a vector beyond. */
class SourceList {
 public:
  void push(const void* p) {
    if (n_ < kInline) {
      inline_[n_++] = p;
      return;
    }
    if (n_ == kInline) heap_.assign(inline_, inline_ + kInline);
    heap_.push_back(p);
    ++n_;
  }
  const void* const* data() const { return n_ <= kInline ? inline_ : heap_.data(); }
  size_t size() const { return n_; }

 private:
  static constexpr size_t kInline = 16;
  const void* inline_[kInline];
  std::vector<const void*> heap_;
  size_t n_ = 0;
};

/** This process's contribution to a reduction over @p count elements at byte @p offset of every local
 *  rank's input: the input itself when the process holds one rank (no copy), else the local inputs folded
 *  in rank order into @p scratch. */
const void* local_partial(const CollectiveRun& run, uint64_t offset, uint64_t count, std::vector<char>& scratch);

/** What the other processes sent this one: from[q] is process q's message (nullptr for this process). */
struct ReceivedPartials {
  std::vector<char> storage;
  std::vector<const char*> from;
};
/** Post a receive of @p bytes from every other process (nothing for thread ranks); complete them with
 *  run.peers->wait_all before reading. */
ReceivedPartials post_partial_receives(const CollectiveRun& run, uint64_t bytes);
/** Append the sources of one reduction in rank order: for each process in order, this process's local
 *  inputs at byte @p local_offset, or what process q sent (received.from[q] + @p received_offset). */
void reduction_sources(const CollectiveRun& run, uint64_t local_offset, const ReceivedPartials& received,
                       uint64_t received_offset, SourceList& out);

/** [begin, end) of part @p i when @p count elements are split into @p n balanced parts. */
inline void split_range(uint64_t count, uint32_t n, uint32_t i, uint64_t* begin, uint64_t* end) {
  const uint64_t base = count / n, rem = count % n;
  *begin = i * base + (i < rem ? i : rem);
  *end = *begin + base + (i < rem ? 1 : 0);
}

inline const char* cbytes(const void* p, uint64_t offset = 0) { return static_cast<const char*>(p) + offset; }
inline char* mbytes(void* p, uint64_t offset = 0) { return static_cast<char*>(p) + offset; }

/** Bytes per piece of a large collective: big enough to amortise a pool index, small enough that
 *  a piece's reduced output is still in cache when it is copied to the other ranks. */
constexpr uint64_t kPieceBytes = uint64_t(256) << 10;

/** Calls fn(begin, end) over [0, @p count) elements of @p elem_bytes each, in pieces of about
 *  kPieceBytes bytes of traffic (@p traffic_per_element times the element size per element); on the
 *  executor pool when there is more than one piece, else on the calling thread. */
template <class F>
void for_each_piece(uint64_t count, size_t elem_bytes, uint64_t traffic_per_element, F&& fn) {
  const uint64_t per_piece_elems =
      kPieceBytes / (elem_bytes * (traffic_per_element ? traffic_per_element : 1)) + 1;
  const uint64_t pieces = (count + per_piece_elems - 1) / per_piece_elems;
  if (pieces <= 1) {
    if (count) fn(uint64_t(0), count);
    return;
  }
  ThreadPool::instance().parallel_for(pieces, [&](size_t i) {
    const uint64_t b = i * per_piece_elems;
    const uint64_t e = b + per_piece_elems < count ? b + per_piece_elems : count;
    fn(b, e);
  });
}


}  // namespace acl_sim::hccl
