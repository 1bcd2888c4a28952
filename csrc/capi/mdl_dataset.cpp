// aclmdlDataset: an ordered list of data buffers (and optional tensor descs).
#include "acl/acl_mdl.h"
#include "capi/api_guard.h"
#include "capi/mdl_state.h"
#include "common/error.h"
#include "op/tensor_desc.h"

using acl_sim::capi::api_call;
using acl_sim::capi::api_value;

extern "C" {

aclmdlDataset* aclmdlCreateDataset(void) {
  return api_value<aclmdlDataset*>("aclmdlCreateDataset", nullptr,
                                   [] { return acl_sim::datasets().add(std::make_shared<aclmdlDataset>()); });
}

aclError aclmdlDestroyDataset(const aclmdlDataset* dataset) {
  return api_call("aclmdlDestroyDataset", [&] {
    ACL_SIM_REQUIRE(dataset != nullptr, ACL_ERROR_INVALID_PARAM, "dataset is NULL");
    auto ds = acl_sim::datasets().remove(dataset);
    ACL_SIM_REQUIRE(ds != nullptr, ACL_ERROR_INVALID_PARAM, "dataset is not a live aclmdlDataset (double destroy?)");
    for (aclTensorDesc* d : ds->owned_descs) acl_sim::tensor_descs().remove(d);
  });
}

aclError aclmdlAddDatasetBuffer(aclmdlDataset* dataset, aclDataBuffer* dataBuffer) {
  return api_call("aclmdlAddDatasetBuffer", [&] {
    auto ds = acl_sim::require_dataset(dataset, "dataset");
    ACL_SIM_REQUIRE(dataBuffer != nullptr, ACL_ERROR_INVALID_PARAM, "dataBuffer is NULL");
    ds->buffers.push_back(dataBuffer);
    ds->descs.push_back(nullptr);
  });
}

aclError aclmdlSetDatasetTensorDesc(aclmdlDataset* dataset, aclTensorDesc* tensorDesc, size_t index) {
  return api_call("aclmdlSetDatasetTensorDesc", [&] {
    auto ds = acl_sim::require_dataset(dataset, "dataset");
    acl_sim::require_tensor_desc(tensorDesc, "tensorDesc");
    ACL_SIM_REQUIRE(index < ds->buffers.size(), ACL_ERROR_INVALID_PARAM, "index ", index,
                    " is out of range: the dataset has ", ds->buffers.size(), " buffers");
    ds->descs[index] = tensorDesc;
  });
}

aclTensorDesc* aclmdlGetDatasetTensorDesc(const aclmdlDataset* dataset, size_t index) {
  return api_value<aclTensorDesc*>("aclmdlGetDatasetTensorDesc", nullptr, [&]() -> aclTensorDesc* {
    auto ds = acl_sim::require_dataset(dataset, "dataset");
    ACL_SIM_REQUIRE(index < ds->descs.size(), ACL_ERROR_INVALID_PARAM, "index ", index,
                    " is out of range: the dataset has ", ds->descs.size(), " buffers");
    return ds->descs[index];
  });
}

size_t aclmdlGetDatasetNumBuffers(const aclmdlDataset* dataset) {
  return api_value<size_t>("aclmdlGetDatasetNumBuffers", 0,
                           [&] { return acl_sim::require_dataset(dataset, "dataset")->buffers.size(); });
}

aclDataBuffer* aclmdlGetDatasetBuffer(const aclmdlDataset* dataset, size_t index) {
  return api_value<aclDataBuffer*>("aclmdlGetDatasetBuffer", nullptr, [&]() -> aclDataBuffer* {
    auto ds = acl_sim::require_dataset(dataset, "dataset");
    ACL_SIM_REQUIRE(index < ds->buffers.size(), ACL_ERROR_INVALID_PARAM, "index ", index,
                    " is out of range: the dataset has ", ds->buffers.size(), " buffers");
    return ds->buffers[index];
  });
}

}  // extern "C"
