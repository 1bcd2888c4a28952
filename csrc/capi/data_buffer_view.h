// aclDataBuffer: a (device or host) address and byte size, as created by
// aclCreateDataBuffer. The buffer does not own the memory. aclmdl and aclop
// read buffers through view_data_buffer, which resolves the handle in the
// live table (capi/data_buffer.cpp).
#pragma once

#include <cstddef>
#include <mutex>

#include "acl/acl_base.h"

struct aclDataBuffer {
  mutable std::mutex mu;  // aclUpdateDataBuffer may race with executes reading the buffer
  void* data = nullptr;
  size_t size = 0;
};

namespace acl_sim::capi {

struct BufferView {
  void* addr = nullptr;
  size_t size = 0;
};

/** Address and size of @p buffer; throws ACL_ERROR_INVALID_PARAM naming @p what for NULL or dead handles. */
BufferView view_data_buffer(const aclDataBuffer* buffer, const char* what);
/** Point @p buffer at [addr, addr+size) (aclUpdateDataBuffer); the same errors as view_data_buffer. */
void update_data_buffer(const aclDataBuffer* buffer, void* addr, size_t size, const char* what);

}  // namespace acl_sim::capi
