// AIPP entry points: the dynamic-AIPP parameter set (aclmdlCreateAIPP and its
// setters), aclmdlSetInputAIPP, which checks it against the model and writes
// the parameter block (kernels/aipp_params.h) into the dataset's
// ascend_dynamic_aipp_data buffer, and the queries aclmdlGetAippType /
// aclmdlGetFirstAippInfo / aclmdlGetAippDataSize. The AclSim.Aipp kernel in
// front of the model reads that block when the model runs (docs/aipp.md).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>

#include "acl/acl_mdl.h"
#include "capi/api_guard.h"
#include "capi/data_buffer_view.h"
#include "capi/mdl_state.h"
#include "common/error.h"
#include "common/handle_table.h"
#include "kernels/aipp_params.h"
#include "runtime/runtime.h"

struct aclmdlAIPP {
  acl_sim::AippParams params;
};

using acl_sim::capi::api_call;
using acl_sim::capi::api_value;

namespace acl_sim {
namespace {

constexpr uint64_t kMaxAippBatch = 127;  // the parameter block counts images in one signed byte

HandleTable<aclmdlAIPP>& aipp_sets() {
  static HandleTable<aclmdlAIPP> table;
  return table;
}

std::shared_ptr<aclmdlAIPP> require_aipp(const aclmdlAIPP* h) {
  ACL_SIM_REQUIRE(h != nullptr, ACL_ERROR_INVALID_PARAM, "aippParmsSet is NULL");
  auto p = aipp_sets().find(h);
  ACL_SIM_REQUIRE(p != nullptr, ACL_ERROR_INVALID_PARAM, "aippParmsSet is not a live aclmdlAIPP (destroyed?)");
  return p;
}

AippBatchParams& batch_at(aclmdlAIPP& a, uint64_t index) {
  ACL_SIM_REQUIRE(index < a.params.batches.size(), ACL_ERROR_INVALID_PARAM, "batchIndex ", index,
                  " is out of range: the aclmdlAIPP was created for ", a.params.batches.size(), " images");
  return a.params.batches[size_t(index)];
}

void require_switch(int8_t v, const char* what) {
  ACL_SIM_REQUIRE(v == 0 || v == 1, ACL_ERROR_INVALID_PARAM, what, " must be 0 or 1, got ", int(v));
}

void require_fp16_range(float v, float lo, float hi, const char* what) {
  ACL_SIM_REQUIRE(std::isfinite(v) && v >= lo && v <= hi, ACL_ERROR_INVALID_PARAM, what, " ", v,
                  " is out of range [", lo, ", ", hi, "]");
}

// The image input with dynamic AIPP whose parameter input is @p data_index.
size_t image_input_of(const ModelIO& io, size_t data_index) {
  for (size_t i = 0; i < io.inputs.size(); ++i)
    if (io.inputs[i].aipp.kind == AippInfo::Kind::Dynamic && size_t(io.inputs[i].aipp.data_input_index) == data_index)
      return i;
  fail(ACL_ERROR_INVALID_PARAM, "input ", data_index, " is not an ascend_dynamic_aipp_data input");
}

// Everything CANN checks before the parameters reach the device: the model's batch and H x W,
// the source size against max_src_image_size, and each image's crop / padding window.
void check_against_model(const aclmdlAIPP& a, const IoDesc& image) {
  const AippParams& p = a.params;
  const AippInfo& info = image.aipp;
  ACL_SIM_REQUIRE(int64_t(p.batches.size()) == info.batch, ACL_ERROR_INVALID_PARAM, "the aclmdlAIPP holds ",
                  p.batches.size(), " images but the model input '", image.name, "' takes ", info.batch);
  ACL_SIM_REQUIRE(aipp_image_bytes(p.format, 1, 2) != 0, ACL_ERROR_INVALID_PARAM,
                  "set the input format with aclmdlSetAIPPInputFormat first");
  ACL_SIM_REQUIRE(p.src_w > 0 && p.src_h > 0, ACL_ERROR_INVALID_PARAM,
                  "set the source image size with aclmdlSetAIPPSrcImageSize first");
  const size_t need = aipp_image_bytes(p.format, p.src_w, p.src_h) * p.batches.size();
  ACL_SIM_REQUIRE(need <= size_t(info.max_src_image_size), ACL_ERROR_INVALID_PARAM, p.batches.size(), " ",
                  p.src_w, "x", p.src_h, " images take ", need, " bytes, more than max_src_image_size ",
                  info.max_src_image_size);
  const bool nhwc = info.src_format == 1;
  const int64_t H = nhwc ? info.src_dims[1] : info.src_dims[2], W = nhwc ? info.src_dims[2] : info.src_dims[3];
  const int64_t C = nhwc ? info.src_dims[3] : info.src_dims[1];
  const int src_c = p.format == kAippYuv400 ? 1 : 3;
  ACL_SIM_REQUIRE(C == src_c || (p.csc && C == 1), ACL_ERROR_INVALID_PARAM, "input format ", p.format, " gives ",
                  src_c, " channel(s), the model input has ", C);
  for (size_t b = 0; b < p.batches.size(); ++b) {
    const AippBatchParams& q = p.batches[b];
    ACL_SIM_REQUIRE(!q.scf, ACL_ERROR_FEATURE_UNSUPPORTED, "image ", b, ": resize is not supported by acl_sim");
    int64_t x0 = 0, y0 = 0, cw = p.src_w, ch = p.src_h;
    if (q.crop) x0 = q.crop_x, y0 = q.crop_y, cw = q.crop_w, ch = q.crop_h;
    ACL_SIM_REQUIRE(cw > 0 && ch > 0 && x0 + cw <= p.src_w && y0 + ch <= p.src_h, ACL_ERROR_INVALID_PARAM,
                    "image ", b, ": the crop window ", cw, "x", ch, " at (", x0, ",", y0, ") lies outside the ",
                    p.src_w, "x", p.src_h, " source");
    ACL_SIM_REQUIRE(p.format != kAippYuv420sp || (x0 % 2 == 0 && y0 % 2 == 0 && p.src_w % 2 == 0 && p.src_h % 2 == 0),
                    ACL_ERROR_INVALID_PARAM, "image ", b, ": YUV420SP_U8 needs even sizes and crop start");
    const int64_t oh = ch + (q.padding ? q.pad_top + q.pad_bottom : 0);
    const int64_t ow = cw + (q.padding ? q.pad_left + q.pad_right : 0);
    ACL_SIM_REQUIRE(oh == H && ow == W, ACL_ERROR_INVALID_PARAM, "image ", b, " gives ", oh, "x", ow,
                    " after crop and padding, but the model input is ", H, "x", W);
  }
}

void set_input_aipp(const char* fn, uint32_t model_id, aclmdlDataset* dataset, size_t index, const aclmdlAIPP* set,
                    bool by_image_index) {
  Runtime::get().require_initialized();
  auto a = require_aipp(set);
  auto lm = ModelTable::instance().require(model_id);
  auto ds = require_dataset(dataset, "dataset");
  const ModelIO& io = lm->model->io();
  ACL_SIM_REQUIRE(index < io.inputs.size(), ACL_ERROR_INVALID_PARAM, "index ", index,
                  " is out of range: the model has ", io.inputs.size(), " inputs");
  size_t data_index = index;
  if (by_image_index) {
    ACL_SIM_REQUIRE(io.inputs[index].aipp.kind == AippInfo::Kind::Dynamic, ACL_ERROR_FAILURE, "input ", index,
                    " (", io.inputs[index].name, ") has no dynamic AIPP");
    data_index = size_t(io.inputs[index].aipp.data_input_index);
  }
  ACL_SIM_REQUIRE(io.inputs[data_index].aipp.kind == AippInfo::Kind::DynamicData, ACL_ERROR_INVALID_PARAM, "input ",
                  data_index, " (", io.inputs[data_index].name, ") is not the ", ACL_DYNAMIC_AIPP_NAME,
                  " input (aclmdlGetAippType reports ACL_DYNAMIC_AIPP_NODE for it)");
  check_against_model(*a, io.inputs[image_input_of(io, data_index)]);
  ACL_SIM_REQUIRE(data_index < ds->buffers.size(), ACL_ERROR_INVALID_PARAM, "the dataset has ", ds->buffers.size(),
                  " buffers; add the ", ACL_DYNAMIC_AIPP_NAME, " buffer at index ", data_index, " first");
  capi::BufferView b = capi::view_data_buffer(ds->buffers[data_index], "ascend_dynamic_aipp_data buffer");
  const size_t need = aipp_block_bytes(a->params.batches.size());
  ACL_SIM_REQUIRE(b.addr != nullptr && b.size >= need, ACL_ERROR_INVALID_PARAM, ACL_DYNAMIC_AIPP_NAME,
                  " buffer needs ", need, " bytes (aclmdlGetAippDataSize), has ", b.size);
  Device* d = Runtime::get().find_device_of(b.addr);
  ACL_SIM_REQUIRE(d != nullptr, ACL_ERROR_INVALID_PARAM, ACL_DYNAMIC_AIPP_NAME,
                  " buffer is not device memory (allocate it with aclrtMalloc)");
  std::vector<uint8_t> block(need);
  encode_aipp_params(a->params, block.data());
  std::memcpy(b.addr, block.data(), need);  // device memory is host-addressable in the simulator
  (void)fn;
}

void fill_static_info(const IoDesc& io, aclAippInfo* out) {
  const AippInfo& a = io.aipp;
  std::memset(out, 0, sizeof(*out));
  auto i32 = [&](const char* k, double def = 0) { return int32_t(a.value(k, def)); };
  auto f = [&](const char* k, double def = 0) { return float(a.value(k, def)); };
  out->inputFormat = aclAippInputFormat(i32("format"));
  out->srcImageSizeW = i32("src_w");
  out->srcImageSizeH = i32("src_h");
  out->cropSwitch = int8_t(i32("crop"));
  out->loadStartPosW = i32("load_start_pos_w");
  out->loadStartPosH = i32("load_start_pos_h");
  out->cropSizeW = i32("crop_size_w");
  out->cropSizeH = i32("crop_size_h");
  out->paddingSwitch = int8_t(i32("padding"));
  out->leftPaddingSize = i32("left_padding_size");
  out->rightPaddingSize = i32("right_padding_size");
  out->topPaddingSize = i32("top_padding_size");
  out->bottomPaddingSize = i32("bottom_padding_size");
  out->cscSwitch = int8_t(i32("csc_switch"));
  out->rbuvSwapSwitch = int8_t(i32("rbuv_swap_switch"));
  out->axSwapSwitch = int8_t(i32("ax_swap_switch"));
  int32_t* m[] = {&out->matrixR0C0, &out->matrixR0C1, &out->matrixR0C2, &out->matrixR1C0, &out->matrixR1C1,
                  &out->matrixR1C2, &out->matrixR2C0, &out->matrixR2C1, &out->matrixR2C2};
  for (int k = 0; k < 9; ++k) *m[k] = i32(str("matrix_r", k / 3, "c", k % 3).c_str());
  int32_t* ob[] = {&out->outputBias0, &out->outputBias1, &out->outputBias2};
  int32_t* ib[] = {&out->inputBias0, &out->inputBias1, &out->inputBias2};
  for (int k = 0; k < 3; ++k) {
    *ob[k] = i32(str("output_bias_", k).c_str());
    *ib[k] = i32(str("input_bias_", k).c_str());
  }
  int32_t* mean[] = {&out->meanChn0, &out->meanChn1, &out->meanChn2, &out->meanChn3};
  float* mn[] = {&out->minChn0, &out->minChn1, &out->minChn2, &out->minChn3};
  float* var[] = {&out->varReciChn0, &out->varReciChn1, &out->varReciChn2, &out->varReciChn3};
  for (int k = 0; k < 4; ++k) {
    *mean[k] = i32(str("mean_chn_", k).c_str());
    *mn[k] = f(str("min_chn_", k).c_str());
    *var[k] = f(str("var_reci_chn_", k).c_str(), 1.0);
  }
  out->srcFormat = aclFormat(a.src_format);
  out->srcDatatype = aclDataType(a.src_dtype);
  out->srcDimNum = a.src_dims.size();
  out->shapeCount = 1;
  aclAippDims& d = out->outDims[0];
  auto fill = [&](aclmdlIODims& dst, const std::vector<int64_t>& dims) {
    std::strncpy(dst.name, io.name.c_str(), ACL_MAX_TENSOR_NAME_LEN - 1);
    dst.dimCount = dims.size();
    for (size_t k = 0; k < dims.size() && k < ACL_MAX_DIM_CNT; ++k) dst.dims[k] = dims[k];
  };
  fill(d.srcDims, io.aipp.dims_v2);
  d.srcSize = io.size;
  fill(d.aippOutdims, a.src_dims);
  // A dynamic-batch model has -1 in N: report the size of its largest batch, as the input size does.
  size_t per_image = 1, raw_per_image = 1;
  for (size_t k = 1; k < a.src_dims.size(); ++k) per_image *= size_t(a.src_dims[k]);
  for (size_t k = 1; k < a.dims_v2.size(); ++k) raw_per_image *= size_t(a.dims_v2[k]);
  const size_t n = a.src_dims[0] >= 0 ? size_t(a.src_dims[0]) : io.size / std::max<size_t>(raw_per_image, 1);
  d.aippOutSize = n * per_image * (a.src_dtype == ACL_FLOAT16 ? 2 : 4);
}

}  // namespace
}  // namespace acl_sim

extern "C" {

aclmdlAIPP* aclmdlCreateAIPP(uint64_t batchSize) {
  return api_value<aclmdlAIPP*>("aclmdlCreateAIPP", nullptr, [&] {
    ACL_SIM_REQUIRE(batchSize >= 1 && batchSize <= acl_sim::kMaxAippBatch, ACL_ERROR_INVALID_PARAM, "batchSize ",
                    batchSize, " is out of range [1, ", acl_sim::kMaxAippBatch, "]");
    auto a = std::make_shared<aclmdlAIPP>();
    a->params.batches.resize(size_t(batchSize));
    return acl_sim::aipp_sets().add(std::move(a));
  });
}

aclError aclmdlDestroyAIPP(const aclmdlAIPP* aippParmsSet) {
  return api_call("aclmdlDestroyAIPP", [&] {
    ACL_SIM_REQUIRE(aippParmsSet != nullptr, ACL_ERROR_INVALID_PARAM, "aippParmsSet is NULL");
    ACL_SIM_REQUIRE(acl_sim::aipp_sets().remove(aippParmsSet) != nullptr, ACL_ERROR_INVALID_PARAM,
                    "aippParmsSet is not a live aclmdlAIPP (double destroy?)");
  });
}

aclError aclmdlGetAippDataSize(uint64_t batchSize, size_t* size) {
  return api_call("aclmdlGetAippDataSize", [&] {
    ACL_SIM_REQUIRE(size != nullptr, ACL_ERROR_INVALID_PARAM, "size is NULL");
    ACL_SIM_REQUIRE(batchSize >= 1 && batchSize <= acl_sim::kMaxAippBatch, ACL_ERROR_INVALID_PARAM, "batchSize ",
                    batchSize, " is out of range [1, ", acl_sim::kMaxAippBatch, "]");
    *size = acl_sim::aipp_block_bytes(size_t(batchSize));
  });
}

aclError aclmdlSetAIPPInputFormat(aclmdlAIPP* aippParmsSet, aclAippInputFormat inputFormat) {
  return api_call("aclmdlSetAIPPInputFormat", [&] {
    auto a = acl_sim::require_aipp(aippParmsSet);
    ACL_SIM_REQUIRE(inputFormat >= ACL_YUV420SP_U8 && inputFormat <= ACL_YUV400_U8, ACL_ERROR_INVALID_PARAM,
                    "inputFormat ", int(inputFormat),
                    " is not supported (ACL_YUV420SP_U8, ACL_XRGB8888_U8, ACL_RGB888_U8, ACL_YUV400_U8)");
    a->params.format = int(inputFormat);
  });
}

aclError aclmdlSetAIPPCscParams(aclmdlAIPP* aippParmsSet, int8_t cscSwitch, int16_t r0c0, int16_t r0c1, int16_t r0c2,
                                int16_t r1c0, int16_t r1c1, int16_t r1c2, int16_t r2c0, int16_t r2c1, int16_t r2c2,
                                uint8_t ob0, uint8_t ob1, uint8_t ob2, uint8_t ib0, uint8_t ib1, uint8_t ib2) {
  return api_call("aclmdlSetAIPPCscParams", [&] {
    auto a = acl_sim::require_aipp(aippParmsSet);
    acl_sim::require_switch(cscSwitch, "cscSwitch");
    const int16_t m[9] = {r0c0, r0c1, r0c2, r1c0, r1c1, r1c2, r2c0, r2c1, r2c2};
    for (int16_t v : m)
      ACL_SIM_REQUIRE(v >= -32677 && v <= 32676, ACL_ERROR_INVALID_PARAM, "CSC matrix value ", v,
                      " is out of range [-32677, 32676]");
    a->params.csc = cscSwitch != 0;
    std::memcpy(a->params.matrix, m, sizeof(m));
    const uint8_t ob[3] = {ob0, ob1, ob2}, ib[3] = {ib0, ib1, ib2};
    std::memcpy(a->params.output_bias, ob, 3);
    std::memcpy(a->params.input_bias, ib, 3);
  });
}

aclError aclmdlSetAIPPRbuvSwapSwitch(aclmdlAIPP* aippParmsSet, int8_t rbuvSwapSwitch) {
  return api_call("aclmdlSetAIPPRbuvSwapSwitch", [&] {
    auto a = acl_sim::require_aipp(aippParmsSet);
    acl_sim::require_switch(rbuvSwapSwitch, "rbuvSwapSwitch");
    a->params.rbuv_swap = rbuvSwapSwitch != 0;
  });
}

aclError aclmdlSetAIPPAxSwapSwitch(aclmdlAIPP* aippParmsSet, int8_t axSwapSwitch) {
  return api_call("aclmdlSetAIPPAxSwapSwitch", [&] {
    auto a = acl_sim::require_aipp(aippParmsSet);
    acl_sim::require_switch(axSwapSwitch, "axSwapSwitch");
    a->params.ax_swap = axSwapSwitch != 0;
  });
}

aclError aclmdlSetAIPPSrcImageSize(aclmdlAIPP* aippParmsSet, int32_t srcImageSizeW, int32_t srcImageSizeH) {
  return api_call("aclmdlSetAIPPSrcImageSize", [&] {
    auto a = acl_sim::require_aipp(aippParmsSet);
    ACL_SIM_REQUIRE(srcImageSizeW >= 2 && srcImageSizeW <= 4096 && srcImageSizeH >= 1 && srcImageSizeH <= 4096,
                    ACL_ERROR_INVALID_PARAM, "source image size ", srcImageSizeW, "x", srcImageSizeH,
                    " is out of range (w in [2, 4096], h in [1, 4096])");
    a->params.src_w = srcImageSizeW;
    a->params.src_h = srcImageSizeH;
  });
}

aclError aclmdlSetAIPPScfParams(aclmdlAIPP* aippParmsSet, int8_t scfSwitch, int32_t scfInputSizeW,
                                int32_t scfInputSizeH, int32_t scfOutputSizeW, int32_t scfOutputSizeH,
                                uint64_t batchIndex) {
  return api_call("aclmdlSetAIPPScfParams", [&] {
    auto a = acl_sim::require_aipp(aippParmsSet);
    acl_sim::require_switch(scfSwitch, "scfSwitch");
    auto& q = acl_sim::batch_at(*a, batchIndex);
    ACL_SIM_REQUIRE(scfSwitch == 0, ACL_ERROR_FEATURE_UNSUPPORTED, "AIPP resize (scfSwitch 1) is not supported by "
                    "acl_sim");
    q.scf = false;
    q.scf_in_w = scfInputSizeW;
    q.scf_in_h = scfInputSizeH;
    q.scf_out_w = scfOutputSizeW;
    q.scf_out_h = scfOutputSizeH;
  });
}

aclError aclmdlSetAIPPCropParams(aclmdlAIPP* aippParmsSet, int8_t cropSwitch, int32_t cropStartPosW,
                                 int32_t cropStartPosH, int32_t cropSizeW, int32_t cropSizeH, uint64_t batchIndex) {
  return api_call("aclmdlSetAIPPCropParams", [&] {
    auto a = acl_sim::require_aipp(aippParmsSet);
    acl_sim::require_switch(cropSwitch, "cropSwitch");
    auto& q = acl_sim::batch_at(*a, batchIndex);
    if (cropSwitch)
      ACL_SIM_REQUIRE(cropStartPosW >= 0 && cropStartPosW <= 4095 && cropStartPosH >= 0 && cropStartPosH <= 4095 &&
                          cropSizeW >= 1 && cropSizeW <= 4096 && cropSizeH >= 1 && cropSizeH <= 4096,
                      ACL_ERROR_INVALID_PARAM, "crop ", cropSizeW, "x", cropSizeH, " at (", cropStartPosW, ",",
                      cropStartPosH, ") is out of range (start in [0, 4095], size in [1, 4096])");
    q.crop = cropSwitch != 0;
    q.crop_x = cropStartPosW;
    q.crop_y = cropStartPosH;
    q.crop_w = cropSizeW;
    q.crop_h = cropSizeH;
  });
}

aclError aclmdlSetAIPPPaddingParams(aclmdlAIPP* aippParmsSet, int8_t paddingSwitch, int32_t top, int32_t bottom,
                                    int32_t left, int32_t right, uint64_t batchIndex) {
  return api_call("aclmdlSetAIPPPaddingParams", [&] {
    auto a = acl_sim::require_aipp(aippParmsSet);
    acl_sim::require_switch(paddingSwitch, "paddingSwitch");
    auto& q = acl_sim::batch_at(*a, batchIndex);
    for (int32_t v : {top, bottom, left, right})
      ACL_SIM_REQUIRE(v >= 0 && v <= 32, ACL_ERROR_INVALID_PARAM, "padding size ", v, " is out of range [0, 32]");
    q.padding = paddingSwitch != 0;
    q.pad_top = top;
    q.pad_bottom = bottom;
    q.pad_left = left;
    q.pad_right = right;
  });
}

aclError aclmdlSetAIPPDtcPixelMean(aclmdlAIPP* aippParmsSet, int16_t m0, int16_t m1, int16_t m2, int16_t m3,
                                   uint64_t batchIndex) {
  return api_call("aclmdlSetAIPPDtcPixelMean", [&] {
    auto a = acl_sim::require_aipp(aippParmsSet);
    auto& q = acl_sim::batch_at(*a, batchIndex);
    const int16_t m[4] = {m0, m1, m2, m3};
    for (int16_t v : m)
      ACL_SIM_REQUIRE(v >= 0 && v <= 255, ACL_ERROR_INVALID_PARAM, "pixel mean ", v, " is out of range [0, 255]");
    std::memcpy(q.mean, m, sizeof(m));
  });
}

aclError aclmdlSetAIPPDtcPixelMin(aclmdlAIPP* aippParmsSet, float m0, float m1, float m2, float m3,
                                  uint64_t batchIndex) {
  return api_call("aclmdlSetAIPPDtcPixelMin", [&] {
    auto a = acl_sim::require_aipp(aippParmsSet);
    auto& q = acl_sim::batch_at(*a, batchIndex);
    const float m[4] = {m0, m1, m2, m3};
    for (float v : m) acl_sim::require_fp16_range(v, 0.f, 255.f, "pixel min");
    std::memcpy(q.min, m, sizeof(m));
  });
}

aclError aclmdlSetAIPPPixelVarReci(aclmdlAIPP* aippParmsSet, float v0, float v1, float v2, float v3,
                                   uint64_t batchIndex) {
  return api_call("aclmdlSetAIPPPixelVarReci", [&] {
    auto a = acl_sim::require_aipp(aippParmsSet);
    auto& q = acl_sim::batch_at(*a, batchIndex);
    const float v[4] = {v0, v1, v2, v3};
    for (float x : v) acl_sim::require_fp16_range(x, -65504.f, 65504.f, "pixel variance reciprocal");
    std::memcpy(q.var_reci, v, sizeof(v));
  });
}

aclError aclmdlSetInputAIPP(uint32_t modelId, aclmdlDataset* dataset, size_t index, const aclmdlAIPP* aippParmsSet) {
  return api_call("aclmdlSetInputAIPP", [&] {
    acl_sim::set_input_aipp("aclmdlSetInputAIPP", modelId, dataset, index, aippParmsSet, false);
  });
}

aclError aclmdlSetAIPPByInputIndex(uint32_t modelId, aclmdlDataset* dataset, size_t index,
                                   const aclmdlAIPP* aippParmsSet) {
  return api_call("aclmdlSetAIPPByInputIndex", [&] {
    acl_sim::set_input_aipp("aclmdlSetAIPPByInputIndex", modelId, dataset, index, aippParmsSet, true);
  });
}

aclError aclmdlGetAippType(uint32_t modelId, size_t index, aclmdlInputAippType* type,
                           size_t* dynamicAttachedDataIndex) {
  return api_call("aclmdlGetAippType", [&] {
    ACL_SIM_REQUIRE(type != nullptr && dynamicAttachedDataIndex != nullptr, ACL_ERROR_INVALID_PARAM,
                    "type or dynamicAttachedDataIndex is NULL");
    auto lm = acl_sim::ModelTable::instance().require(modelId);
    const acl_sim::ModelIO& io = lm->model->io();
    ACL_SIM_REQUIRE(index < io.inputs.size(), ACL_ERROR_INVALID_PARAM, "index ", index,
                    " is out of range: the model has ", io.inputs.size(), " inputs");
    const acl_sim::AippInfo& a = io.inputs[index].aipp;
    *dynamicAttachedDataIndex = std::numeric_limits<size_t>::max();
    switch (a.kind) {
      case acl_sim::AippInfo::Kind::Static: *type = ACL_DATA_WITH_STATIC_AIPP; break;
      case acl_sim::AippInfo::Kind::Dynamic:
        *type = ACL_DATA_WITH_DYNAMIC_AIPP;
        *dynamicAttachedDataIndex = size_t(a.data_input_index);
        break;
      case acl_sim::AippInfo::Kind::DynamicData: *type = ACL_DYNAMIC_AIPP_NODE; break;
      default: *type = ACL_DATA_WITHOUT_AIPP;
    }
  });
}

aclError aclmdlGetFirstAippInfo(uint32_t modelId, size_t index, aclAippInfo* aippInfo) {
  return api_call("aclmdlGetFirstAippInfo", [&] {
    ACL_SIM_REQUIRE(aippInfo != nullptr, ACL_ERROR_INVALID_PARAM, "aippInfo is NULL");
    auto lm = acl_sim::ModelTable::instance().require(modelId);
    const acl_sim::ModelIO& io = lm->model->io();
    ACL_SIM_REQUIRE(index < io.inputs.size(), ACL_ERROR_INVALID_PARAM, "index ", index,
                    " is out of range: the model has ", io.inputs.size(), " inputs");
    ACL_SIM_REQUIRE(io.inputs[index].aipp.kind == acl_sim::AippInfo::Kind::Static, ACL_ERROR_NOT_STATIC_AIPP,
                    "input ", index, " (", io.inputs[index].name, ") has no static AIPP");
    acl_sim::fill_static_info(io.inputs[index], aippInfo);
  });
}

}  // extern "C"
