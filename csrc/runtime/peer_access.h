// Peer access between simulated devices (aclrtDeviceEnablePeerAccess): every device's memory is
// host memory, so any two devices can reach each other; the state is kept so that enable,
// disable and query behave as on a CANN box. Cleared at aclFinalize.
#pragma once

#include "runtime/export.h"

#include <cstdint>
#include <mutex>
#include <set>
#include <utility>

namespace acl_sim {

class ACL_SIM_RT_API PeerAccess {
 public:
  static PeerAccess& instance();
  /** Idempotent. */
  void enable(int32_t device, int32_t peer);
  /** Throws 107000 when access from @p device to @p peer was not enabled. */
  void disable(int32_t device, int32_t peer);
  bool enabled(int32_t device, int32_t peer) const;

 private:
  PeerAccess();
  mutable std::mutex mu_;
  std::set<std::pair<int32_t, int32_t>> enabled_;
};

}  // namespace acl_sim
