#include "aclnn/descriptors.h"

#include <algorithm>
#include <cstring>

#include "aclnn/status.h"
#include "op/tensor_desc.h"

namespace acl_sim::aclnn {

HandleTable<aclTensor>& tensors() {
  static HandleTable<aclTensor> t;
  return t;
}
HandleTable<aclScalar>& scalars() {
  static HandleTable<aclScalar> t;
  return t;
}
HandleTable<aclIntArray>& int_arrays() {
  static HandleTable<aclIntArray> t;
  return t;
}
HandleTable<aclFloatArray>& float_arrays() {
  static HandleTable<aclFloatArray> t;
  return t;
}
HandleTable<aclBoolArray>& bool_arrays() {
  static HandleTable<aclBoolArray> t;
  return t;
}
HandleTable<aclTensorList>& tensor_lists() {
  static HandleTable<aclTensorList> t;
  return t;
}
HandleTable<aclScalarList>& scalar_lists() {
  static HandleTable<aclScalarList> t;
  return t;
}

namespace {

template <class T>
std::shared_ptr<T> require_in(HandleTable<T>& table, const void* h, const char* what, const char* kind) {
  require_present(h, what);
  auto obj = table.find(h);
  if (!obj) fail(ACLNN_ERR_PARAM_INVALID, what, " (", h, ") is not a live ", kind, " (destroyed, or never created)");
  return obj;
}

bool known_dtype(aclDataType dt) {
  return dt == ACL_INT4 || dtype_size(dt) != 0;
}

}  // namespace

std::shared_ptr<aclTensor> require_tensor(const aclTensor* t, const char* what) {
  return require_in(tensors(), t, what, "aclTensor");
}
std::shared_ptr<aclScalar> require_scalar(const aclScalar* s, const char* what) {
  return require_in(scalars(), s, what, "aclScalar");
}
std::shared_ptr<aclIntArray> require_int_array(const aclIntArray* a, const char* what) {
  return require_in(int_arrays(), a, what, "aclIntArray");
}
std::shared_ptr<aclFloatArray> require_float_array(const aclFloatArray* a, const char* what) {
  return require_in(float_arrays(), a, what, "aclFloatArray");
}
std::shared_ptr<aclBoolArray> require_bool_array(const aclBoolArray* a, const char* what) {
  return require_in(bool_arrays(), a, what, "aclBoolArray");
}
std::shared_ptr<aclTensorList> require_tensor_list(const aclTensorList* l, const char* what) {
  return require_in(tensor_lists(), l, what, "aclTensorList");
}
std::shared_ptr<aclScalarList> require_scalar_list(const aclScalarList* l, const char* what) {
  return require_in(scalar_lists(), l, what, "aclScalarList");
}

std::shared_ptr<aclTensor> make_tensor(const int64_t* view, uint64_t view_n, aclDataType dtype, const int64_t* strides,
                                       int64_t offset, aclFormat format, const int64_t* storage, uint64_t storage_n,
                                       void* data) {
  constexpr uint64_t kMaxRank = 64;
  ACLNN_REQUIRE(view_n <= kMaxRank, "viewDimsNum ", view_n, " exceeds ", kMaxRank);
  ACLNN_REQUIRE(storage_n <= kMaxRank, "storageDimsNum ", storage_n, " exceeds ", kMaxRank);
  if (view_n) require_present(view, "viewDims");
  if (view_n) require_present(strides, "stride");
  if (storage_n) require_present(storage, "storageDims");
  ACLNN_REQUIRE(known_dtype(dtype), "dataType ", static_cast<int>(dtype), " is not a supported aclDataType");
  ACLNN_REQUIRE(static_cast<int>(format) >= -1 && static_cast<int>(format) <= 64, "format ", static_cast<int>(format),
                " is not an aclFormat");
  ACLNN_REQUIRE(offset >= 0, "offset ", offset, " is negative");
  auto t = std::make_shared<aclTensor>();
  t->dtype = dtype;
  t->format = format;
  t->offset = offset;
  t->data = data;
  for (uint64_t i = 0; i < view_n; ++i) {
    ACLNN_REQUIRE(view[i] >= 0, "viewDims[", i, "] = ", view[i], " is negative");
    ACLNN_REQUIRE(strides[i] >= 0, "stride[", i, "] = ", strides[i], " is negative");
    t->view.push_back(view[i]);
    t->strides.push_back(strides[i]);
  }
  // An empty view touches no storage: ggml-cann computes its storage length as 1 + (n - 1) * stride,
  // negative for n = 0 (an empty SET_ROWS source), and CANN takes it. Such a storage is kept as 0.
  const bool empty_view = view_n > 0 && element_count(t->view) == 0;
  for (uint64_t i = 0; i < storage_n; ++i) {
    ACLNN_REQUIRE(storage[i] >= 0 || empty_view, "storageDims[", i, "] = ", storage[i], " is negative");
    t->storage.push_back(std::max<int64_t>(storage[i], 0));
  }
  // The view's extent must fit in the storage (when the storage is given). The extent is counted from
  // the view's offset: ggml-cann describes a view at an offset with a storage length that covers
  // only the view (its quantised-weight scale views), which CANN accepts. Memory safety does not
  // rest on this check: tensor_arg() checks the whole view lies in device memory.
  if (storage_n && element_count(t->view) > 0) {
    int64_t last = 0;
    for (size_t i = 0; i < t->view.size(); ++i) last += (t->view[i] - 1) * t->strides[i];
    int64_t storage_elems = element_count(t->storage);
    if (format == ACL_FORMAT_ND || format == ACL_FORMAT_NCHW || format == ACL_FORMAT_NHWC || format == ACL_FORMAT_NCL ||
        format == ACL_FORMAT_NCDHW || format == ACL_FORMAT_NDHWC || format == ACL_FORMAT_HWCN)
      ACLNN_REQUIRE(last < storage_elems, "the view (dims ", dims_to_string(t->view), ", strides ",
                    dims_to_string(t->strides), ", offset ", offset, ") spans ", last + 1,
                    " elements, more than the storage of ", storage_elems);
  }
  return t;
}

std::shared_ptr<aclScalar> make_scalar(const void* value, aclDataType dtype) {
  require_present(value, "value");
  size_t n = dtype_size(dtype);
  ACLNN_REQUIRE(n != 0 && n <= sizeof(aclScalar::bytes), "dataType ", static_cast<int>(dtype),
                " is not a scalar aclDataType");
  auto s = std::make_shared<aclScalar>();
  s->dtype = dtype;
  std::memcpy(s->bytes, value, n);
  return s;
}

}  // namespace acl_sim::aclnn
