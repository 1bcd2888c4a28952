#include "runtime/peer_access.h"

#include "acl/acl_rt.h"
#include "common/error.h"
#include "runtime/runtime.h"

namespace acl_sim {

PeerAccess::PeerAccess() {
  Runtime::get().on_finalize("peer access", [this] {
    std::lock_guard<std::mutex> lock(mu_);
    enabled_.clear();
  });
}

PeerAccess& PeerAccess::instance() {
  static PeerAccess* p = new PeerAccess();  // never destroyed: finalize hooks may run at exit
  return *p;
}

void PeerAccess::enable(int32_t device, int32_t peer) {
  std::lock_guard<std::mutex> lock(mu_);
  enabled_.insert({device, peer});
}

void PeerAccess::disable(int32_t device, int32_t peer) {
  std::lock_guard<std::mutex> lock(mu_);
  ACL_SIM_REQUIRE(enabled_.erase({device, peer}) == 1, ACL_ERROR_RT_PARAM_INVALID, "peer access from device ", device,
                  " to device ", peer, " is not enabled");
}

bool PeerAccess::enabled(int32_t device, int32_t peer) const {
  std::lock_guard<std::mutex> lock(mu_);
  return enabled_.count({device, peer}) != 0;
}

}  // namespace acl_sim
