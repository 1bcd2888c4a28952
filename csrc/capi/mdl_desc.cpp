// aclmdlCreateDesc / GetDesc / the description getters.
#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>

#include "acl/acl_mdl.h"
#include "capi/api_guard.h"
#include "capi/mdl_state.h"
#include "common/error.h"
#include "runtime/runtime.h"

using acl_sim::capi::api_call;
using acl_sim::capi::api_value;

namespace acl_sim {
namespace {

const IoDesc& io_at(const aclmdlDesc& d, size_t index, bool input) {
  const auto& list = input ? d.io.inputs : d.io.outputs;
  ACL_SIM_REQUIRE(index < list.size(), ACL_ERROR_INVALID_PARAM, input ? "input" : "output", " index ", index,
                  " is out of range: the model has ", list.size(), input ? " inputs" : " outputs");
  return list[index];
}

void fill_dims(aclmdlIODims* out, const std::string& name, const std::vector<int64_t>& dims) {
  ACL_SIM_REQUIRE(dims.size() <= ACL_MAX_DIM_CNT, ACL_ERROR_INVALID_PARAM, "tensor '", name, "' has ", dims.size(),
                  " dims, more than ACL_MAX_DIM_CNT");
  std::memset(out->name, 0, sizeof(out->name));
  std::strncpy(out->name, name.c_str(), ACL_MAX_TENSOR_NAME_LEN - 1);
  out->dimCount = dims.size();
  for (size_t k = 0; k < dims.size(); ++k) out->dims[k] = dims[k];
}

aclError get_dims(const char* fn, const aclmdlDesc* handle, size_t index, aclmdlIODims* dims, bool input,
                  bool v2 = false) {
  return api_call(fn, [&] {
    auto d = require_model_desc(handle);
    ACL_SIM_REQUIRE(dims != nullptr, ACL_ERROR_INVALID_PARAM, "dims is NULL");
    const IoDesc& io = io_at(*d, index, input);
    fill_dims(dims, io.name, v2 && !io.aipp.dims_v2.empty() ? io.aipp.dims_v2 : io.dims);
  });
}

std::vector<char> read_file(const char* path) {
  std::ifstream in(path, std::ios::binary);
  ACL_SIM_REQUIRE(in.good(), ACL_ERROR_GE_EXEC_MODEL_PATH_INVALID, "cannot open model file '", path, "'");
  return std::vector<char>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

}  // namespace
}  // namespace acl_sim

extern "C" {

aclmdlDesc* aclmdlCreateDesc(void) {
  return api_value<aclmdlDesc*>("aclmdlCreateDesc", nullptr,
                                [] { return acl_sim::model_descs().add(std::make_shared<aclmdlDesc>()); });
}

aclError aclmdlDestroyDesc(aclmdlDesc* modelDesc) {
  return api_call("aclmdlDestroyDesc", [&] {
    ACL_SIM_REQUIRE(modelDesc != nullptr, ACL_ERROR_INVALID_PARAM, "modelDesc is NULL");
    ACL_SIM_REQUIRE(acl_sim::model_descs().remove(modelDesc) != nullptr, ACL_ERROR_INVALID_PARAM,
                    "modelDesc is not a live aclmdlDesc (double destroy?)");
  });
}

aclError aclmdlGetDesc(aclmdlDesc* modelDesc, uint32_t modelId) {
  return api_call("aclmdlGetDesc", [&] {
    auto d = acl_sim::require_model_desc(modelDesc, false);
    auto lm = acl_sim::ModelTable::instance().require(modelId);
    acl_sim::describe(*d, *lm->model, lm->profile);
  });
}

aclError aclmdlGetDescFromMem(aclmdlDesc* modelDesc, const void* model, size_t modelSize) {
  return api_call("aclmdlGetDescFromMem", [&] {
    auto d = acl_sim::require_model_desc(modelDesc, false);
    ACL_SIM_REQUIRE(model != nullptr && modelSize > 0, ACL_ERROR_INVALID_PARAM, "model is NULL or modelSize is 0");
    acl_sim::ModelMemory host;  // host heap: describing must not take device memory
    host.describe_only = true;  // validate and describe; no weight copy, no workspace
    auto m = acl_sim::Model::load_with(model, modelSize, host);
    acl_sim::describe(*d, *m, nullptr);
  });
}

aclError aclmdlGetDescFromFile(aclmdlDesc* modelDesc, const char* modelPath) {
  return api_call("aclmdlGetDescFromFile", [&] {
    auto d = acl_sim::require_model_desc(modelDesc, false);
    ACL_SIM_REQUIRE(modelPath != nullptr && modelPath[0] != '\0', ACL_ERROR_INVALID_PARAM, "modelPath is NULL or empty");
    std::vector<char> bytes = acl_sim::read_file(modelPath);
    acl_sim::ModelMemory host;
    host.describe_only = true;  // validate and describe; no weight copy, no workspace
    auto m = acl_sim::Model::load_with(bytes.data(), bytes.size(), host);
    acl_sim::describe(*d, *m, nullptr);
  });
}

size_t aclmdlGetNumInputs(aclmdlDesc* modelDesc) {
  return api_value<size_t>("aclmdlGetNumInputs", 0,
                           [&] { return acl_sim::require_model_desc(modelDesc)->io.inputs.size(); });
}

size_t aclmdlGetNumOutputs(aclmdlDesc* modelDesc) {
  return api_value<size_t>("aclmdlGetNumOutputs", 0,
                           [&] { return acl_sim::require_model_desc(modelDesc)->io.outputs.size(); });
}

size_t aclmdlGetInputSizeByIndex(aclmdlDesc* modelDesc, size_t index) {
  return api_value<size_t>("aclmdlGetInputSizeByIndex", 0, [&] {
    return acl_sim::io_at(*acl_sim::require_model_desc(modelDesc), index, true).size;
  });
}

size_t aclmdlGetOutputSizeByIndex(aclmdlDesc* modelDesc, size_t index) {
  return api_value<size_t>("aclmdlGetOutputSizeByIndex", 0, [&] {
    return acl_sim::io_at(*acl_sim::require_model_desc(modelDesc), index, false).size;
  });
}

aclError aclmdlGetInputDims(const aclmdlDesc* modelDesc, size_t index, aclmdlIODims* dims) {
  return acl_sim::get_dims("aclmdlGetInputDims", modelDesc, index, dims, true);
}

aclError aclmdlGetInputDimsV2(const aclmdlDesc* modelDesc, size_t index, aclmdlIODims* dims) {
  return acl_sim::get_dims("aclmdlGetInputDimsV2", modelDesc, index, dims, true, true);
}

aclError aclmdlGetOutputDims(const aclmdlDesc* modelDesc, size_t index, aclmdlIODims* dims) {
  return acl_sim::get_dims("aclmdlGetOutputDims", modelDesc, index, dims, false);
}

aclError aclmdlGetCurOutputDims(const aclmdlDesc* modelDesc, size_t index, aclmdlIODims* dims) {
  return api_call("aclmdlGetCurOutputDims", [&] {
    auto d = acl_sim::require_model_desc(modelDesc);
    ACL_SIM_REQUIRE(dims != nullptr, ACL_ERROR_INVALID_PARAM, "dims is NULL");
    const acl_sim::IoDesc& io = acl_sim::io_at(*d, index, false);
    if (d->runtime_output_dims) {  // the last execution's dims; -1 (unknown) in run-time dims before any
      std::vector<int64_t> last;
      acl_sim::fill_dims(dims, io.name, d->profile && d->profile->last_dims(index, last) ? last : io.dims);
      return;
    }
    int64_t cur = d->profile ? d->profile->current.load() : -1;
    size_t p = cur >= 0 && static_cast<size_t>(cur) < d->output_dims.size() ? static_cast<size_t>(cur)
                                                                             : d->largest_profile;
    acl_sim::fill_dims(dims, io.name, d->output_dims.at(p).at(index));
  });
}

const char* aclmdlGetInputNameByIndex(const aclmdlDesc* modelDesc, size_t index) {
  return api_value<const char*>("aclmdlGetInputNameByIndex", nullptr, [&] {
    return acl_sim::io_at(*acl_sim::require_model_desc(modelDesc), index, true).name.c_str();
  });
}

const char* aclmdlGetOutputNameByIndex(const aclmdlDesc* modelDesc, size_t index) {
  return api_value<const char*>("aclmdlGetOutputNameByIndex", nullptr, [&] {
    return acl_sim::io_at(*acl_sim::require_model_desc(modelDesc), index, false).name.c_str();
  });
}

aclFormat aclmdlGetInputFormat(const aclmdlDesc* modelDesc, size_t index) {
  return api_value<aclFormat>("aclmdlGetInputFormat", ACL_FORMAT_UNDEFINED, [&] {
    return static_cast<aclFormat>(acl_sim::io_at(*acl_sim::require_model_desc(modelDesc), index, true).format);
  });
}

aclFormat aclmdlGetOutputFormat(const aclmdlDesc* modelDesc, size_t index) {
  return api_value<aclFormat>("aclmdlGetOutputFormat", ACL_FORMAT_UNDEFINED, [&] {
    return static_cast<aclFormat>(acl_sim::io_at(*acl_sim::require_model_desc(modelDesc), index, false).format);
  });
}

aclDataType aclmdlGetInputDataType(const aclmdlDesc* modelDesc, size_t index) {
  return api_value<aclDataType>("aclmdlGetInputDataType", ACL_DT_UNDEFINED, [&] {
    return static_cast<aclDataType>(acl_sim::io_at(*acl_sim::require_model_desc(modelDesc), index, true).dtype);
  });
}

aclDataType aclmdlGetOutputDataType(const aclmdlDesc* modelDesc, size_t index) {
  return api_value<aclDataType>("aclmdlGetOutputDataType", ACL_DT_UNDEFINED, [&] {
    return static_cast<aclDataType>(acl_sim::io_at(*acl_sim::require_model_desc(modelDesc), index, false).dtype);
  });
}

static aclError index_by_name(const char* fn, const aclmdlDesc* modelDesc, const char* name, size_t* index,
                              bool input) {
  return api_call(fn, [&] {
    auto d = acl_sim::require_model_desc(modelDesc);
    ACL_SIM_REQUIRE(name != nullptr, ACL_ERROR_INVALID_PARAM, "name is NULL");
    ACL_SIM_REQUIRE(index != nullptr, ACL_ERROR_INVALID_PARAM, "index is NULL");
    const auto& list = input ? d->io.inputs : d->io.outputs;
    for (size_t k = 0; k < list.size(); ++k) {
      if (list[k].name == name) {
        *index = k;
        return;
      }
    }
    acl_sim::fail(ACL_ERROR_INVALID_PARAM, "the model has no ", input ? "input" : "output", " named '", name, "'");
  });
}

aclError aclmdlGetInputIndexByName(const aclmdlDesc* modelDesc, const char* name, size_t* index) {
  return index_by_name("aclmdlGetInputIndexByName", modelDesc, name, index, true);
}

aclError aclmdlGetOutputIndexByName(const aclmdlDesc* modelDesc, const char* name, size_t* index) {
  return index_by_name("aclmdlGetOutputIndexByName", modelDesc, name, index, false);
}

aclError aclmdlGetDynamicBatch(const aclmdlDesc* modelDesc, aclmdlBatch* batch) {
  return api_call("aclmdlGetDynamicBatch", [&] {
    auto d = acl_sim::require_model_desc(modelDesc);
    ACL_SIM_REQUIRE(batch != nullptr, ACL_ERROR_INVALID_PARAM, "batch is NULL");
    std::memset(batch, 0, sizeof(*batch));
    if (d->io.dynamic.kind != acl_sim::DynamicKind::Batch) return;  // not dynamic batch: count 0, success
    const auto& profiles = d->io.dynamic.profiles;
    batch->batchCount = std::min<size_t>(profiles.size(), ACL_MAX_BATCH_NUM);
    for (size_t k = 0; k < batch->batchCount; ++k) batch->batch[k] = static_cast<uint64_t>(profiles[k].at(0));
  });
}

aclError aclmdlGetDynamicHW(const aclmdlDesc* modelDesc, size_t index, aclmdlHW* hw) {
  return api_call("aclmdlGetDynamicHW", [&] {
    auto d = acl_sim::require_model_desc(modelDesc);
    ACL_SIM_REQUIRE(hw != nullptr, ACL_ERROR_INVALID_PARAM, "hw is NULL");
    ACL_SIM_REQUIRE(index == static_cast<size_t>(-1) || index < d->io.inputs.size(), ACL_ERROR_INVALID_PARAM,
                    "index ", index, " is neither -1 nor an input index");
    std::memset(hw, 0, sizeof(*hw));
    if (d->io.dynamic.kind != acl_sim::DynamicKind::HW) return;
    const auto& profiles = d->io.dynamic.profiles;
    hw->hwCount = std::min<size_t>(profiles.size(), ACL_MAX_HW_NUM);
    for (size_t k = 0; k < hw->hwCount; ++k) {
      hw->hw[k][0] = static_cast<uint64_t>(profiles[k].at(0));
      hw->hw[k][1] = static_cast<uint64_t>(profiles[k].at(1));
    }
  });
}

aclError aclmdlGetInputDynamicGearCount(const aclmdlDesc* modelDesc, size_t index, size_t* gearCount) {
  return api_call("aclmdlGetInputDynamicGearCount", [&] {
    auto d = acl_sim::require_model_desc(modelDesc);
    ACL_SIM_REQUIRE(index == static_cast<size_t>(-1), ACL_ERROR_INVALID_PARAM, "index must be -1, got ", index);
    ACL_SIM_REQUIRE(gearCount != nullptr, ACL_ERROR_INVALID_PARAM, "gearCount is NULL");
    *gearCount = d->io.dynamic.kind == acl_sim::DynamicKind::Dims ? d->io.dynamic.profiles.size() : 0;
  });
}

aclError aclmdlGetInputDynamicDims(const aclmdlDesc* modelDesc, size_t index, aclmdlIODims* dims, size_t gearCount) {
  return api_call("aclmdlGetInputDynamicDims", [&] {
    auto d = acl_sim::require_model_desc(modelDesc);
    ACL_SIM_REQUIRE(index == static_cast<size_t>(-1), ACL_ERROR_INVALID_PARAM, "index must be -1, got ", index);
    ACL_SIM_REQUIRE(dims != nullptr, ACL_ERROR_INVALID_PARAM, "dims is NULL");
    ACL_SIM_REQUIRE(d->io.dynamic.kind == acl_sim::DynamicKind::Dims, ACL_ERROR_INVALID_PARAM,
                    "the model was not compiled with --dynamic_dims");
    const auto& profiles = d->io.dynamic.profiles;
    ACL_SIM_REQUIRE(gearCount == profiles.size(), ACL_ERROR_INVALID_PARAM, "gearCount ", gearCount,
                    " differs from the model's ", profiles.size(), " profiles (aclmdlGetInputDynamicGearCount)");
    // Each gear: every data input's dims concatenated, with that gear's values in the -1 positions.
    for (size_t g = 0; g < profiles.size(); ++g) {
      std::vector<int64_t> full;
      size_t next = 0;
      for (size_t i = 0; i < d->io.inputs.size(); ++i) {
        if (static_cast<int64_t>(i) == d->io.dynamic.mbatch_input_index) continue;
        for (int64_t v : d->io.inputs[i].dims) full.push_back(v < 0 && next < profiles[g].size() ? profiles[g][next++] : v);
      }
      acl_sim::fill_dims(&dims[g], "", full);
    }
  });
}

}  // extern "C"
