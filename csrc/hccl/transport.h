// The point-to-point transport interface for ranks in different processes.
// Algorithms in algorithms/p2p_collectives.cpp are written against it; MPI
// (transport_mpi.h) is the implementation. Requests are batched: post sends
// and receives, then wait for the whole batch under a deadline.
#pragma once

#include <cstddef>
#include <cstdint>

#include "hccl/sync.h"

namespace acl_sim::hccl {

class PeerTransport {
 public:
  virtual ~PeerTransport() = default;
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
};

}  // namespace acl_sim::hccl
