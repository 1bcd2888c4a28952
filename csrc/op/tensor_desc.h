// aclTensorDesc: dtype, format, shape (and an optional name) of one tensor, as
// created by aclCreateTensorDesc. Shared by aclop (op descs) and aclmdl
// (dataset tensor descs). Their handles are capi's (capi/desc_handles.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "acl/acl_base.h"
#include "common/dtype.h"
#include "common/handle_table.h"
#include "common/shape.h"  // element_count, dims_to_string

struct aclTensorDesc {
  aclDataType dtype = ACL_FLOAT;
  aclFormat format = ACL_FORMAT_ND;
  std::vector<int64_t> dims;  // empty: a scalar; {-2}: unknown rank
  std::string name;
};

namespace acl_sim {


}  // namespace acl_sim
