#include "hccl/comm.h"

#include "common/error.h"
#include "common/error_codes.h"
#include "common/fault_injection.h"
#include "common/log.h"
#include "hccl/algorithms/collective.h"
#include "hccl/local_arrival.h"
#include "hccl/transport_send_recv.h"
#include "runtime/device.h"
#include "runtime/runtime.h"
#include "runtime/stream.h"
#include "runtime/stream_scheduler.h"

namespace acl_sim::hccl {
namespace {

// A failed collective leaves stream_code_of_hccl(code) in its stream; the HcclResult itself is
// available from HcclGetCommAsyncError and, by name, in the message.
const char* result_name(int code) {
  const char* name = error_code_name(code);
  return name ? name : "HCCL_E_INTERNAL";
}

}  // namespace

Communicator::Communicator(uint32_t rank, uint32_t size, int32_t device_id)
    : rank_(rank), size_(size), device_id_(device_id), exec_timeout_s_(exec_timeout_seconds()) {}

std::string Communicator::async_message() const {
  std::lock_guard<std::mutex> lock(mu_);
  return async_message_;
}

void Communicator::record_failure(int code, const std::string& message) {
  std::lock_guard<std::mutex> lock(mu_);
  int expected = HCCL_SUCCESS;
  if (async_error_.compare_exchange_strong(expected, code)) async_message_ = message;
  if (code == HCCL_E_TIMEOUT || code == HCCL_E_REMOTE) broken_.store(true);
}

void Communicator::throw_if_broken() const {
  if (broken_.load()) fail(async_error(), "communicator is unusable after an earlier failure: ", async_message());
}

void Communicator::begin_issue() { issuing_.fetch_add(1, std::memory_order_seq_cst); }

void Communicator::end_issue() {
  if (issuing_.fetch_sub(1, std::memory_order_seq_cst) == 1) notify_left_if_idle();
}

void Communicator::leave(const std::string& why) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (left_why_.empty()) left_why_ = why;
  }
  left_.store(true, std::memory_order_seq_cst);
  notify_left_if_idle();
}

void Communicator::notify_left_if_idle() {
  // A call that passed aclFinalize's gate before it closed may still queue work: wait for it.
  if (!left_.load(std::memory_order_seq_cst) || issuing_.load(std::memory_order_seq_cst) > 0) return;
  if (left_notified_.exchange(true)) return;
  std::string why;
  {
    std::lock_guard<std::mutex> lock(mu_);
    why = left_why_;
  }
  on_left(why);
}

void Communicator::enqueue(aclrtStream stream, OpDesc desc) {
  throw_if_broken();
  std::shared_ptr<Stream> s;
  try {
    s = resolve_stream(stream);
  } catch (const Error& e) {
    fail(HCCL_E_PARA, "invalid stream: ", e.what());
  }
  ACL_SIM_REQUIRE(s->device().id() == device_id_, HCCL_E_PARA, "the stream belongs to device ", s->device().id(),
                  ", but this rank's communicator is on device ", device_id_);
  if (fault::hccl_rank_absent(rank_)) return;  // hardening tests: this rank never arrives
  enqueue_on(s, std::move(desc));
}

void Communicator::enqueue_on(const std::shared_ptr<Stream>& s, OpDesc desc) {
  const bool collective = desc.kind != OpKind::kSend && desc.kind != OpKind::kRecv;
  const bool captured = collective && s->capture() != nullptr;
  std::shared_ptr<Communicator> self = shared_from_this();
  s->enqueue("hccl_collective", [self, desc = std::move(desc)] {
    try {
      self->execute(desc);
    } catch (const Error& e) {
      throw Error(stream_code_of_hccl(e.code()), str(result_name(e.code()), " (", e.code(), "): ", e.what()));
    }
  });
  if (collective) count_issued(captured);
}

Error Communicator::collective_failed(OpKind kind, int code, const std::string& why) {
  const std::string msg = str(kind_name(kind), " on rank ", rank_, ": ", why);
  record_failure(code, msg);
  ACL_SIM_LOG_ERROR("HCCL", msg);
  return Error(stream_code_of_hccl(code), str(result_name(code), " (", code, "): ", msg));
}

void Communicator::execute(const OpDesc& desc) {
  BlockingRegion blocking;  // lets the stream scheduler start drainers for the peers' streams
  try {
    throw_if_broken();
    run(desc, Deadline::after(exec_timeout_s_));
  } catch (const Error& e) {
    const std::string msg = str(kind_name(desc.kind), " on rank ", rank_, ": ", e.what());
    record_failure(e.code(), msg);
    ACL_SIM_LOG_ERROR("HCCL", msg);
    throw Error(e.code(), msg);
  } catch (const std::exception& e) {
    record_failure(HCCL_E_INTERNAL, e.what());
    throw Error(HCCL_E_INTERNAL, e.what());
  }
}

LocalCommunicator::LocalCommunicator(std::shared_ptr<LocalGroup> group, uint32_t rank, int32_t device_id)
    : Communicator(rank, group->size(), device_id), group_(std::move(group)) {}

void LocalCommunicator::enqueue_on(const std::shared_ptr<Stream>& s, OpDesc desc) {
  if (desc.kind == OpKind::kSend || desc.kind == OpKind::kRecv) return Communicator::enqueue_on(s, std::move(desc));
  auto self = std::static_pointer_cast<LocalCommunicator>(shared_from_this());
  count_issued(s->enqueue_wait(std::make_shared<LocalArrival>(std::move(self), std::move(desc))));
}

void LocalCommunicator::on_left(const std::string& why) {
  if (replayable()) return;  // a replayed graph may still bring arrivals: peers time out instead
  group_->rank_left(rank(), issued(), why);
}

void LocalCommunicator::run(const OpDesc& desc, const Deadline& deadline) {
  if (desc.kind == OpKind::kSend)
    return group_->send(rank(), desc.root, desc.send, desc.count, desc.dtype, deadline);
  if (desc.kind == OpKind::kRecv)
    return group_->recv(desc.root, rank(), desc.recv, desc.count, desc.dtype, deadline);
  fail(HCCL_E_INTERNAL, kind_name(desc.kind), " runs through LocalGroup::arrive, not as a task");
}

TransportCommunicator::TransportCommunicator(std::unique_ptr<PeerTransport> transport, int32_t device_id)
    : Communicator(transport->rank(), transport->size(), device_id),
      transport_(std::move(transport)),
      send_seq_(size(), 0),
      recv_seq_(size(), 0) {}

void TransportCommunicator::run(const OpDesc& desc, const Deadline& deadline) {
  std::lock_guard<std::mutex> lock(mu_);
  const bool p2p = desc.kind == OpKind::kSend || desc.kind == OpKind::kRecv;
  transport_->set_collective(p2p ? PeerTransport::kNoCollective : seq_);
  if (desc.kind == OpKind::kSend) return transport_send(*transport_, send_seq_[desc.root]++, desc, deadline);
  if (desc.kind == OpKind::kRecv) return transport_recv(*transport_, recv_seq_[desc.root]++, desc, deadline);
  CollectiveRun run;
  run.local = {&desc};
  run.nranks = size();
  run.peers = transport_.get();
  run.tag = collective_tag(seq_++);
  run.deadline = deadline;
  run_collective(run);
}

void TransportCommunicator::on_left(const std::string& why) {
  if (!replayable()) transport_->announce_leaving(issued());
}

HandleTable<Communicator>& comm_table() {
  static HandleTable<Communicator> table;
  return table;
}

std::shared_ptr<Communicator> find_comm(const void* handle) {
  ACL_SIM_REQUIRE(handle, HCCL_E_PTR, "comm is NULL");
  auto c = comm_table().find(handle);
  ACL_SIM_REQUIRE(c, HCCL_E_PARA, "comm ", handle, " is not a live communicator (destroyed or never created)");
  return c;
}

void* add_comm(std::shared_ptr<Communicator> c) {
  static std::once_flag hook;
  std::call_once(hook, [] {
    Runtime::get().on_finalize("hccl", [] {
      for (auto& c : comm_table().clear()) c->leave("its process called aclFinalize");
    });
  });
  return comm_table().add(std::move(c));
}

}  // namespace acl_sim::hccl
