// Data buffers, aclDataTypeSize and the fp16 conversions (acl_base.h).
#include <cmath>
#include <cstring>

#include "capi/api_guard.h"
#include "capi/data_buffer_view.h"
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

ACL_FUNC_VISIBILITY size_t aclDataTypeSize(aclDataType dataType) {
  switch (dataType) {
    case ACL_BOOL: case ACL_INT8: case ACL_UINT8: case ACL_HIFLOAT8: case ACL_FLOAT8_E5M2:
    case ACL_FLOAT8_E4M3FN: case ACL_FLOAT8_E8M0:
      return 1;
    case ACL_FLOAT16: case ACL_BF16: case ACL_INT16: case ACL_UINT16:
      return 2;
    case ACL_FLOAT: case ACL_INT32: case ACL_UINT32: case ACL_COMPLEX32:
      return 4;
    case ACL_INT64: case ACL_UINT64: case ACL_DOUBLE: case ACL_COMPLEX64:
      return 8;
    case ACL_COMPLEX128:
      return 16;
    default:  // ACL_STRING, sub-byte types (INT4, UINT1, FLOAT6/4), undefined
      return 0;
  }
}

/** IEEE binary16 from binary32, round to nearest even (as aclFloatToFloat16). */
ACL_FUNC_VISIBILITY aclFloat16 aclFloatToFloat16(float value) {
  uint32_t f;
  std::memcpy(&f, &value, 4);
  uint32_t sign = (f >> 16) & 0x8000u;
  uint32_t abs = f & 0x7FFFFFFFu;
  if (abs >= 0x7F800000u) return static_cast<aclFloat16>(sign | (abs > 0x7F800000u ? 0x7E00u : 0x7C00u));
  if (abs >= 0x477FF000u) return static_cast<aclFloat16>(sign | 0x7C00u);  // rounds to >= 65520: overflow
  if (abs < 0x38800000u) {                                                  // result is subnormal or zero
    if (abs < 0x33000000u) return static_cast<aclFloat16>(sign);            // < 2^-25: rounds to 0
    uint32_t mant = (abs & 0x007FFFFFu) | 0x00800000u;
    int shift = 126 - static_cast<int>(abs >> 23);  // value / 2^-24 == mant >> shift
    // Round to nearest even at bit `shift`.
    uint32_t q = mant >> shift;
    uint32_t rem = mant & ((1u << shift) - 1);
    uint32_t mid = 1u << (shift - 1);
    if (rem > mid || (rem == mid && (q & 1u))) ++q;
    return static_cast<aclFloat16>(sign | q);
  }
  uint32_t h = ((abs - 0x38000000u) >> 13);  // rebias exponent 127 -> 15
  uint32_t rem = abs & 0x1FFFu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) ++h;
  return static_cast<aclFloat16>(sign | h);
}

ACL_FUNC_VISIBILITY float aclFloat16ToFloat(aclFloat16 value) {
  uint32_t sign = (static_cast<uint32_t>(value) & 0x8000u) << 16;
  uint32_t exp = (value >> 10) & 0x1Fu;
  uint32_t mant = value & 0x3FFu;
  uint32_t f;
  if (exp == 0) {
    if (mant == 0) {
      f = sign;
    } else {  // subnormal: normalise
      int e = -1;
      do {
        ++e;
        mant <<= 1;
      } while (!(mant & 0x400u));
      f = sign | (static_cast<uint32_t>(127 - 15 - e) << 23) | ((mant & 0x3FFu) << 13);
    }
  } else if (exp == 31) {
    f = sign | 0x7F800000u | (mant << 13);
  } else {
    f = sign | ((exp + 112u) << 23) | (mant << 13);
  }
  float out;
  std::memcpy(&out, &f, 4);
  return out;
}

}  // extern "C"
