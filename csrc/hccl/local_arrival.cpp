#include "hccl/local_arrival.h"

#include "hccl/local_group.h"

namespace acl_sim::hccl {

LocalArrival::LocalArrival(std::shared_ptr<LocalCommunicator> comm, OpDesc desc)
    : comm_(std::move(comm)), desc_(std::move(desc)) {}

bool LocalArrival::ready_or_subscribe(const std::shared_ptr<Stream>& s) {
  if (parked_.exchange(false, std::memory_order_acq_rel)) return true;  // resumed: the collective is over
  failure_.reset();
  return comm_->group().arrive(comm_->next_seq(), shared_from_this(), s, comm_->exec_timeout_s());
}

void LocalArrival::finish(int code, const std::string& why) {
  if (code != 0) failure_ = comm_->collective_failed(desc_.kind, code, why);
}

}  // namespace acl_sim::hccl
