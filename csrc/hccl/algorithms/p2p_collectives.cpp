#include "hccl/algorithms/p2p_collectives.h"

#include <cstring>
#include <memory>
#include <vector>

#include "common/error.h"
#include "hccl/algorithms/algorithms.h"

namespace acl_sim::hccl {
namespace {

constexpr uint64_t kDirectAllReduceBytes = 64 << 10;

struct Header {
  uint32_t kind, dtype, op, root;
  uint64_t count;
};

int collective_tag(uint64_t seq) { return 1 + static_cast<int>(seq % 16000); }
int p2p_tag(uint64_t pair_seq) { return 20000 + static_cast<int>(pair_seq % 10000); }

// Allgather every rank's request (plus alltoallv counts) and validate them all.
void exchange_headers(PeerTransport& t, const OpDesc& d, const Deadline& deadline) {
  const uint32_t n = t.size();
  const size_t rec = sizeof(Header) + 2 * n * sizeof(uint64_t);
  std::vector<char> mine(rec, 0), all(rec * n);
  Header h{static_cast<uint32_t>(d.kind), static_cast<uint32_t>(d.dtype), static_cast<uint32_t>(d.op), d.root,
           d.count};
  std::memcpy(mine.data(), &h, sizeof(h));
  if (d.kind == OpKind::kAllToAllV) {
    std::memcpy(mine.data() + sizeof(h), d.send_counts.data(), n * sizeof(uint64_t));
    std::memcpy(mine.data() + sizeof(h) + n * sizeof(uint64_t), d.recv_counts.data(), n * sizeof(uint64_t));
  }
  t.allgather(mine.data(), all.data(), rec, deadline, kind_name(d.kind));
  std::vector<OpDesc> descs(n);
  std::vector<const OpDesc*> ptrs(n);
  for (uint32_t r = 0; r < n; ++r) {
    const char* p = all.data() + r * rec;
    Header o;
    std::memcpy(&o, p, sizeof(o));
    OpDesc& x = descs[r];
    x.kind = static_cast<OpKind>(o.kind);
    x.dtype = static_cast<HcclDataType>(o.dtype);
    x.op = static_cast<HcclReduceOp>(o.op);
    x.root = o.root;
    x.count = o.count;
    if (x.kind == OpKind::kAllToAllV) {
      x.send_counts.resize(n);
      x.recv_counts.resize(n);
      std::memcpy(x.send_counts.data(), p + sizeof(o), n * sizeof(uint64_t));
      std::memcpy(x.recv_counts.data(), p + sizeof(o) + n * sizeof(uint64_t), n * sizeof(uint64_t));
    }
    ptrs[r] = &x;
  }
  validate_descs(ptrs.data(), n);
}

void allreduce(PeerTransport& t, int tag, const OpDesc& d, const Deadline& dl) {
  const uint32_t n = t.size(), r = t.rank();
  const size_t es = dtype_size(d.dtype);
  const uint64_t bytes = d.count * es;
  if (n == 1 || d.count < n || bytes <= kDirectAllReduceBytes) {
    // Latency path: everyone sends its input to everyone; each folds all inputs in rank order.
    std::vector<char> tmp(bytes * n);
    std::vector<const void*> srcs(n);
    for (uint32_t j = 0; j < n; ++j) {
      if (j == r) {
        srcs[j] = d.send;
        continue;
      }
      t.isend(j, d.send, bytes, tag);
      t.irecv(j, tmp.data() + j * bytes, bytes, tag);
      srcs[j] = tmp.data() + j * bytes;
    }
    t.wait_all(dl, "HcclAllReduce");
    reduce_sources(d.recv, srcs.data(), n, d.count, d.dtype, d.op);
    return;
  }
  if (is_half(d.dtype)) {
    // fp16/bf16 are reduced in fp32: run the ring on a widened copy, round once at the end.
    std::vector<float> wide(d.count);
    widen_half(d.send, wide.data(), d.count, d.dtype);
    OpDesc w = d;
    w.dtype = HCCL_DATA_TYPE_FP32;
    w.send = w.recv = wide.data();
    allreduce(t, tag, w, dl);
    narrow_half(wide.data(), d.recv, d.count, d.dtype);
    return;
  }
  if (d.recv != d.send) std::memcpy(d.recv, d.send, bytes);
  const uint32_t right = (r + 1) % n, left = (r + n - 1) % n;
  auto chunk = [&](uint32_t i, uint64_t* off, uint64_t* len) {
    uint64_t b, e;
    split_range(d.count, n, i, &b, &e);
    *off = b * es;
    *len = (e - b) * es;
  };
  uint64_t max_off, max_len;
  chunk(0, &max_off, &max_len);
  std::vector<char> tmp(max_len);
  for (uint32_t s = 0; s + 1 < n; ++s) {  // reduce-scatter
    uint64_t so, sl, ro, rl;
    chunk((r + n - s) % n, &so, &sl);
    chunk((r + 2 * n - s - 1) % n, &ro, &rl);
    t.isend(right, mbytes(d.recv, so), sl, tag);
    t.irecv(left, tmp.data(), rl, tag);
    t.wait_all(dl, "HcclAllReduce (reduce-scatter)");
    const void* srcs[2] = {mbytes(d.recv, ro), tmp.data()};
    reduce_sources(mbytes(d.recv, ro), srcs, 2, rl / es, d.dtype, d.op);
  }
  for (uint32_t s = 0; s + 1 < n; ++s) {  // allgather of the reduced chunks
    uint64_t so, sl, ro, rl;
    chunk((r + 1 + n - s) % n, &so, &sl);
    chunk((r + n - s) % n, &ro, &rl);
    t.isend(right, mbytes(d.recv, so), sl, tag);
    t.irecv(left, mbytes(d.recv, ro), rl, tag);
    t.wait_all(dl, "HcclAllReduce (allgather)");
  }
}

void fold_from_all(PeerTransport& t, int tag, const OpDesc& d, const void* mine, const Deadline& dl,
                   const char* what, bool send_blocks) {
  // ReduceScatter (send_blocks: block j of my input goes to rank j) and Reduce (whole input to root).
  const uint32_t n = t.size(), r = t.rank();
  const uint64_t bytes = d.count * dtype_size(d.dtype);
  std::vector<char> tmp(bytes * n);
  std::vector<const void*> srcs(n);
  for (uint32_t j = 0; j < n; ++j) {
    if (j == r) {
      srcs[j] = mine;
      continue;
    }
    if (send_blocks) t.isend(j, cbytes(d.send, j * bytes), bytes, tag);
    t.irecv(j, tmp.data() + j * bytes, bytes, tag);
    srcs[j] = tmp.data() + j * bytes;
  }
  t.wait_all(dl, what);
  reduce_sources(d.recv, srcs.data(), n, d.count, d.dtype, d.op);
}

}  // namespace

void run_p2p_collective(PeerTransport& t, uint64_t seq, const OpDesc& d, const Deadline& dl) {
  exchange_headers(t, d, dl);  // also the whole of HcclBarrier
  const int tag = collective_tag(seq);
  const uint32_t n = t.size(), r = t.rank();
  const size_t es = d.kind == OpKind::kBarrier ? 1 : dtype_size(d.dtype);
  const uint64_t bytes = d.count * es;
  switch (d.kind) {
    case OpKind::kBarrier:
      return;
    case OpKind::kAllReduce:
      return allreduce(t, tag, d, dl);
    case OpKind::kBroadcast:
      if (r == d.root) {
        for (uint32_t j = 0; j < n; ++j)
          if (j != r) t.isend(j, d.send, bytes, tag);
      } else {
        t.irecv(d.root, d.recv, bytes, tag);
      }
      return t.wait_all(dl, "HcclBroadcast");
    case OpKind::kAllGather:
      for (uint32_t j = 0; j < n; ++j) {
        if (j == r) {
          if (mbytes(d.recv, j * bytes) != d.send) std::memcpy(mbytes(d.recv, j * bytes), d.send, bytes);
          continue;
        }
        t.isend(j, d.send, bytes, tag);
        t.irecv(j, mbytes(d.recv, j * bytes), bytes, tag);
      }
      return t.wait_all(dl, "HcclAllGather");
    case OpKind::kReduceScatter:
      return fold_from_all(t, tag, d, cbytes(d.send, r * bytes), dl, "HcclReduceScatter", true);
    case OpKind::kReduce:
      if (r == d.root) return fold_from_all(t, tag, d, d.send, dl, "HcclReduce", false);
      t.isend(d.root, d.send, bytes, tag);
      return t.wait_all(dl, "HcclReduce");
    case OpKind::kScatter:
      if (r == d.root) {
        for (uint32_t j = 0; j < n; ++j)
          if (j != r) t.isend(j, cbytes(d.send, j * bytes), bytes, tag);
        if (cbytes(d.send, r * bytes) != d.recv) std::memcpy(d.recv, cbytes(d.send, r * bytes), bytes);
      } else {
        t.irecv(d.root, d.recv, bytes, tag);
      }
      return t.wait_all(dl, "HcclScatter");
    case OpKind::kAllToAllV:
      for (uint32_t j = 0; j < n; ++j) {
        const void* src = cbytes(d.send, d.send_displs[j] * es);
        void* dst = mbytes(d.recv, d.recv_displs[j] * es);
        if (j == r) {
          if (d.recv_counts[j]) std::memmove(dst, src, d.recv_counts[j] * es);
          continue;
        }
        t.isend(j, src, d.send_counts[j] * es, tag);
        t.irecv(j, dst, d.recv_counts[j] * es, tag);
      }
      return t.wait_all(dl, "HcclAlltoAllV");
    default:
      fail(HCCL_E_INTERNAL, kind_name(d.kind), " is not a group collective");
  }
}

void p2p_send(PeerTransport& t, uint64_t pair_seq, const OpDesc& d, const Deadline& dl) {
  const int tag = p2p_tag(pair_seq);
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

void p2p_recv(PeerTransport& t, uint64_t pair_seq, const OpDesc& d, const Deadline& dl) {
  const int tag = p2p_tag(pair_seq);
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
