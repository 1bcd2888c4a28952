// Collectives over a PeerTransport (ranks in different processes): ring
// reduce-scatter + allgather for large allreduces, direct exchanges for the
// rest. Every collective starts by allgathering each rank's request header,
// so a mismatch fails on every rank with HCCL_E_PARA before data moves.
#pragma once

#include <cstdint>

#include "hccl/op_desc.h"
#include "hccl/transport.h"

namespace acl_sim::hccl {

/** Run collective number @p seq (same on every rank) as this transport's rank. Blocks; throws Error. */
void run_p2p_collective(PeerTransport& t, uint64_t seq, const OpDesc& d, const Deadline& deadline);
/** HcclSend / HcclRecv: a header/ack handshake (mismatch → HCCL_E_PARA on both sides), then the data.
 *  @p pair_seq numbers the messages of this (src, dst) pair. */
void p2p_send(PeerTransport& t, uint64_t pair_seq, const OpDesc& d, const Deadline& deadline);
void p2p_recv(PeerTransport& t, uint64_t pair_seq, const OpDesc& d, const Deadline& deadline);

}  // namespace acl_sim::hccl
