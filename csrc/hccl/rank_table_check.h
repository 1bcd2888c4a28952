// Rank-table validation without a runtime or a rendezvous: the same parser
// HcclCommInitClusterInfo uses (capi/hccl_comm_api.cpp), for the fuzzer and tools.
#pragma once

#include <cstdint>
#include <string>

#include "common/export.h"

namespace acl_sim::hccl {

// Reads and validates the rank table at `path` for `rank`. Returns HCCL_SUCCESS,
// HCCL_E_OPEN_FILE_FAILURE or HCCL_E_PARA; *message gets the cause on failure.
ACL_SIM_EXPORT int check_rank_table_file(const char* path, uint32_t rank, std::string* message);

}  // namespace acl_sim::hccl
