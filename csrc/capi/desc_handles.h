// The handle tables of the descriptions a program builds for aclop and aclmdl calls: only the C
// API turns handles into objects, so the tables live here, not in op/ where the types are.
#pragma once

#include <memory>

#include "common/handle_table.h"
#include "op/op_attr.h"
#include "op/tensor_desc.h"

namespace acl_sim {

/** Live tensor descriptions (aclCreateTensorDesc). */
HandleTable<aclTensorDesc>& tensor_descs();

/** The live desc behind @p handle; throws ACL_ERROR_INVALID_PARAM naming @p what if unknown/NULL. */
std::shared_ptr<aclTensorDesc> require_tensor_desc(const void* handle, const char* what);

/** Live attribute sets (aclopCreateAttr). */
HandleTable<aclopAttr>& op_attrs();

/** The attribute set behind @p handle; NULL gives an empty set. Throws 100000 for a dead handle. */
aclopAttr resolve_op_attr(const void* handle);

}  // namespace acl_sim
