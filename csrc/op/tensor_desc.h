// aclTensorDesc: dtype, format, shape (and an optional name) of one tensor, as
// created by aclCreateTensorDesc. Shared by aclop (op descs) and aclmdl
// (dataset tensor descs). Handles are validated through tensor_descs().
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "acl/acl_base.h"
#include "common/dtype.h"
#include "common/handle_table.h"

struct aclTensorDesc {
  aclDataType dtype = ACL_FLOAT;
  aclFormat format = ACL_FORMAT_ND;
  std::vector<int64_t> dims;  // empty: a scalar; {-2}: unknown rank
  std::string name;
};

namespace acl_sim {

/** Live tensor descriptions. */
HandleTable<aclTensorDesc>& tensor_descs();

/** The live desc behind @p handle; throws ACL_ERROR_INVALID_PARAM naming @p what if unknown/NULL. */
std::shared_ptr<aclTensorDesc> require_tensor_desc(const void* handle, const char* what);

/** Product of dims; 0 if any dim is negative (dynamic or unknown rank). */
int64_t element_count(const std::vector<int64_t>& dims);
/** "[1,3,224,224]" for messages. */
std::string dims_to_string(const std::vector<int64_t>& dims);

}  // namespace acl_sim
