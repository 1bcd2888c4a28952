// aclmdlSetDynamicBatchSize / SetDynamicHWSize / SetInputDynamicDims. As on
// CANN, a setter validates the request against the compiled profiles and
// writes the profile values (int64) into the dataset's
// ascend_mbatch_shape_data buffer; execution reads them back from there.
#include "capi/mdl_dynamic.h"

#include <cstring>
#include <string>

#include "acl/acl_mdl.h"
#include "capi/api_guard.h"
#include "capi/data_buffer_view.h"
#include "common/error.h"
#include "op/tensor_desc.h"
#include "runtime/runtime.h"

using acl_sim::capi::api_call;

namespace acl_sim {

namespace {

const char* kind_name(DynamicKind k) {
  switch (k) {
    case DynamicKind::Batch: return "dynamic batch (--dynamic_batch_size)";
    case DynamicKind::HW: return "dynamic image size (--dynamic_image_size)";
    case DynamicKind::Dims: return "dynamic dims (--dynamic_dims)";
    default: return "static shapes";
  }
}

std::string profiles_text(const DynamicInfo& d) {
  std::string s;
  for (size_t k = 0; k < d.profiles.size(); ++k) s += (k ? " " : "") + dims_to_string(d.profiles[k]);
  return s;
}

// Validates the setter call and writes @p values into the dataset's mbatch buffer.
void apply_profile(uint32_t model_id, aclmdlDataset* dataset, size_t index, DynamicKind kind,
                   const std::vector<int64_t>& values) {
  Runtime::get().require_initialized();
  auto lm = ModelTable::instance().require(model_id);
  auto ds = require_dataset(dataset, "dataset");
  const DynamicInfo& dyn = lm->model->io().dynamic;
  // CANN (GeExecutor::SetDynamic*) answers a static model and a setter of the wrong kind with the same
  // ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID as an uncompiled profile: "does not match the gear of the model".
  ACL_SIM_REQUIRE(dyn.kind != DynamicKind::None, ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID, "model ", model_id,
                  " was compiled with static shapes; recompile with ", kind_name(kind));
  ACL_SIM_REQUIRE(dyn.kind == kind, ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID, "model ", model_id, " was compiled with ",
                  kind_name(dyn.kind), ", not ", kind_name(kind));
  ACL_SIM_REQUIRE(static_cast<int64_t>(index) == dyn.mbatch_input_index, ACL_ERROR_INVALID_PARAM, "index ", index,
                  " is not the ascend_mbatch_shape_data input (index ", dyn.mbatch_input_index, ")");
  size_t profile = dyn.profiles.size();
  for (size_t p = 0; p < dyn.profiles.size(); ++p)
    if (dyn.profiles[p] == values) profile = p;
  ACL_SIM_REQUIRE(profile < dyn.profiles.size(), ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID, dims_to_string(values),
                  " is not a compiled profile; the model has ", profiles_text(dyn));
  ACL_SIM_REQUIRE(index < ds->buffers.size(), ACL_ERROR_INVALID_PARAM, "the dataset has ", ds->buffers.size(),
                  " buffers; add the ascend_mbatch_shape_data buffer at index ", index, " first");
  capi::BufferView b = capi::view_data_buffer(ds->buffers[index], "ascend_mbatch_shape_data buffer");
  size_t need = values.size() * sizeof(int64_t);
  ACL_SIM_REQUIRE(b.addr != nullptr && b.size >= need, ACL_ERROR_INVALID_PARAM,
                  "ascend_mbatch_shape_data buffer needs ", need, " bytes, has ", b.size);
  std::memcpy(b.addr, values.data(), need);  // device memory is host-addressable in the simulator
  lm->profile->current.store(static_cast<int64_t>(profile));
}

}  // namespace

size_t selected_profile(const Model& m, const aclmdlDataset& inputs) {
  const DynamicInfo& dyn = m.io().dynamic;
  if (dyn.kind == DynamicKind::None) return 0;
  size_t idx = static_cast<size_t>(dyn.mbatch_input_index);
  ACL_SIM_REQUIRE(idx < inputs.buffers.size(), ACL_ERROR_MODEL_INPUT_NOT_MATCH,
                  "the input dataset lacks the ascend_mbatch_shape_data buffer (index ", idx, ")");
  capi::BufferView b = capi::view_data_buffer(inputs.buffers[idx], "ascend_mbatch_shape_data buffer");
  size_t k = dyn.profiles.empty() ? 0 : dyn.profiles[0].size();
  ACL_SIM_REQUIRE(b.addr != nullptr && b.size >= k * sizeof(int64_t), ACL_ERROR_MODEL_INPUT_NOT_MATCH,
                  "ascend_mbatch_shape_data buffer needs ", k * sizeof(int64_t), " bytes, has ", b.size);
  std::vector<int64_t> values(k);
  std::memcpy(values.data(), b.addr, k * sizeof(int64_t));
  for (size_t p = 0; p < dyn.profiles.size(); ++p)
    if (dyn.profiles[p] == values) return p;
  fail(ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID, "ascend_mbatch_shape_data holds ", dims_to_string(values),
       ", which is no compiled profile (", profiles_text(dyn), "); call the dynamic setter (",
       kind_name(dyn.kind), ") before executing");
}

}  // namespace acl_sim

extern "C" {

aclError aclmdlSetDynamicBatchSize(uint32_t modelId, aclmdlDataset* dataset, size_t index, uint64_t batchSize) {
  return api_call("aclmdlSetDynamicBatchSize", [&] {
    ACL_SIM_REQUIRE(batchSize > 0, ACL_ERROR_INVALID_PARAM, "batchSize is 0");
    acl_sim::apply_profile(modelId, dataset, index, acl_sim::DynamicKind::Batch,
                           {static_cast<int64_t>(batchSize)});
  });
}

aclError aclmdlSetDynamicHWSize(uint32_t modelId, aclmdlDataset* dataset, size_t index, uint64_t height,
                                uint64_t width) {
  return api_call("aclmdlSetDynamicHWSize", [&] {
    ACL_SIM_REQUIRE(height > 0 && width > 0, ACL_ERROR_INVALID_PARAM, "height and width must be > 0");
    acl_sim::apply_profile(modelId, dataset, index, acl_sim::DynamicKind::HW,
                           {static_cast<int64_t>(height), static_cast<int64_t>(width)});
  });
}

aclError aclmdlSetInputDynamicDims(uint32_t modelId, aclmdlDataset* dataset, size_t index, const aclmdlIODims* dims) {
  return api_call("aclmdlSetInputDynamicDims", [&] {
    ACL_SIM_REQUIRE(dims != nullptr, ACL_ERROR_INVALID_PARAM, "dims is NULL");
    ACL_SIM_REQUIRE(dims->dimCount <= ACL_MAX_DIM_CNT, ACL_ERROR_INVALID_PARAM, "dims->dimCount ", dims->dimCount,
                    " exceeds ACL_MAX_DIM_CNT");
    auto lm = acl_sim::ModelTable::instance().require(modelId);
    const acl_sim::ModelIO& io = lm->model->io();
    // CANN takes every data input's dims concatenated; the values at the -1 positions pick the
    // profile. Passing only the dynamic values is accepted too.
    std::vector<int64_t> given(dims->dims, dims->dims + dims->dimCount);
    std::vector<int64_t> values;
    size_t total = 0;
    for (size_t i = 0; i < io.inputs.size(); ++i)
      if (static_cast<int64_t>(i) != io.dynamic.mbatch_input_index) total += io.inputs[i].dims.size();
    if (given.size() == total) {
      size_t pos = 0;
      for (size_t i = 0; i < io.inputs.size(); ++i) {
        if (static_cast<int64_t>(i) == io.dynamic.mbatch_input_index) continue;
        for (int64_t d : io.inputs[i].dims) {
          if (d < 0) values.push_back(given[pos]);
          else
            ACL_SIM_REQUIRE(given[pos] == d, ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID, "dims[", pos, "] is ", given[pos],
                            " but input '", io.inputs[i].name, "' has the static dim ", d, " there");
          ++pos;
        }
      }
    } else {
      values = given;
    }
    acl_sim::apply_profile(modelId, dataset, index, acl_sim::DynamicKind::Dims, values);
  });
}

}  // extern "C"
