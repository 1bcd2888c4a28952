// The in-process rendezvous store (gloo's HashStore role): ranks that call
// HcclCommInitRootInfo / HcclCommInitClusterInfo with the same key meet here
// and share one LocalGroup. Joining is bounded by HCCL_CONNECT_TIMEOUT.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "hccl/local_group.h"

namespace acl_sim::hccl {

/** Join as rank @p rank of the @p n-rank group named @p key; returns once all n ranks joined.
 *  Throws HCCL_E_PARA (rank out of range, rank taken twice, n disagreeing with earlier joiners) or
 *  HCCL_E_TIMEOUT (listing the missing ranks) at @p deadline. Thread-safe. */
std::shared_ptr<LocalGroup> rendezvous_local(const std::string& key, uint32_t n, uint32_t rank,
                                             const Deadline& deadline);

}  // namespace acl_sim::hccl
