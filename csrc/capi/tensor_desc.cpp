// aclCreateTensorDesc and its getters (declared in acl_base.h).
#include "op/tensor_desc.h"

#include <cstring>

#include "capi/api_guard.h"
#include "common/error.h"

namespace acl_sim {

HandleTable<aclTensorDesc>& tensor_descs() {
  static HandleTable<aclTensorDesc> table;
  return table;
}

std::shared_ptr<aclTensorDesc> require_tensor_desc(const void* handle, const char* what) {
  ACL_SIM_REQUIRE(handle != nullptr, ACL_ERROR_INVALID_PARAM, what, " is NULL");
  auto desc = tensor_descs().find(handle);
  ACL_SIM_REQUIRE(desc != nullptr, ACL_ERROR_INVALID_PARAM, what,
                  " is not a live aclTensorDesc (never created or already destroyed)");
  return desc;
}

int64_t element_count(const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims) {
    if (d < 0) return 0;
    n *= d;
  }
  return n;
}

std::string dims_to_string(const std::vector<int64_t>& dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) s += (i ? "," : "") + std::to_string(dims[i]);
  return s + "]";
}

}  // namespace acl_sim

using acl_sim::capi::api_call;
using acl_sim::capi::api_value;

namespace {

constexpr int kMaxDims = 128;

bool known_dtype(int dt) { return dt != ACL_DT_UNDEFINED && acl_sim::find_dtype(dt) != nullptr; }

}  // namespace

extern "C" {

aclTensorDesc* aclCreateTensorDesc(aclDataType dataType, int numDims, const int64_t* dims, aclFormat format) {
  return api_value<aclTensorDesc*>("aclCreateTensorDesc", nullptr, [&] {
    ACL_SIM_REQUIRE(known_dtype(dataType), ACL_ERROR_INVALID_PARAM, "unknown dataType ", static_cast<int>(dataType));
    ACL_SIM_REQUIRE(numDims >= 0 && numDims <= kMaxDims, ACL_ERROR_INVALID_PARAM, "numDims ", numDims,
                    " is outside [0, ", kMaxDims, "]");
    ACL_SIM_REQUIRE(numDims == 0 || dims != nullptr, ACL_ERROR_INVALID_PARAM, "dims is NULL with numDims ", numDims);
    auto desc = std::make_shared<aclTensorDesc>();
    desc->dtype = dataType;
    desc->format = format;
    desc->dims.assign(dims, dims + numDims);
    for (int64_t d : desc->dims)
      ACL_SIM_REQUIRE(d >= -2, ACL_ERROR_INVALID_PARAM, "dim ", d, " is invalid (use -1 for a dynamic dim)");
    return acl_sim::tensor_descs().add(std::move(desc));
  });
}

void aclDestroyTensorDesc(const aclTensorDesc* desc) {
  api_call("aclDestroyTensorDesc", [&] {
    if (desc == nullptr) return;  // CANN: destroying NULL is a no-op
    ACL_SIM_REQUIRE(acl_sim::tensor_descs().remove(desc) != nullptr, ACL_ERROR_INVALID_PARAM,
                    "desc is not a live aclTensorDesc (double destroy?)");
  });
}

aclDataType aclGetTensorDescType(const aclTensorDesc* desc) {
  return api_value<aclDataType>("aclGetTensorDescType", ACL_DT_UNDEFINED,
                                [&] { return acl_sim::require_tensor_desc(desc, "desc")->dtype; });
}

aclFormat aclGetTensorDescFormat(const aclTensorDesc* desc) {
  return api_value<aclFormat>("aclGetTensorDescFormat", ACL_FORMAT_UNDEFINED,
                              [&] { return acl_sim::require_tensor_desc(desc, "desc")->format; });
}

size_t aclGetTensorDescSize(const aclTensorDesc* desc) {
  return api_value<size_t>("aclGetTensorDescSize", 0, [&] {
    auto d = acl_sim::require_tensor_desc(desc, "desc");
    return static_cast<size_t>(acl_sim::element_count(d->dims)) * acl_sim::dtype_size(d->dtype);
  });
}

size_t aclGetTensorDescElementCount(const aclTensorDesc* desc) {
  return api_value<size_t>("aclGetTensorDescElementCount", 0, [&] {
    return static_cast<size_t>(acl_sim::element_count(acl_sim::require_tensor_desc(desc, "desc")->dims));
  });
}

size_t aclGetTensorDescNumDims(const aclTensorDesc* desc) {
  return api_value<size_t>("aclGetTensorDescNumDims", 0, [&] {
    auto d = acl_sim::require_tensor_desc(desc, "desc");
    if (d->dims.size() == 1 && d->dims[0] == -2) return static_cast<size_t>(ACL_UNKNOWN_RANK);
    return d->dims.size();
  });
}

int64_t aclGetTensorDescDim(const aclTensorDesc* desc, size_t index) {
  return api_value<int64_t>("aclGetTensorDescDim", -1, [&] {
    auto d = acl_sim::require_tensor_desc(desc, "desc");
    ACL_SIM_REQUIRE(index < d->dims.size(), ACL_ERROR_INVALID_PARAM, "index ", index, " >= numDims ",
                    d->dims.size());
    return d->dims[index];
  });
}

aclError aclGetTensorDescDimV2(const aclTensorDesc* desc, size_t index, int64_t* dimSize) {
  return api_call("aclGetTensorDescDimV2", [&] {
    auto d = acl_sim::require_tensor_desc(desc, "desc");
    ACL_SIM_REQUIRE(dimSize != nullptr, ACL_ERROR_INVALID_PARAM, "dimSize is NULL");
    ACL_SIM_REQUIRE(index < d->dims.size(), ACL_ERROR_INVALID_PARAM, "index ", index, " >= numDims ",
                    d->dims.size());
    *dimSize = d->dims[index];
  });
}

void aclSetTensorDescName(aclTensorDesc* desc, const char* name) {
  api_call("aclSetTensorDescName", [&] {
    auto d = acl_sim::require_tensor_desc(desc, "desc");
    d->name = name ? name : "";
  });
}

const char* aclGetTensorDescName(aclTensorDesc* desc) {
  return api_value<const char*>("aclGetTensorDescName", nullptr,
                                [&] { return acl_sim::require_tensor_desc(desc, "desc")->name.c_str(); });
}

}  // extern "C"
