// The aclnn descriptors (aclTensor, aclScalar, aclIntArray, aclFloatArray, aclBoolArray,
// aclTensorList, aclScalarList) as created by aclCreate*. Each kind has a live-handle table;
// entry points resolve handles through require_*() and hold the shared_ptr for the call.
//
// Operators never keep a descriptor: aclnnXxxGetWorkspaceSize copies what it needs
// (TensorArg, ScalarArg, std::vector) into the executor, because callers (ggml) destroy the
// descriptors right after the execute call, before the stream ran the work.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "aclnn/aclnn_base.h"
#include "common/handle_table.h"

struct aclTensor {
  aclDataType dtype = ACL_FLOAT;
  aclFormat format = ACL_FORMAT_ND;
  std::vector<int64_t> view;     // view shape, outermost first
  std::vector<int64_t> strides;  // view strides, in elements
  int64_t offset = 0;            // view start, in elements from data
  std::vector<int64_t> storage;  // storage shape (ggml passes one dim: the element count)
  void* data = nullptr;          // storage start
};

struct aclScalar {
  aclDataType dtype = ACL_FLOAT;
  alignas(8) unsigned char bytes[16] = {};  // the value, in dtype's representation
};

struct aclIntArray {
  std::vector<int64_t> values;
};
struct aclFloatArray {
  std::vector<float> values;
};
struct aclBoolArray {
  std::vector<bool> values;
};
struct aclTensorList {
  std::vector<std::shared_ptr<aclTensor>> tensors;  // owned: destroyed with the list
};
struct aclScalarList {
  std::vector<std::shared_ptr<aclScalar>> scalars;  // owned: destroyed with the list
};

namespace acl_sim::aclnn {

HandleTable<aclTensor>& tensors();
HandleTable<aclScalar>& scalars();
HandleTable<aclIntArray>& int_arrays();
HandleTable<aclFloatArray>& float_arrays();
HandleTable<aclBoolArray>& bool_arrays();
HandleTable<aclTensorList>& tensor_lists();
HandleTable<aclScalarList>& scalar_lists();

/** The live descriptor behind a handle. NULL: ACLNN_ERR_PARAM_NULLPTR; unknown or destroyed:
 *  ACLNN_ERR_PARAM_INVALID; both messages name @p what. */
std::shared_ptr<aclTensor> require_tensor(const aclTensor* t, const char* what);
std::shared_ptr<aclScalar> require_scalar(const aclScalar* s, const char* what);
std::shared_ptr<aclIntArray> require_int_array(const aclIntArray* a, const char* what);
std::shared_ptr<aclFloatArray> require_float_array(const aclFloatArray* a, const char* what);
std::shared_ptr<aclBoolArray> require_bool_array(const aclBoolArray* a, const char* what);
std::shared_ptr<aclTensorList> require_tensor_list(const aclTensorList* l, const char* what);
std::shared_ptr<aclScalarList> require_scalar_list(const aclScalarList* l, const char* what);

/** Validates and builds a tensor descriptor (aclCreateTensor's contract); throws ACLNN_ERR_PARAM_*. */
std::shared_ptr<aclTensor> make_tensor(const int64_t* view, uint64_t view_n, aclDataType dtype, const int64_t* strides,
                                       int64_t offset, aclFormat format, const int64_t* storage, uint64_t storage_n,
                                       void* data);
/** Validates and builds a scalar (aclCreateScalar); throws ACLNN_ERR_PARAM_* for a NULL value or unknown dtype. */
std::shared_ptr<aclScalar> make_scalar(const void* value, aclDataType dtype);

}  // namespace acl_sim::aclnn
