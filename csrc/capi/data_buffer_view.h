// Read-only access to aclDataBuffer handles for aclmdl / aclop. The buffer
// type belongs to the runtime (capi/data_buffer.cpp); this goes through its
// public C functions so the two stay decoupled.
#pragma once

#include <cstddef>

#include "acl/acl_base.h"

namespace acl_sim::capi {

struct BufferView {
  void* addr = nullptr;
  size_t size = 0;
};

/** Address and size of @p buffer; throws ACL_ERROR_INVALID_PARAM naming @p what for NULL or dead handles. */
BufferView view_data_buffer(const aclDataBuffer* buffer, const char* what);

}  // namespace acl_sim::capi
