// aclCreate* / aclDestroy* / aclGet* of the aclnn descriptors (aclnn/aclnn_base.h).
#include <cstdlib>
#include <cstring>

#include "aclnn/descriptors.h"
#include "aclnn/status.h"
#include "capi/api_guard.h"

using namespace acl_sim;
using namespace acl_sim::aclnn;
using acl_sim::capi::api_call;
using acl_sim::capi::api_value;

namespace {

template <class T>
void destroy_in(HandleTable<T>& table, const void* h, const char* what, const char* kind) {
  require_present(h, what);
  if (!table.remove(h)) fail(ACLNN_ERR_PARAM_INVALID, what, " (", h, ") is not a live ", kind, " (double destroy?)");
}

/** A malloc'd copy of @p v, for the aclGet* queries (the caller frees it). */
int64_t* malloc_copy(const std::vector<int64_t>& v) {
  auto* p = static_cast<int64_t*>(std::malloc(std::max<size_t>(v.size(), 1) * sizeof(int64_t)));
  if (!p) throw std::bad_alloc();
  if (!v.empty()) std::memcpy(p, v.data(), v.size() * sizeof(int64_t));
  return p;
}

template <class T, class V>
T* create_array(HandleTable<T>& table, const V* value, uint64_t size) {
  constexpr uint64_t kMax = uint64_t(1) << 32;
  ACLNN_REQUIRE(size <= kMax, "size ", size, " is too large");
  if (size) require_present(value, "value");
  auto a = std::make_shared<T>();
  a->values.assign(value, value + size);
  return table.add(std::move(a));
}

}  // namespace

extern "C" {

ACLNN_API aclTensor* aclCreateTensor(const int64_t* viewDims, uint64_t viewDimsNum, aclDataType dataType,
                                     const int64_t* stride, int64_t offset, aclFormat format,
                                     const int64_t* storageDims, uint64_t storageDimsNum, void* tensorData) {
  return api_value<aclTensor*>("aclCreateTensor", nullptr, [&] {
    return tensors().add(make_tensor(viewDims, viewDimsNum, dataType, stride, offset, format, storageDims,
                                     storageDimsNum, tensorData));
  });
}

ACLNN_API aclScalar* aclCreateScalar(void* value, aclDataType dataType) {
  return api_value<aclScalar*>("aclCreateScalar", nullptr, [&] { return scalars().add(make_scalar(value, dataType)); });
}

ACLNN_API aclIntArray* aclCreateIntArray(const int64_t* value, uint64_t size) {
  return api_value<aclIntArray*>("aclCreateIntArray", nullptr, [&] { return create_array(int_arrays(), value, size); });
}

ACLNN_API aclFloatArray* aclCreateFloatArray(const float* value, uint64_t size) {
  return api_value<aclFloatArray*>("aclCreateFloatArray", nullptr,
                                   [&] { return create_array(float_arrays(), value, size); });
}

ACLNN_API aclBoolArray* aclCreateBoolArray(const bool* value, uint64_t size) {
  return api_value<aclBoolArray*>("aclCreateBoolArray", nullptr, [&] { return create_array(bool_arrays(), value, size); });
}

ACLNN_API aclTensorList* aclCreateTensorList(const aclTensor* const* value, uint64_t size) {
  return api_value<aclTensorList*>("aclCreateTensorList", nullptr, [&] {
    if (size) require_present(value, "value");
    auto l = std::make_shared<aclTensorList>();
    for (uint64_t i = 0; i < size; ++i) {
      std::string what = str("value[", i, "]");
      l->tensors.push_back(require_tensor(value[i], what.c_str()));
    }
    return tensor_lists().add(std::move(l));
  });
}

ACLNN_API aclScalarList* aclCreateScalarList(const aclScalar* const* value, uint64_t size) {
  return api_value<aclScalarList*>("aclCreateScalarList", nullptr, [&] {
    if (size) require_present(value, "value");
    auto l = std::make_shared<aclScalarList>();
    for (uint64_t i = 0; i < size; ++i) {
      std::string what = str("value[", i, "]");
      l->scalars.push_back(require_scalar(value[i], what.c_str()));
    }
    return scalar_lists().add(std::move(l));
  });
}

ACLNN_API aclnnStatus aclDestroyTensor(const aclTensor* tensor) {
  return api_call("aclDestroyTensor", [&] { destroy_in(tensors(), tensor, "tensor", "aclTensor"); });
}
ACLNN_API aclnnStatus aclDestroyScalar(const aclScalar* scalar) {
  return api_call("aclDestroyScalar", [&] { destroy_in(scalars(), scalar, "scalar", "aclScalar"); });
}
ACLNN_API aclnnStatus aclDestroyIntArray(const aclIntArray* array) {
  return api_call("aclDestroyIntArray", [&] { destroy_in(int_arrays(), array, "array", "aclIntArray"); });
}
ACLNN_API aclnnStatus aclDestroyFloatArray(const aclFloatArray* array) {
  return api_call("aclDestroyFloatArray", [&] { destroy_in(float_arrays(), array, "array", "aclFloatArray"); });
}
ACLNN_API aclnnStatus aclDestroyBoolArray(const aclBoolArray* array) {
  return api_call("aclDestroyBoolArray", [&] { destroy_in(bool_arrays(), array, "array", "aclBoolArray"); });
}

// A list owns its members: destroying it destroys them (a member the caller already destroyed is skipped).
ACLNN_API aclnnStatus aclDestroyTensorList(const aclTensorList* array) {
  return api_call("aclDestroyTensorList", [&] {
    auto l = require_tensor_list(array, "array");
    tensor_lists().remove(array);
    for (const auto& t : l->tensors) tensors().remove(tensors().handle_of(t.get()));
  });
}
ACLNN_API aclnnStatus aclDestroyScalarList(const aclScalarList* array) {
  return api_call("aclDestroyScalarList", [&] {
    auto l = require_scalar_list(array, "array");
    scalar_lists().remove(array);
    for (const auto& s : l->scalars) scalars().remove(scalars().handle_of(s.get()));
  });
}

ACLNN_API aclnnStatus aclGetViewShape(const aclTensor* tensor, int64_t** viewDims, uint64_t* viewDimsNum) {
  return api_call("aclGetViewShape", [&] {
    auto t = require_tensor(tensor, "tensor");
    require_present(viewDims, "viewDims");
    require_present(viewDimsNum, "viewDimsNum");
    *viewDims = malloc_copy(t->view);
    *viewDimsNum = t->view.size();
  });
}
ACLNN_API aclnnStatus aclGetStorageShape(const aclTensor* tensor, int64_t** storageDims, uint64_t* storageDimsNum) {
  return api_call("aclGetStorageShape", [&] {
    auto t = require_tensor(tensor, "tensor");
    require_present(storageDims, "storageDims");
    require_present(storageDimsNum, "storageDimsNum");
    *storageDims = malloc_copy(t->storage);
    *storageDimsNum = t->storage.size();
  });
}
ACLNN_API aclnnStatus aclGetViewStrides(const aclTensor* tensor, int64_t** stridesValue, uint64_t* stridesNum) {
  return api_call("aclGetViewStrides", [&] {
    auto t = require_tensor(tensor, "tensor");
    require_present(stridesValue, "stridesValue");
    require_present(stridesNum, "stridesNum");
    *stridesValue = malloc_copy(t->strides);
    *stridesNum = t->strides.size();
  });
}
ACLNN_API aclnnStatus aclGetViewOffset(const aclTensor* tensor, int64_t* offset) {
  return api_call("aclGetViewOffset", [&] {
    auto t = require_tensor(tensor, "tensor");
    require_present(offset, "offset");
    *offset = t->offset;
  });
}
ACLNN_API aclnnStatus aclGetFormat(const aclTensor* tensor, aclFormat* format) {
  return api_call("aclGetFormat", [&] {
    auto t = require_tensor(tensor, "tensor");
    require_present(format, "format");
    *format = t->format;
  });
}
ACLNN_API aclnnStatus aclGetDataType(const aclTensor* tensor, aclDataType* dataType) {
  return api_call("aclGetDataType", [&] {
    auto t = require_tensor(tensor, "tensor");
    require_present(dataType, "dataType");
    *dataType = t->dtype;
  });
}
ACLNN_API aclnnStatus aclGetIntArraySize(const aclIntArray* array, uint64_t* size) {
  return api_call("aclGetIntArraySize", [&] {
    auto a = require_int_array(array, "array");
    require_present(size, "size");
    *size = a->values.size();
  });
}
ACLNN_API aclnnStatus aclGetFloatArraySize(const aclFloatArray* array, uint64_t* size) {
  return api_call("aclGetFloatArraySize", [&] {
    auto a = require_float_array(array, "array");
    require_present(size, "size");
    *size = a->values.size();
  });
}
ACLNN_API aclnnStatus aclGetBoolArraySize(const aclBoolArray* array, uint64_t* size) {
  return api_call("aclGetBoolArraySize", [&] {
    auto a = require_bool_array(array, "array");
    require_present(size, "size");
    *size = a->values.size();
  });
}
ACLNN_API aclnnStatus aclGetTensorListSize(const aclTensorList* tensorList, uint64_t* size) {
  return api_call("aclGetTensorListSize", [&] {
    auto l = require_tensor_list(tensorList, "tensorList");
    require_present(size, "size");
    *size = l->tensors.size();
  });
}
ACLNN_API aclnnStatus aclGetScalarListSize(const aclScalarList* scalarList, uint64_t* size) {
  return api_call("aclGetScalarListSize", [&] {
    auto l = require_scalar_list(scalarList, "scalarList");
    require_present(size, "size");
    *size = l->scalars.size();
  });
}
ACLNN_API aclnnStatus aclGetRawTensorAddr(const aclTensor* tensor, void** addr) {
  return api_call("aclGetRawTensorAddr", [&] {
    auto t = require_tensor(tensor, "tensor");
    require_present(addr, "addr");
    *addr = t->data;
  });
}
ACLNN_API aclnnStatus aclSetRawTensorAddr(aclTensor* tensor, void* addr) {
  return api_call("aclSetRawTensorAddr", [&] { require_tensor(tensor, "tensor")->data = addr; });
}

}  // extern "C"
