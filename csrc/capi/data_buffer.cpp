// Data buffers, aclDataTypeSize and the fp16 conversions (acl_base.h); the
// last two are the core's dtype table and conversions (common/dtype.h, fp16.h).
#include "capi/api_guard.h"
#include "capi/data_buffer_view.h"
#include "common/dtype.h"
#include "common/fp16.h"
#include "common/handle_table.h"

using namespace acl_sim;
using namespace acl_sim::capi;

namespace acl_sim::capi {
namespace {
HandleTable<aclDataBuffer>& buffers() {
  static auto* table = new HandleTable<aclDataBuffer>();  // never destroyed: buffers may outlive statics
  return *table;
}

std::shared_ptr<aclDataBuffer> require_buffer(const aclDataBuffer* b, const char* what) {
  if (!b) fail(ACL_ERROR_INVALID_PARAM, what, " is NULL");
  auto p = buffers().find(b);
  if (!p) fail(ACL_ERROR_INVALID_PARAM, what, " ", static_cast<const void*>(b), " is not a live data buffer (never created or already destroyed)");
  return p;
}
}  // namespace

BufferView view_data_buffer(const aclDataBuffer* buffer, const char* what) {
  auto b = require_buffer(buffer, what);
  std::lock_guard<std::mutex> lock(b->mu);
  return BufferView{b->data, b->size};
}

void update_data_buffer(const aclDataBuffer* buffer, void* addr, size_t size, const char* what) {
  auto b = require_buffer(buffer, what);
  std::lock_guard<std::mutex> lock(b->mu);
  b->data = addr;
  b->size = size;
}

}  // namespace acl_sim::capi

extern "C" {

ACL_FUNC_VISIBILITY aclDataBuffer* aclCreateDataBuffer(void* data, size_t size) {
  return api_value<aclDataBuffer*>("aclCreateDataBuffer", nullptr, [&] {
    // (NULL, 0) is allowed: model outputs created that way are allocated by aclmdlExecute.
    auto b = std::make_shared<aclDataBuffer>();
    b->data = data;
    b->size = size;
    return buffers().add(std::move(b));
  });
}

ACL_FUNC_VISIBILITY aclError aclDestroyDataBuffer(const aclDataBuffer* dataBuffer) {
  return api_call("aclDestroyDataBuffer", [&] {
    if (!dataBuffer) fail(ACL_ERROR_INVALID_PARAM, "dataBuffer is NULL");
    if (!buffers().remove(dataBuffer))
      fail(ACL_ERROR_INVALID_PARAM, "dataBuffer ", static_cast<const void*>(dataBuffer),
           " is not a live data buffer (never created or already destroyed)");
  });
}

ACL_FUNC_VISIBILITY aclError aclUpdateDataBuffer(aclDataBuffer* dataBuffer, void* data, size_t size) {
  return api_call("aclUpdateDataBuffer", [&] { update_data_buffer(dataBuffer, data, size, "dataBuffer"); });
}

ACL_FUNC_VISIBILITY void* aclGetDataBufferAddr(const aclDataBuffer* dataBuffer) {
  return api_value<void*>("aclGetDataBufferAddr", nullptr, [&] { return view_data_buffer(dataBuffer, "dataBuffer").addr; });
}

ACL_FUNC_VISIBILITY uint32_t aclGetDataBufferSize(const aclDataBuffer* dataBuffer) {
  return api_value<uint32_t>("aclGetDataBufferSize", 0u,
                             [&] { return static_cast<uint32_t>(view_data_buffer(dataBuffer, "dataBuffer").size); });
}

ACL_FUNC_VISIBILITY size_t aclGetDataBufferSizeV2(const aclDataBuffer* dataBuffer) {
  return api_value<size_t>("aclGetDataBufferSizeV2", 0, [&] { return view_data_buffer(dataBuffer, "dataBuffer").size; });
}

ACL_FUNC_VISIBILITY size_t aclDataTypeSize(aclDataType dataType) { return dtype_size(dataType); }

ACL_FUNC_VISIBILITY aclFloat16 aclFloatToFloat16(float value) { return float_to_half(value); }

ACL_FUNC_VISIBILITY float aclFloat16ToFloat(aclFloat16 value) { return half_to_float(value); }

}  // extern "C"
