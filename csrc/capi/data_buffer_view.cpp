#include "capi/data_buffer_view.h"

#include "capi/api_guard.h"
#include "common/error.h"

namespace acl_sim::capi {

BufferView view_data_buffer(const aclDataBuffer* buffer, const char* what) {
  ACL_SIM_REQUIRE(buffer != nullptr, ACL_ERROR_INVALID_PARAM, what, " is NULL");
  BufferView v;
  v.addr = aclGetDataBufferAddr(buffer);
  v.size = aclGetDataBufferSizeV2(buffer);
  return v;
}

}  // namespace acl_sim::capi
