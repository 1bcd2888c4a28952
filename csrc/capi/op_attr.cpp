// aclopCreateAttr / aclopDestroyAttr / aclopSetAttr*.
#include "op/op_attr.h"

#include <cstring>
#include <memory>

#include "acl/acl_op.h"
#include "capi/api_guard.h"
#include "capi/desc_handles.h"
#include "common/error.h"

namespace acl_sim {

HandleTable<aclopAttr>& op_attrs() {
  static HandleTable<aclopAttr> table;
  return table;
}

aclopAttr resolve_op_attr(const void* handle) {
  if (handle == nullptr) return aclopAttr{};
  auto attr = op_attrs().find(handle);
  ACL_SIM_REQUIRE(attr != nullptr, ACL_ERROR_INVALID_PARAM, "attr is not a live aclopAttr (destroyed?)");
  return *attr;  // a copy: the caller may reuse or destroy the attr after an async call
}

}  // namespace acl_sim

using acl_sim::OpAttrValue;
using acl_sim::capi::api_call;

namespace {

// Sets one value; validates the handle and name first.
template <class Fill>
aclError set_attr(const char* fn, aclopAttr* attr, const char* name, Fill&& fill) {
  return api_call(fn, [&] {
    ACL_SIM_REQUIRE(attr != nullptr, ACL_ERROR_INVALID_PARAM, "attr is NULL");
    auto live = acl_sim::op_attrs().find(attr);
    ACL_SIM_REQUIRE(live != nullptr, ACL_ERROR_INVALID_PARAM, "attr is not a live aclopAttr");
    ACL_SIM_REQUIRE(name != nullptr && name[0] != '\0', ACL_ERROR_INVALID_PARAM, "attrName is NULL or empty");
    OpAttrValue v;
    fill(v);
    live->values[name] = std::move(v);
  });
}

void require_list(int n, const void* values) {
  ACL_SIM_REQUIRE(n >= 0, ACL_ERROR_INVALID_PARAM, "numValues ", n, " is negative");
  ACL_SIM_REQUIRE(n == 0 || values != nullptr, ACL_ERROR_INVALID_PARAM, "values is NULL with numValues ", n);
}

}  // namespace

extern "C" {

aclopAttr* aclopCreateAttr(void) {
  return acl_sim::capi::api_value<aclopAttr*>("aclopCreateAttr", nullptr,
                                              [] { return acl_sim::op_attrs().add(std::make_shared<aclopAttr>()); });
}

void aclopDestroyAttr(const aclopAttr* attr) {
  api_call("aclopDestroyAttr", [&] {
    if (attr == nullptr) return;
    ACL_SIM_REQUIRE(acl_sim::op_attrs().remove(attr) != nullptr, ACL_ERROR_INVALID_PARAM,
                    "attr is not a live aclopAttr (double destroy?)");
  });
}

aclError aclopSetAttrBool(aclopAttr* attr, const char* attrName, uint8_t attrValue) {
  return set_attr("aclopSetAttrBool", attr, attrName, [&](OpAttrValue& v) {
    v.kind = OpAttrValue::kBool;
    v.i = attrValue ? 1 : 0;
  });
}

aclError aclopSetAttrInt(aclopAttr* attr, const char* attrName, int64_t attrValue) {
  return set_attr("aclopSetAttrInt", attr, attrName, [&](OpAttrValue& v) {
    v.kind = OpAttrValue::kInt;
    v.i = attrValue;
  });
}

aclError aclopSetAttrFloat(aclopAttr* attr, const char* attrName, float attrValue) {
  return set_attr("aclopSetAttrFloat", attr, attrName, [&](OpAttrValue& v) {
    v.kind = OpAttrValue::kFloat;
    v.f = attrValue;
  });
}

aclError aclopSetAttrString(aclopAttr* attr, const char* attrName, const char* attrValue) {
  return set_attr("aclopSetAttrString", attr, attrName, [&](OpAttrValue& v) {
    ACL_SIM_REQUIRE(attrValue != nullptr, ACL_ERROR_INVALID_PARAM, "attrValue is NULL");
    v.kind = OpAttrValue::kString;
    v.s = attrValue;
  });
}

aclError aclopSetAttrDataType(aclopAttr* attr, const char* attrName, aclDataType attrValue) {
  return set_attr("aclopSetAttrDataType", attr, attrName, [&](OpAttrValue& v) {
    v.kind = OpAttrValue::kDataType;
    v.i = attrValue;
  });
}

aclError aclopSetAttrListBool(aclopAttr* attr, const char* attrName, int numValues, const uint8_t* values) {
  return set_attr("aclopSetAttrListBool", attr, attrName, [&](OpAttrValue& v) {
    require_list(numValues, values);
    v.kind = OpAttrValue::kListBool;
    for (int k = 0; k < numValues; ++k) v.ints.push_back(values[k] ? 1 : 0);
  });
}

aclError aclopSetAttrListInt(aclopAttr* attr, const char* attrName, int numValues, const int64_t* values) {
  return set_attr("aclopSetAttrListInt", attr, attrName, [&](OpAttrValue& v) {
    require_list(numValues, values);
    v.kind = OpAttrValue::kListInt;
    v.ints.assign(values, values + numValues);
  });
}

aclError aclopSetAttrListFloat(aclopAttr* attr, const char* attrName, int numValues, const float* values) {
  return set_attr("aclopSetAttrListFloat", attr, attrName, [&](OpAttrValue& v) {
    require_list(numValues, values);
    v.kind = OpAttrValue::kListFloat;
    v.floats.assign(values, values + numValues);
  });
}

aclError aclopSetAttrListString(aclopAttr* attr, const char* attrName, int numValues, const char** values) {
  return set_attr("aclopSetAttrListString", attr, attrName, [&](OpAttrValue& v) {
    require_list(numValues, values);
    v.kind = OpAttrValue::kListString;
    for (int k = 0; k < numValues; ++k) {
      ACL_SIM_REQUIRE(values[k] != nullptr, ACL_ERROR_INVALID_PARAM, "values[", k, "] is NULL");
      v.strings.emplace_back(values[k]);
    }
  });
}

aclError aclopSetAttrListListInt(aclopAttr* attr, const char* attrName, int numLists, const int* numValues,
                                 const int64_t* const values[]) {
  return set_attr("aclopSetAttrListListInt", attr, attrName, [&](OpAttrValue& v) {
    require_list(numLists, values);
    ACL_SIM_REQUIRE(numLists == 0 || numValues != nullptr, ACL_ERROR_INVALID_PARAM, "numValues is NULL");
    v.kind = OpAttrValue::kListListInt;
    for (int k = 0; k < numLists; ++k) {
      require_list(numValues[k], values[k]);
      v.int_lists.emplace_back(values[k], values[k] + numValues[k]);
    }
  });
}

}  // extern "C"
