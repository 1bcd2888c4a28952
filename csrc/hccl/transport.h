// The point-to-point transport between the processes of a communicator. The
// collectives (algorithms/collective.h) and HcclSend/HcclRecv
// (transport_send_recv.h) use it for whatever crosses a process boundary;
// ranks in one process share memory and need none. MPI (transport_mpi.h) is
// the implementation. Requests are batched: post sends and receives, then wait
// for the whole batch under a deadline.
#pragma once

#include <cstddef>
#include <cstdint>

#include "hccl/sync.h"

namespace acl_sim::hccl {

/** The tag of collective number @p seq, and of message number @p pair_seq of one HcclSend/HcclRecv
 *  pair (disjoint ranges). Tags repeat: MPI keeps the order of equal tags between two processes. */
inline int collective_tag(uint64_t seq) { return 1 + static_cast<int>(seq % 16000); }
inline int send_recv_tag(uint64_t pair_seq) { return 20000 + static_cast<int>(pair_seq % 10000); }

class PeerTransport {
 public:
  virtual ~PeerTransport() = default;
  /** This process's index among size() processes. */
  virtual uint32_t rank() const = 0;
  virtual uint32_t size() const = 0;
  /** Post a send of @p bytes to @p peer with @p tag (the buffer must stay valid until wait_all). */
  virtual void isend(uint32_t peer, const void* buf, size_t bytes, int tag) = 0;
  /** Post a receive of exactly @p bytes from @p peer with @p tag. */
  virtual void irecv(uint32_t peer, void* buf, size_t bytes, int tag) = 0;
  /** Complete every posted request. Throws Error(HCCL_E_TIMEOUT) at @p deadline (the transport is then
   *  unusable), Error(HCCL_E_REMOTE/HCCL_E_INTERNAL) on a transport failure. @p what names the op. */
  virtual void wait_all(const Deadline& deadline, const char* what) = 0;
  /** Every rank contributes @p bytes at @p mine; @p all receives size()*bytes in rank order. Collective. */
  virtual void allgather(const void* mine, void* all, size_t bytes, const Deadline& deadline, const char* what) = 0;

  /** No collective is running (kNoCollective), or collective number @p seq is: waits then fail with
   *  Error(HCCL_E_REMOTE) as soon as a process that announced leaving before @p seq is heard from. */
  static constexpr uint64_t kNoCollective = UINT64_MAX;
  virtual void set_collective(uint64_t seq) = 0;
  /** Tell the other processes that this one takes part in no collective numbered @p issued or later
   *  (its rank left the communicator). Once; does not wait for them. */
  virtual void announce_leaving(uint64_t issued) = 0;
};

}  // namespace acl_sim::hccl
