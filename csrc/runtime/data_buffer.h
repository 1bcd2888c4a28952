// aclDataBuffer: a (device or host) address and byte size. The buffer does
// not own the memory. Handles are validated against a live table.
#pragma once

#include "runtime/export.h"

#include <acl/acl_base.h>

#include <cstddef>

struct aclDataBuffer {
  void* data;
  size_t size;
};

namespace acl_sim {

/** True when @p b was created by aclCreateDataBuffer and not yet destroyed. Thread-safe. */
ACL_SIM_RT_API bool is_live_data_buffer(const aclDataBuffer* b);

}  // namespace acl_sim
