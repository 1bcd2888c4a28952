// HcclSend / HcclRecv between ranks in different processes, over a
// PeerTransport: the sender sends a header (count, type), the receiver answers
// with an ack that is 0 on a match or carries its own count and type, then the
// data follows. A mismatch fails both sides with HCCL_E_PARA before data moves.
// (Thread ranks meet in LocalGroup::send / recv and copy once.)
#pragma once

#include <cstdint>

#include "hccl/op_desc.h"
#include "hccl/transport.h"

namespace acl_sim::hccl {

/** Message number @p pair_seq from this rank to rank d.root (the peer). Blocks; throws Error. */
void transport_send(PeerTransport& t, uint64_t pair_seq, const OpDesc& d, const Deadline& deadline);
/** Message number @p pair_seq from rank d.root (the peer) to this rank. Blocks; throws Error. */
void transport_recv(PeerTransport& t, uint64_t pair_seq, const OpDesc& d, const Deadline& deadline);

}  // namespace acl_sim::hccl
