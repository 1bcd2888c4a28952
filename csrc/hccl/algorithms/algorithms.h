// In-process collective algorithms, gloo-style: one file per collective. Each
// runs the whole collective for every rank of a LocalGroup on one thread (the
// last rank to arrive, see local_group.h) over the ranks' device memory, which
// it reads and writes directly: descs[r] is rank r's validated request. Large
// messages are split into pieces run on the executor pool (for_each_piece).
// Results are bit-identical on every rank: each element is reduced once, in
// rank order, and copied to the other ranks.
#pragma once

#include <cstddef>
#include <cstdint>

#include "executor/thread_pool.h"
#include "hccl/op_desc.h"
#include "hccl/reduce_ops.h"

namespace acl_sim::hccl {

/** The requests of every rank of one collective (descs[r] is rank r's), validated alike. */
struct RankRequests {
  const OpDesc* const* descs;
  uint32_t n;
  const OpDesc& operator[](uint32_t r) const { return *descs[r]; }
};

void allreduce_all_ranks(const RankRequests& ranks);       // allreduce.cpp
void broadcast_all_ranks(const RankRequests& ranks);       // broadcast.cpp
void allgather_all_ranks(const RankRequests& ranks);       // allgather.cpp
void reduce_scatter_all_ranks(const RankRequests& ranks);  // reduce_scatter.cpp
void reduce_all_ranks(const RankRequests& ranks);          // reduce.cpp
void scatter_all_ranks(const RankRequests& ranks);         // scatter.cpp
void alltoallv_all_ranks(const RankRequests& ranks);       // alltoallv.cpp

/** Run collective @p ranks (any group kind; a barrier moves nothing). Throws Error. */
void run_all_ranks(const RankRequests& ranks);

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
 *  @p work_per_element * kPieceBytes bytes of traffic; on the executor pool when there is more
 *  than one piece, else on the calling thread. */
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
