#include "hccl/transport_send_recv.h"

#include "common/error.h"
#include "hccl/reduce_ops.h"

namespace acl_sim::hccl {

void transport_send(PeerTransport& t, uint64_t pair_seq, const OpDesc& d, const Deadline& dl) {
  const int tag = send_recv_tag(pair_seq);
  uint64_t header[2] = {d.count, static_cast<uint64_t>(d.dtype)};
  uint64_t ack = 0;
  t.isend(d.root, header, sizeof(header), tag);
  t.irecv(d.root, &ack, sizeof(ack), tag);
  t.wait_all(dl, "HcclSend");
  ACL_SIM_REQUIRE(ack == 0, HCCL_E_PARA, "send/recv mismatch: rank ", t.rank(), " sends ", d.count, " x ",
                  dtype_name(d.dtype), ", rank ", d.root, " receives ", (ack >> 8), " x ",
                  dtype_name(static_cast<HcclDataType>((ack & 0xff) - 1)));
  t.isend(d.root, d.send, d.count * dtype_size(d.dtype), tag);
  t.wait_all(dl, "HcclSend");
}

void transport_recv(PeerTransport& t, uint64_t pair_seq, const OpDesc& d, const Deadline& dl) {
  const int tag = send_recv_tag(pair_seq);
  uint64_t header[2] = {0, 0};
  t.irecv(d.root, header, sizeof(header), tag);
  t.wait_all(dl, "HcclRecv");
  const bool match = header[0] == d.count && header[1] == static_cast<uint64_t>(d.dtype);
  // The ack carries our count and type (+1, so 0 means "match") for the sender's message.
  uint64_t ack = match ? 0 : ((d.count << 8) | (static_cast<uint64_t>(d.dtype) + 1));
  t.isend(d.root, &ack, sizeof(ack), tag);
  if (match) t.irecv(d.root, d.recv, d.count * dtype_size(d.dtype), tag);
  t.wait_all(dl, "HcclRecv");
  ACL_SIM_REQUIRE(match, HCCL_E_PARA, "send/recv mismatch: rank ", d.root, " sends ", header[0], " x ",
                  dtype_name(static_cast<HcclDataType>(header[1])), ", rank ", t.rank(), " receives ", d.count,
                  " x ", dtype_name(d.dtype));
}

}  // namespace acl_sim::hccl
