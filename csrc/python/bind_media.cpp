// `acl.media`: DVPP over acl/ops/acl_dvpp.h, with pyACL's names and shapes (ints for handles and pointers,
// (out..., ret) tuples, bare ret otherwise; getters return the value).
#include <pybind11/stl.h>

#include <vector>

#include <acl/acl.h>
#include <acl/ops/acl_dvpp.h>

#include "python/bindings.h"

namespace acl_sim::py_bind {

namespace {

acldvppChannelDesc* CH(uintptr_t v) { return static_cast<acldvppChannelDesc*>(as_ptr(v)); }
acldvppPicDesc* PD(uintptr_t v) { return static_cast<acldvppPicDesc*>(as_ptr(v)); }
acldvppBatchPicDesc* BD(uintptr_t v) { return static_cast<acldvppBatchPicDesc*>(as_ptr(v)); }
acldvppRoiConfig* ROI(uintptr_t v) { return static_cast<acldvppRoiConfig*>(as_ptr(v)); }
acldvppResizeConfig* RC(uintptr_t v) { return static_cast<acldvppResizeConfig*>(as_ptr(v)); }
acldvppJpegeConfig* JC(uintptr_t v) { return static_cast<acldvppJpegeConfig*>(as_ptr(v)); }

std::vector<acldvppRoiConfig*> rois(const std::vector<uintptr_t>& v) {
  std::vector<acldvppRoiConfig*> out;
  for (uintptr_t h : v) out.push_back(ROI(h));
  return out;
}

}  // namespace

void bind_media(py::module_& m) {
  using nogil = py::gil_scoped_release;

  // ---- memory
  m.def("dvpp_malloc", [](size_t size) {
    void* p = nullptr;
    aclError ret = acldvppMalloc(&p, size);
    return py::make_tuple(as_int(p), ret);
  });
  m.def("dvpp_free", [](uintptr_t p) { return acldvppFree(as_ptr(p)); });

  // ---- channels
  m.def("dvpp_create_channel_desc", [] { return as_int(acldvppCreateChannelDesc()); });
  m.def("dvpp_destroy_channel_desc", [](uintptr_t c) { return acldvppDestroyChannelDesc(CH(c)); });
  m.def("dvpp_set_channel_desc_mode", [](uintptr_t c, uint32_t mode) { return acldvppSetChannelDescMode(CH(c), mode); });
  m.def("dvpp_get_channel_desc_channel_id", [](uintptr_t c) { return acldvppGetChannelDescChannelId(CH(c)); });
  m.def("dvpp_create_channel", [](uintptr_t c) { return acldvppCreateChannel(CH(c)); });
  m.def("dvpp_destroy_channel", [](uintptr_t c) {
    nogil g;
    return acldvppDestroyChannel(CH(c));
  });

  // ---- picture descriptions
  m.def("dvpp_create_pic_desc", [] { return as_int(acldvppCreatePicDesc()); });
  m.def("dvpp_destroy_pic_desc", [](uintptr_t d) { return acldvppDestroyPicDesc(PD(d)); });
  m.def("dvpp_set_pic_desc_data", [](uintptr_t d, uintptr_t p) { return acldvppSetPicDescData(PD(d), as_ptr(p)); });
  m.def("dvpp_set_pic_desc_size", [](uintptr_t d, uint32_t v) { return acldvppSetPicDescSize(PD(d), v); });
  m.def("dvpp_set_pic_desc_format",
        [](uintptr_t d, int v) { return acldvppSetPicDescFormat(PD(d), static_cast<acldvppPixelFormat>(v)); });
  m.def("dvpp_set_pic_desc_width", [](uintptr_t d, uint32_t v) { return acldvppSetPicDescWidth(PD(d), v); });
  m.def("dvpp_set_pic_desc_height", [](uintptr_t d, uint32_t v) { return acldvppSetPicDescHeight(PD(d), v); });
  m.def("dvpp_set_pic_desc_width_stride",
        [](uintptr_t d, uint32_t v) { return acldvppSetPicDescWidthStride(PD(d), v); });
  m.def("dvpp_set_pic_desc_height_stride",
        [](uintptr_t d, uint32_t v) { return acldvppSetPicDescHeightStride(PD(d), v); });
  m.def("dvpp_set_pic_desc_ret_code", [](uintptr_t d, uint32_t v) { return acldvppSetPicDescRetCode(PD(d), v); });
  m.def("dvpp_get_pic_desc_data", [](uintptr_t d) { return as_int(acldvppGetPicDescData(PD(d))); });
  m.def("dvpp_get_pic_desc_size", [](uintptr_t d) { return acldvppGetPicDescSize(PD(d)); });
  m.def("dvpp_get_pic_desc_format", [](uintptr_t d) { return static_cast<int>(acldvppGetPicDescFormat(PD(d))); });
  m.def("dvpp_get_pic_desc_width", [](uintptr_t d) { return acldvppGetPicDescWidth(PD(d)); });
  m.def("dvpp_get_pic_desc_height", [](uintptr_t d) { return acldvppGetPicDescHeight(PD(d)); });
  m.def("dvpp_get_pic_desc_width_stride", [](uintptr_t d) { return acldvppGetPicDescWidthStride(PD(d)); });
  m.def("dvpp_get_pic_desc_height_stride", [](uintptr_t d) { return acldvppGetPicDescHeightStride(PD(d)); });
  m.def("dvpp_get_pic_desc_ret_code", [](uintptr_t d) { return acldvppGetPicDescRetCode(PD(d)); });

  m.def("dvpp_create_batch_pic_desc", [](uint32_t n) { return as_int(acldvppCreateBatchPicDesc(n)); });
  m.def("dvpp_get_pic_desc", [](uintptr_t b, uint32_t i) { return as_int(acldvppGetPicDesc(BD(b), i)); });
  m.def("dvpp_destroy_batch_pic_desc", [](uintptr_t b) { return acldvppDestroyBatchPicDesc(BD(b)); });

  // ---- ROI / resize / jpege configurations
  m.def("dvpp_create_roi_config", [](uint32_t l, uint32_t r, uint32_t t, uint32_t b) {
    return as_int(acldvppCreateRoiConfig(l, r, t, b));
  });
  m.def("dvpp_destroy_roi_config", [](uintptr_t c) { return acldvppDestroyRoiConfig(ROI(c)); });
  m.def("dvpp_set_roi_config_left", [](uintptr_t c, uint32_t v) { return acldvppSetRoiConfigLeft(ROI(c), v); });
  m.def("dvpp_set_roi_config_right", [](uintptr_t c, uint32_t v) { return acldvppSetRoiConfigRight(ROI(c), v); });
  m.def("dvpp_set_roi_config_top", [](uintptr_t c, uint32_t v) { return acldvppSetRoiConfigTop(ROI(c), v); });
  m.def("dvpp_set_roi_config_bottom", [](uintptr_t c, uint32_t v) { return acldvppSetRoiConfigBottom(ROI(c), v); });
  m.def("dvpp_set_roi_config", [](uintptr_t c, uint32_t l, uint32_t r, uint32_t t, uint32_t b) {
    return acldvppSetRoiConfig(ROI(c), l, r, t, b);
  });
  m.def("dvpp_create_resize_config", [] { return as_int(acldvppCreateResizeConfig()); });
  m.def("dvpp_destroy_resize_config", [](uintptr_t c) { return acldvppDestroyResizeConfig(RC(c)); });
  m.def("dvpp_set_resize_config_interpolation",
        [](uintptr_t c, uint32_t v) { return acldvppSetResizeConfigInterpolation(RC(c), v); });
  m.def("dvpp_get_resize_config_interpolation",
        [](uintptr_t c) { return acldvppGetResizeConfigInterpolation(RC(c)); });
  m.def("dvpp_create_jpege_config", [] { return as_int(acldvppCreateJpegeConfig()); });
  m.def("dvpp_destroy_jpege_config", [](uintptr_t c) { return acldvppDestroyJpegeConfig(JC(c)); });
  m.def("dvpp_set_jpege_config_level", [](uintptr_t c, uint32_t v) { return acldvppSetJpegeConfigLevel(JC(c), v); });
  m.def("dvpp_get_jpege_config_level", [](uintptr_t c) { return acldvppGetJpegeConfigLevel(JC(c)); });

  // ---- image information and sizes
  m.def("dvpp_jpeg_get_image_info", [](uintptr_t data, uint32_t size) {
    uint32_t w = 0, h = 0;
    int32_t c = 0;
    aclError ret = acldvppJpegGetImageInfo(as_ptr(data), size, &w, &h, &c);
    return py::make_tuple(w, h, c, ret);
  });
  m.def("dvpp_jpeg_get_image_info_v2", [](uintptr_t data, uint32_t size) {
    uint32_t w = 0, h = 0;
    int32_t c = 0;
    acldvppJpegFormat f = ACL_JPEG_CSS_UNKNOWN;
    aclError ret = acldvppJpegGetImageInfoV2(as_ptr(data), size, &w, &h, &c, &f);
    return py::make_tuple(w, h, c, static_cast<int>(f), ret);
  });
  m.def("dvpp_jpeg_predict_dec_size", [](uintptr_t data, uint32_t size, int fmt) {
    uint32_t n = 0;
    aclError ret = acldvppJpegPredictDecSize(as_ptr(data), size, static_cast<acldvppPixelFormat>(fmt), &n);
    return py::make_tuple(n, ret);
  });
  m.def("dvpp_jpeg_predict_enc_size", [](uintptr_t desc, uintptr_t cfg) {
    uint32_t n = 0;
    aclError ret = acldvppJpegPredictEncSize(PD(desc), JC(cfg), &n);
    return py::make_tuple(n, ret);
  });
  m.def("dvpp_png_get_image_info", [](uintptr_t data, uint32_t size) {
    uint32_t w = 0, h = 0;
    int32_t c = 0;
    aclError ret = acldvppPngGetImageInfo(as_ptr(data), size, &w, &h, &c);
    return py::make_tuple(w, h, c, ret);
  });
  m.def("dvpp_png_predict_dec_size", [](uintptr_t data, uint32_t size, int fmt) {
    uint32_t n = 0;
    aclError ret = acldvppPngPredictDecSize(as_ptr(data), size, static_cast<acldvppPixelFormat>(fmt), &n);
    return py::make_tuple(n, ret);
  });

  // ---- codecs
  m.def("dvpp_jpeg_decode_async", [](uintptr_t ch, uintptr_t data, uint32_t size, uintptr_t out, uintptr_t stream) {
    nogil g;
    return acldvppJpegDecodeAsync(CH(ch), as_ptr(data), size, PD(out), as_ptr(stream));
  });
  // pyACL passes the in/out size as a pointer (bytes_to_ptr of an int32 array) that must outlive the task
  m.def("dvpp_jpeg_encode_async", [](uintptr_t ch, uintptr_t in, uintptr_t data, uintptr_t size_ptr, uintptr_t cfg,
                                     uintptr_t stream) {
    nogil g;
    return acldvppJpegEncodeAsync(CH(ch), PD(in), as_ptr(data), static_cast<uint32_t*>(as_ptr(size_ptr)), JC(cfg),
                                  as_ptr(stream));
  });
  m.def("dvpp_png_decode_async", [](uintptr_t ch, uintptr_t data, uint32_t size, uintptr_t out, uintptr_t stream) {
    nogil g;
    return acldvppPngDecodeAsync(CH(ch), as_ptr(data), size, PD(out), as_ptr(stream));
  });

  // ---- VPC
  m.def("dvpp_vpc_resize_async", [](uintptr_t ch, uintptr_t in, uintptr_t out, uintptr_t cfg, uintptr_t stream) {
    nogil g;
    return acldvppVpcResizeAsync(CH(ch), PD(in), PD(out), RC(cfg), as_ptr(stream));
  });
  m.def("dvpp_vpc_crop_async", [](uintptr_t ch, uintptr_t in, uintptr_t out, uintptr_t crop, uintptr_t stream) {
    nogil g;
    return acldvppVpcCropAsync(CH(ch), PD(in), PD(out), ROI(crop), as_ptr(stream));
  });
  m.def("dvpp_vpc_crop_resize_async",
        [](uintptr_t ch, uintptr_t in, uintptr_t out, uintptr_t crop, uintptr_t cfg, uintptr_t stream) {
          nogil g;
          return acldvppVpcCropResizeAsync(CH(ch), PD(in), PD(out), ROI(crop), RC(cfg), as_ptr(stream));
        });
  m.def("dvpp_vpc_crop_and_paste_async",
        [](uintptr_t ch, uintptr_t in, uintptr_t out, uintptr_t crop, uintptr_t paste, uintptr_t stream) {
          nogil g;
          return acldvppVpcCropAndPasteAsync(CH(ch), PD(in), PD(out), ROI(crop), ROI(paste), as_ptr(stream));
        });
  m.def("dvpp_vpc_crop_resize_paste_async", [](uintptr_t ch, uintptr_t in, uintptr_t out, uintptr_t crop,
                                               uintptr_t paste, uintptr_t cfg, uintptr_t stream) {
    nogil g;
    return acldvppVpcCropResizePasteAsync(CH(ch), PD(in), PD(out), ROI(crop), ROI(paste), RC(cfg), as_ptr(stream));
  });
  // pyACL: dst_batch_pic_descs, ret = dvpp_vpc_batch_crop_async(channel, src, roi_nums_list, dst, crop_list, stream)
  m.def("dvpp_vpc_batch_crop_async", [](uintptr_t ch, uintptr_t src, std::vector<uint32_t> nums, uintptr_t dst,
                                        const std::vector<uintptr_t>& crops, uintptr_t stream) {
    auto c = rois(crops);
    aclError ret;
    {
      nogil g;
      ret = acldvppVpcBatchCropAsync(CH(ch), BD(src), nums.data(), static_cast<uint32_t>(nums.size()), BD(dst),
                                     c.data(), as_ptr(stream));
    }
    return py::make_tuple(dst, ret);
  });
  m.def("dvpp_vpc_batch_crop_resize_async", [](uintptr_t ch, uintptr_t src, std::vector<uint32_t> nums, uintptr_t dst,
                                               const std::vector<uintptr_t>& crops, uintptr_t cfg, uintptr_t stream) {
    auto c = rois(crops);
    aclError ret;
    {
      nogil g;
      ret = acldvppVpcBatchCropResizeAsync(CH(ch), BD(src), nums.data(), static_cast<uint32_t>(nums.size()), BD(dst),
                                           c.data(), RC(cfg), as_ptr(stream));
    }
    return py::make_tuple(dst, ret);
  });
  m.def("dvpp_vpc_batch_crop_and_paste_async",
        [](uintptr_t ch, uintptr_t src, std::vector<uint32_t> nums, uintptr_t dst, const std::vector<uintptr_t>& crops,
           const std::vector<uintptr_t>& pastes, uintptr_t stream) -> py::tuple {
          auto c = rois(crops);
          auto p = rois(pastes);
          if (c.size() != p.size()) return py::make_tuple(dst, static_cast<aclError>(ACL_ERROR_INVALID_PARAM));
          aclError ret;
          {
            nogil g;
            ret = acldvppVpcBatchCropAndPasteAsync(CH(ch), BD(src), nums.data(), static_cast<uint32_t>(nums.size()),
                                                   BD(dst), c.data(), p.data(), as_ptr(stream));
          }
          return py::make_tuple(dst, ret);
        });
  m.def("dvpp_vpc_convert_color_async", [](uintptr_t ch, uintptr_t in, uintptr_t out, uintptr_t stream) {
    nogil g;
    return acldvppVpcConvertColorAsync(CH(ch), PD(in), PD(out), as_ptr(stream));
  });
}

}  // namespace acl_sim::py_bind
