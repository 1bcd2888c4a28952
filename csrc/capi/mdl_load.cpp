// aclmdlLoad* / aclmdlQuerySize* / aclmdlUnload.
#include <string>

#include "acl/acl_mdl.h"
#include "capi/api_guard.h"
#include "capi/mdl_state.h"
#include "common/error.h"
#include "runtime/context.h"
#include "runtime/device.h"
#include "runtime/runtime.h"

using acl_sim::capi::api_call;

namespace acl_sim {
namespace {

void check_user_memory(void* work, size_t work_size, void* weight, size_t weight_size) {
  ACL_SIM_REQUIRE(work == nullptr || work_size > 0, ACL_ERROR_INVALID_PARAM, "workPtr is set but workSize is 0");
  ACL_SIM_REQUIRE(weight == nullptr || weight_size > 0, ACL_ERROR_INVALID_PARAM,
                  "weightPtr is set but weightSize is 0");
}

// Loads on the current context's device; the lambda does the Model::load* call.
template <class LoadFn>
void load_into_table(uint32_t* model_id, LoadFn&& load) {
  Runtime::get().require_initialized();
  ACL_SIM_REQUIRE(model_id != nullptr, ACL_ERROR_INVALID_PARAM, "modelId is NULL");
  Device& dev = require_context().device();
  auto lm = std::make_shared<LoadedModel>();
  lm->device = &dev;
  lm->model = load(dev);
  *model_id = ModelTable::instance().add(std::move(lm));
}

}  // namespace
}  // namespace acl_sim

extern "C" {

aclError aclmdlLoadFromFile(const char* modelPath, uint32_t* modelId) {
  return api_call("aclmdlLoadFromFile", [&] {
    ACL_SIM_REQUIRE(modelPath != nullptr && modelPath[0] != '\0', ACL_ERROR_INVALID_PARAM, "modelPath is NULL or empty");
    acl_sim::load_into_table(modelId, [&](acl_sim::Device& dev) { return acl_sim::Model::load_file(modelPath, dev); });
  });
}

aclError aclmdlLoadFromMem(const void* model, size_t modelSize, uint32_t* modelId) {
  return api_call("aclmdlLoadFromMem", [&] {
    ACL_SIM_REQUIRE(model != nullptr, ACL_ERROR_INVALID_PARAM, "model is NULL");
    ACL_SIM_REQUIRE(modelSize > 0, ACL_ERROR_INVALID_PARAM, "modelSize is 0");
    acl_sim::load_into_table(modelId,
                             [&](acl_sim::Device& dev) { return acl_sim::Model::load(model, modelSize, dev); });
  });
}

aclError aclmdlLoadFromFileWithMem(const char* modelPath, uint32_t* modelId, void* workPtr, size_t workSize,
                                   void* weightPtr, size_t weightSize) {
  return api_call("aclmdlLoadFromFileWithMem", [&] {
    ACL_SIM_REQUIRE(modelPath != nullptr && modelPath[0] != '\0', ACL_ERROR_INVALID_PARAM, "modelPath is NULL or empty");
    acl_sim::check_user_memory(workPtr, workSize, weightPtr, weightSize);
    acl_sim::load_into_table(modelId, [&](acl_sim::Device& dev) {
      return acl_sim::Model::load_file(modelPath, dev, workPtr, workSize, weightPtr, weightSize);
    });
  });
}

aclError aclmdlLoadFromMemWithMem(const void* model, size_t modelSize, uint32_t* modelId, void* workPtr,
                                  size_t workSize, void* weightPtr, size_t weightSize) {
  return api_call("aclmdlLoadFromMemWithMem", [&] {
    ACL_SIM_REQUIRE(model != nullptr && modelSize > 0, ACL_ERROR_INVALID_PARAM, "model is NULL or modelSize is 0");
    acl_sim::check_user_memory(workPtr, workSize, weightPtr, weightSize);
    acl_sim::load_into_table(modelId, [&](acl_sim::Device& dev) {
      return acl_sim::Model::load(model, modelSize, dev, workPtr, workSize, weightPtr, weightSize);
    });
  });
}

aclError aclmdlQuerySize(const char* fileName, size_t* workSize, size_t* weightSize) {
  return api_call("aclmdlQuerySize", [&] {
    ACL_SIM_REQUIRE(fileName != nullptr && fileName[0] != '\0', ACL_ERROR_INVALID_PARAM, "fileName is NULL or empty");
    ACL_SIM_REQUIRE(workSize != nullptr && weightSize != nullptr, ACL_ERROR_INVALID_PARAM,
                    "workSize or weightSize is NULL");
    acl_sim::Model::query_size_file(fileName, workSize, weightSize);
  });
}

aclError aclmdlQuerySizeFromMem(const void* model, size_t modelSize, size_t* workSize, size_t* weightSize) {
  return api_call("aclmdlQuerySizeFromMem", [&] {
    ACL_SIM_REQUIRE(model != nullptr && modelSize > 0, ACL_ERROR_INVALID_PARAM, "model is NULL or modelSize is 0");
    ACL_SIM_REQUIRE(workSize != nullptr && weightSize != nullptr, ACL_ERROR_INVALID_PARAM,
                    "workSize or weightSize is NULL");
    acl_sim::Model::query_size(model, modelSize, workSize, weightSize);
  });
}

aclError aclmdlUnload(uint32_t modelId) {
  return api_call("aclmdlUnload", [&] {
    acl_sim::Runtime::get().require_initialized();
    auto lm = acl_sim::ModelTable::instance().remove(modelId);
    lm->wait_idle();  // queued execute_async tasks still hold the model; let them finish first
  });
}

}  // extern "C"
