// hccl.h: the collectives. Each entry point validates its arguments
// synchronously (HCCL_E_PTR / HCCL_E_PARA / HCCL_E_NOT_SUPPORT) and queues
// the collective on the stream; cross-rank mismatches and timeouts surface
// asynchronously (stream error + HcclGetCommAsyncError).
#include <limits>

#include "capi/hccl_guard.h"
#include "hccl/comm.h"
#include "hccl/hccl.h"
#include "hccl/reduce_ops.h"
#include "runtime/call_gate.h"
#include "runtime/device.h"
#include "runtime/runtime.h"

using namespace acl_sim;
using namespace acl_sim::hccl;
using acl_sim::capi::hccl_call;

namespace {

uint64_t bytes_of(uint64_t count, HcclDataType dt, uint64_t multiplier = 1) {
  const uint64_t es = dtype_size(dt);
  ACL_SIM_REQUIRE(count <= std::numeric_limits<uint64_t>::max() / es / multiplier, HCCL_E_PARA, "count ", count,
                  " overflows the buffer size");
  return count * es * multiplier;
}

// A collective's buffer must be device memory of the rank's device, large enough for the operation.
void check_buffer(const char* what, const void* p, uint64_t bytes, const Communicator& c) {
  if (bytes == 0) return;
  ACL_SIM_REQUIRE(p, HCCL_E_PTR, what, " is NULL");
  Device* d = Runtime::get().find_device_of(p);
  ACL_SIM_REQUIRE(d, HCCL_E_PARA, what, " ", p, " is not device memory (allocate it with aclrtMalloc)");
  ACL_SIM_REQUIRE(d->id() == c.device_id(), HCCL_E_PARA, what, " ", p, " is on device ", d->id(),
                  ", but this rank runs on device ", c.device_id());
  try {
    d->pool().check_range(p, bytes);
  } catch (const Error& e) {
    fail(HCCL_E_PARA, what, " must hold ", bytes, " bytes: ", e.what());
  }
}

void check_rank(const char* what, uint32_t r, const Communicator& c) {
  ACL_SIM_REQUIRE(r < c.size(), HCCL_E_PARA, what, " ", r, " is out of range for a ", c.size(), "-rank communicator");
}

// The communicator of a collective call, marked as issuing work for the call's duration
// (Communicator::begin_issue), so that a rank leaving at aclFinalize waits for its calls in flight.
class IssuingCall {
 public:
  explicit IssuingCall(std::shared_ptr<Communicator> c) : c_(std::move(c)) { c_->begin_issue(); }
  ~IssuingCall() { c_->end_issue(); }
  IssuingCall(const IssuingCall&) = delete;
  IssuingCall& operator=(const IssuingCall&) = delete;
  Communicator* operator->() const { return c_.get(); }
  Communicator& operator*() const { return *c_; }

 private:
  std::shared_ptr<Communicator> c_;
};

// While aclFinalize runs, a collective call is refused, and the rank leaves its communicator: peers
// waiting for collectives it will never issue fail at once instead of at HCCL_EXEC_TIMEOUT.
std::shared_ptr<Communicator> comm_for(HcclComm comm, const char* fn) {
  ACL_SIM_REQUIRE(Runtime::get().initialized(), HCCL_E_RUNTIME, "acl is not initialised");
  auto c = find_comm(comm);
  if (CallGate::instance().refusing()) {
    c->leave(str("aclFinalize is running and refused its ", fn));
    fail(HCCL_E_RUNTIME, "aclFinalize is running: the call is refused (the rank leaves the communicator)");
  }
  return c;
}

}  // namespace

extern "C" {

ACL_FUNC_VISIBILITY HcclResult HcclAllReduce(void* sendBuf, void* recvBuf, uint64_t count, HcclDataType dataType,
                                             HcclReduceOp op, HcclComm comm, aclrtStream stream) {
  return hccl_call("HcclAllReduce", [&] {
    IssuingCall c(comm_for(comm, "HcclAllReduce"));
    check_reduction(dataType, op);
    const uint64_t bytes = bytes_of(count, dataType);
    check_buffer("sendBuf", sendBuf, bytes, *c);
    check_buffer("recvBuf", recvBuf, bytes, *c);
    OpDesc d;
    d.kind = OpKind::kAllReduce;
    d.count = count;
    d.dtype = dataType;
    d.op = op;
    d.send = sendBuf;
    d.recv = recvBuf;
    c->enqueue(stream, std::move(d));
  });
}

ACL_FUNC_VISIBILITY HcclResult HcclBroadcast(void* buf, uint64_t count, HcclDataType dataType, uint32_t root,
                                             HcclComm comm, aclrtStream stream) {
  return hccl_call("HcclBroadcast", [&] {
    IssuingCall c(comm_for(comm, "HcclBroadcast"));
    check_rank("root", root, *c);
    check_buffer("buf", buf, bytes_of(count, dataType), *c);
    OpDesc d;
    d.kind = OpKind::kBroadcast;
    d.count = count;
    d.dtype = dataType;
    d.root = root;
    d.send = buf;
    d.recv = buf;
    c->enqueue(stream, std::move(d));
  });
}

ACL_FUNC_VISIBILITY HcclResult HcclAllGather(void* sendBuf, void* recvBuf, uint64_t sendCount, HcclDataType dataType,
                                             HcclComm comm, aclrtStream stream) {
  return hccl_call("HcclAllGather", [&] {
    IssuingCall c(comm_for(comm, "HcclAllGather"));
    check_buffer("sendBuf", sendBuf, bytes_of(sendCount, dataType), *c);
    check_buffer("recvBuf", recvBuf, bytes_of(sendCount, dataType, c->size()), *c);
    OpDesc d;
    d.kind = OpKind::kAllGather;
    d.count = sendCount;
    d.dtype = dataType;
    d.send = sendBuf;
    d.recv = recvBuf;
    c->enqueue(stream, std::move(d));
  });
}

ACL_FUNC_VISIBILITY HcclResult HcclReduceScatter(void* sendBuf, void* recvBuf, uint64_t recvCount,
                                                 HcclDataType dataType, HcclReduceOp op, HcclComm comm,
                                                 aclrtStream stream) {
  return hccl_call("HcclReduceScatter", [&] {
    IssuingCall c(comm_for(comm, "HcclReduceScatter"));
    check_reduction(dataType, op);
    check_buffer("sendBuf", sendBuf, bytes_of(recvCount, dataType, c->size()), *c);
    check_buffer("recvBuf", recvBuf, bytes_of(recvCount, dataType), *c);
    OpDesc d;
    d.kind = OpKind::kReduceScatter;
    d.count = recvCount;
    d.dtype = dataType;
    d.op = op;
    d.send = sendBuf;
    d.recv = recvBuf;
    c->enqueue(stream, std::move(d));
  });
}

ACL_FUNC_VISIBILITY HcclResult HcclReduce(void* sendBuf, void* recvBuf, uint64_t count, HcclDataType dataType,
                                          HcclReduceOp op, uint32_t root, HcclComm comm, aclrtStream stream) {
  return hccl_call("HcclReduce", [&] {
    IssuingCall c(comm_for(comm, "HcclReduce"));
    check_reduction(dataType, op);
    check_rank("root", root, *c);
    const uint64_t bytes = bytes_of(count, dataType);
    check_buffer("sendBuf", sendBuf, bytes, *c);
    if (c->rank() == root) check_buffer("recvBuf", recvBuf, bytes, *c);  // only significant at the root
    OpDesc d;
    d.kind = OpKind::kReduce;
    d.count = count;
    d.dtype = dataType;
    d.op = op;
    d.root = root;
    d.send = sendBuf;
    d.recv = recvBuf;
    c->enqueue(stream, std::move(d));
  });
}

ACL_FUNC_VISIBILITY HcclResult HcclScatter(void* sendBuf, void* recvBuf, uint64_t recvCount, HcclDataType dataType,
                                           uint32_t root, HcclComm comm, aclrtStream stream) {
  return hccl_call("HcclScatter", [&] {
    IssuingCall c(comm_for(comm, "HcclScatter"));
    check_rank("root", root, *c);
    if (c->rank() == root) check_buffer("sendBuf", sendBuf, bytes_of(recvCount, dataType, c->size()), *c);
    check_buffer("recvBuf", recvBuf, bytes_of(recvCount, dataType), *c);
    OpDesc d;
    d.kind = OpKind::kScatter;
    d.count = recvCount;
    d.dtype = dataType;
    d.root = root;
    d.send = sendBuf;
    d.recv = recvBuf;
    c->enqueue(stream, std::move(d));
  });
}

ACL_FUNC_VISIBILITY HcclResult HcclAlltoAll(const void* sendBuf, uint64_t sendCount, HcclDataType sendType,
                                            const void* recvBuf, uint64_t recvCount, HcclDataType recvType,
                                            HcclComm comm, aclrtStream stream) {
  return hccl_call("HcclAlltoAll", [&] {
    IssuingCall c(comm_for(comm, "HcclAlltoAll"));
    dtype_size(sendType);
    dtype_size(recvType);
    ACL_SIM_REQUIRE(sendType == recvType, HCCL_E_PARA, "sendType ", dtype_name(sendType), " differs from recvType ",
                    dtype_name(recvType));
    ACL_SIM_REQUIRE(sendCount == recvCount, HCCL_E_PARA, "sendCount ", sendCount, " differs from recvCount ",
                    recvCount, " (each rank exchanges the same block size with every rank)");
    const uint32_t n = c->size();
    check_buffer("sendBuf", sendBuf, bytes_of(sendCount, sendType, n), *c);
    check_buffer("recvBuf", recvBuf, bytes_of(recvCount, recvType, n), *c);
    OpDesc d;
    d.kind = OpKind::kAllToAllV;
    d.count = sendCount;
    d.dtype = sendType;
    d.send = sendBuf;
    d.recv = const_cast<void*>(recvBuf);
    d.send_counts.assign(n, sendCount);
    d.recv_counts.assign(n, recvCount);
    for (uint32_t j = 0; j < n; ++j) {
      d.send_displs.push_back(j * sendCount);
      d.recv_displs.push_back(j * recvCount);
    }
    c->enqueue(stream, std::move(d));
  });
}

ACL_FUNC_VISIBILITY HcclResult HcclAlltoAllV(const void* sendBuf, const void* sendCounts, const void* sdispls,
                                             HcclDataType sendType, const void* recvBuf, const void* recvCounts,
                                             const void* rdispls, HcclDataType recvType, HcclComm comm,
                                             aclrtStream stream) {
  return hccl_call("HcclAlltoAllV", [&] {
    IssuingCall c(comm_for(comm, "HcclAlltoAllV"));
    ACL_SIM_REQUIRE(sendCounts && sdispls && recvCounts && rdispls, HCCL_E_PTR,
                    "sendCounts, sdispls, recvCounts and rdispls must not be NULL");
    dtype_size(sendType);
    dtype_size(recvType);
    ACL_SIM_REQUIRE(sendType == recvType, HCCL_E_PARA, "sendType ", dtype_name(sendType), " differs from recvType ",
                    dtype_name(recvType));
    const uint32_t n = c->size();
    OpDesc d;
    d.kind = OpKind::kAllToAllV;
    d.dtype = sendType;
    d.send = sendBuf;
    d.recv = const_cast<void*>(recvBuf);
    const auto* sc = static_cast<const uint64_t*>(sendCounts);
    const auto* sd = static_cast<const uint64_t*>(sdispls);
    const auto* rc = static_cast<const uint64_t*>(recvCounts);
    const auto* rd = static_cast<const uint64_t*>(rdispls);
    d.send_counts.assign(sc, sc + n);
    d.send_displs.assign(sd, sd + n);
    d.recv_counts.assign(rc, rc + n);
    d.recv_displs.assign(rd, rd + n);
    uint64_t send_end = 0, recv_end = 0;
    for (uint32_t j = 0; j < n; ++j) {
      ACL_SIM_REQUIRE(sd[j] <= (uint64_t(1) << 56) && sc[j] <= (uint64_t(1) << 56) && rd[j] <= (uint64_t(1) << 56) &&
                          rc[j] <= (uint64_t(1) << 56),
                      HCCL_E_PARA, "count or displacement for rank ", j, " is out of range");
      if (sc[j]) send_end = std::max(send_end, sd[j] + sc[j]);
      if (rc[j]) recv_end = std::max(recv_end, rd[j] + rc[j]);
    }
    check_buffer("sendBuf", sendBuf, bytes_of(send_end, sendType), *c);
    check_buffer("recvBuf", recvBuf, bytes_of(recv_end, recvType), *c);
    c->enqueue(stream, std::move(d));
  });
}

ACL_FUNC_VISIBILITY HcclResult HcclSend(void* sendBuf, uint64_t count, HcclDataType dataType, uint32_t destRank,
                                        HcclComm comm, aclrtStream stream) {
  return hccl_call("HcclSend", [&] {
    IssuingCall c(comm_for(comm, "HcclSend"));
    check_rank("destRank", destRank, *c);
    ACL_SIM_REQUIRE(destRank != c->rank(), HCCL_E_PARA, "destRank ", destRank, " is the caller's own rank");
    check_buffer("sendBuf", sendBuf, bytes_of(count, dataType), *c);
    OpDesc d;
    d.kind = OpKind::kSend;
    d.count = count;
    d.dtype = dataType;
    d.root = destRank;
    d.send = sendBuf;
    c->enqueue(stream, std::move(d));
  });
}

ACL_FUNC_VISIBILITY HcclResult HcclRecv(void* recvBuf, uint64_t count, HcclDataType dataType, uint32_t srcRank,
                                        HcclComm comm, aclrtStream stream) {
  return hccl_call("HcclRecv", [&] {
    IssuingCall c(comm_for(comm, "HcclRecv"));
    check_rank("srcRank", srcRank, *c);
    ACL_SIM_REQUIRE(srcRank != c->rank(), HCCL_E_PARA, "srcRank ", srcRank, " is the caller's own rank");
    check_buffer("recvBuf", recvBuf, bytes_of(count, dataType), *c);
    OpDesc d;
    d.kind = OpKind::kRecv;
    d.count = count;
    d.dtype = dataType;
    d.root = srcRank;
    d.recv = recvBuf;
    c->enqueue(stream, std::move(d));
  });
}

ACL_FUNC_VISIBILITY HcclResult HcclBarrier(HcclComm comm, aclrtStream stream) {
  return hccl_call("HcclBarrier", [&] {
    IssuingCall c(comm_for(comm, "HcclBarrier"));
    OpDesc d;
    d.kind = OpKind::kBarrier;
    c->enqueue(stream, std::move(d));
  });
}

}  // extern "C"
