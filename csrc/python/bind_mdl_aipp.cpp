// acl.mdl AIPP functions over the C API (acl_mdl.h): the dynamic-AIPP parameter
// set and its setters, set_input_aipp, and the queries. pyACL's shapes: setters
// return ret; create_aipp returns the handle; queries return (values..., ret).
#include <pybind11/stl.h>

#include "acl/acl_mdl.h"
#include "python/bindings.h"

namespace acl_sim::py_bind {

namespace {

aclmdlAIPP* AP(uintptr_t v) { return static_cast<aclmdlAIPP*>(as_ptr(v)); }
aclmdlDataset* DS(uintptr_t v) { return static_cast<aclmdlDataset*>(as_ptr(v)); }

py::dict dims_dict(const aclmdlIODims& d) {
  py::dict out;
  out["name"] = std::string(d.name);
  out["dimCount"] = d.dimCount;
  py::list dims;
  for (size_t i = 0; i < d.dimCount && i < ACL_MAX_DIM_CNT; ++i) dims.append(d.dims[i]);
  out["dims"] = dims;
  return out;
}

py::dict info_dict(const aclAippInfo& a) {
  py::dict d;
#define ACL_SIM_FIELD(f) d[#f] = a.f
  ACL_SIM_FIELD(srcImageSizeW);
  ACL_SIM_FIELD(srcImageSizeH);
  ACL_SIM_FIELD(cropSwitch);
  ACL_SIM_FIELD(loadStartPosW);
  ACL_SIM_FIELD(loadStartPosH);
  ACL_SIM_FIELD(cropSizeW);
  ACL_SIM_FIELD(cropSizeH);
  ACL_SIM_FIELD(resizeSwitch);
  ACL_SIM_FIELD(resizeOutputW);
  ACL_SIM_FIELD(resizeOutputH);
  ACL_SIM_FIELD(paddingSwitch);
  ACL_SIM_FIELD(leftPaddingSize);
  ACL_SIM_FIELD(rightPaddingSize);
  ACL_SIM_FIELD(topPaddingSize);
  ACL_SIM_FIELD(bottomPaddingSize);
  ACL_SIM_FIELD(cscSwitch);
  ACL_SIM_FIELD(rbuvSwapSwitch);
  ACL_SIM_FIELD(axSwapSwitch);
  ACL_SIM_FIELD(singleLineMode);
  ACL_SIM_FIELD(matrixR0C0);
  ACL_SIM_FIELD(matrixR0C1);
  ACL_SIM_FIELD(matrixR0C2);
  ACL_SIM_FIELD(matrixR1C0);
  ACL_SIM_FIELD(matrixR1C1);
  ACL_SIM_FIELD(matrixR1C2);
  ACL_SIM_FIELD(matrixR2C0);
  ACL_SIM_FIELD(matrixR2C1);
  ACL_SIM_FIELD(matrixR2C2);
  ACL_SIM_FIELD(outputBias0);
  ACL_SIM_FIELD(outputBias1);
  ACL_SIM_FIELD(outputBias2);
  ACL_SIM_FIELD(inputBias0);
  ACL_SIM_FIELD(inputBias1);
  ACL_SIM_FIELD(inputBias2);
  ACL_SIM_FIELD(meanChn0);
  ACL_SIM_FIELD(meanChn1);
  ACL_SIM_FIELD(meanChn2);
  ACL_SIM_FIELD(meanChn3);
  ACL_SIM_FIELD(minChn0);
  ACL_SIM_FIELD(minChn1);
  ACL_SIM_FIELD(minChn2);
  ACL_SIM_FIELD(minChn3);
  ACL_SIM_FIELD(varReciChn0);
  ACL_SIM_FIELD(varReciChn1);
  ACL_SIM_FIELD(varReciChn2);
  ACL_SIM_FIELD(varReciChn3);
  ACL_SIM_FIELD(srcDimNum);
  ACL_SIM_FIELD(shapeCount);
#undef ACL_SIM_FIELD
  d["inputFormat"] = static_cast<int>(a.inputFormat);
  d["srcFormat"] = static_cast<int>(a.srcFormat);
  d["srcDatatype"] = static_cast<int>(a.srcDatatype);
  py::list outs;
  for (size_t i = 0; i < a.shapeCount && i < ACL_MAX_SHAPE_COUNT; ++i) {
    py::dict o;
    o["srcDims"] = dims_dict(a.outDims[i].srcDims);
    o["srcSize"] = a.outDims[i].srcSize;
    o["aippOutdims"] = dims_dict(a.outDims[i].aippOutdims);
    o["aippOutSize"] = a.outDims[i].aippOutSize;
    outs.append(o);
  }
  d["outDims"] = outs;
  return d;
}

}  // namespace

void bind_mdl_aipp(py::module_& mdl) {
  mdl.def("create_aipp", [](uint64_t batch) { return as_int(aclmdlCreateAIPP(batch)); });
  mdl.def("destroy_aipp", [](uintptr_t a) { return aclmdlDestroyAIPP(AP(a)); });
  mdl.def("get_aipp_data_size", [](uint64_t batch) {
    size_t size = 0;
    aclError ret = aclmdlGetAippDataSize(batch, &size);
    return py::make_tuple(size, ret);
  });
  mdl.def("set_aipp_input_format",
          [](uintptr_t a, int fmt) { return aclmdlSetAIPPInputFormat(AP(a), static_cast<aclAippInputFormat>(fmt)); });
  mdl.def("set_aipp_csc_params", [](uintptr_t a, int sw, int16_t m00, int16_t m01, int16_t m02, int16_t m10,
                                    int16_t m11, int16_t m12, int16_t m20, int16_t m21, int16_t m22, uint8_t ob0,
                                    uint8_t ob1, uint8_t ob2, uint8_t ib0, uint8_t ib1, uint8_t ib2) {
    return aclmdlSetAIPPCscParams(AP(a), static_cast<int8_t>(sw), m00, m01, m02, m10, m11, m12, m20, m21, m22, ob0,
                                  ob1, ob2, ib0, ib1, ib2);
  });
  mdl.def("set_aipp_rbuv_swap_switch",
          [](uintptr_t a, int sw) { return aclmdlSetAIPPRbuvSwapSwitch(AP(a), static_cast<int8_t>(sw)); });
  mdl.def("set_aipp_ax_swap_switch",
          [](uintptr_t a, int sw) { return aclmdlSetAIPPAxSwapSwitch(AP(a), static_cast<int8_t>(sw)); });
  mdl.def("set_aipp_src_image_size",
          [](uintptr_t a, int32_t w, int32_t h) { return aclmdlSetAIPPSrcImageSize(AP(a), w, h); });
  mdl.def("set_aipp_scf_params", [](uintptr_t a, int sw, int32_t iw, int32_t ih, int32_t ow, int32_t oh,
                                    uint64_t b) {
    return aclmdlSetAIPPScfParams(AP(a), static_cast<int8_t>(sw), iw, ih, ow, oh, b);
  });
  mdl.def("set_aipp_crop_params", [](uintptr_t a, int sw, int32_t x, int32_t y, int32_t w, int32_t h, uint64_t b) {
    return aclmdlSetAIPPCropParams(AP(a), static_cast<int8_t>(sw), x, y, w, h, b);
  });
  mdl.def("set_aipp_padding_params", [](uintptr_t a, int sw, int32_t t, int32_t bo, int32_t l, int32_t r,
                                        uint64_t b) {
    return aclmdlSetAIPPPaddingParams(AP(a), static_cast<int8_t>(sw), t, bo, l, r, b);
  });
  mdl.def("set_aipp_dtc_pixel_mean", [](uintptr_t a, int16_t m0, int16_t m1, int16_t m2, int16_t m3, uint64_t b) {
    return aclmdlSetAIPPDtcPixelMean(AP(a), m0, m1, m2, m3, b);
  });
  mdl.def("set_aipp_dtc_pixel_min", [](uintptr_t a, float m0, float m1, float m2, float m3, uint64_t b) {
    return aclmdlSetAIPPDtcPixelMin(AP(a), m0, m1, m2, m3, b);
  });
  mdl.def("set_aipp_pixel_var_reci", [](uintptr_t a, float v0, float v1, float v2, float v3, uint64_t b) {
    return aclmdlSetAIPPPixelVarReci(AP(a), v0, v1, v2, v3, b);
  });
  mdl.def("set_input_aipp", [](uint32_t id, uintptr_t ds, size_t index, uintptr_t a) {
    return aclmdlSetInputAIPP(id, DS(ds), index, AP(a));
  });
  mdl.def("set_aipp_by_input_index", [](uint32_t id, uintptr_t ds, size_t index, uintptr_t a) {
    return aclmdlSetAIPPByInputIndex(id, DS(ds), index, AP(a));
  });
  mdl.def("get_aipp_type", [](uint32_t id, size_t index) {
    aclmdlInputAippType type = ACL_DATA_WITHOUT_AIPP;
    size_t attached = 0;
    aclError ret = aclmdlGetAippType(id, index, &type, &attached);
    return py::make_tuple(static_cast<int>(type), attached, ret);
  });
  mdl.def("get_first_aipp_info", [](uint32_t id, size_t index) {
    aclAippInfo info{};
    aclError ret = aclmdlGetFirstAippInfo(id, index, &info);
    return py::make_tuple(ret == ACL_SUCCESS ? info_dict(info) : py::dict(), ret);
  });
}

}  // namespace acl_sim::py_bind
