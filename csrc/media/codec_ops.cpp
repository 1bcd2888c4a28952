#include "media/codec_ops.h"

#include <algorithm>
#include <cstring>

#include "acl/acl_base.h"
#include "acl/ops/acl_dvpp.h"
#include "common/error.h"
#include "media/dvpp_rules.h"
#include "media/jpeg_codec.h"
#include "media/png_codec.h"
#include "runtime/stream.h"

namespace acl_sim::media {

namespace {

const uint8_t* bytes(const void* data, uint32_t size, const char* what) {
  ACL_SIM_REQUIRE(data, ACL_ERROR_INVALID_PARAM, what, " must not be NULL");
  ACL_SIM_REQUIRE(size > 0, ACL_ERROR_INVALID_PARAM, what, " size must be > 0");
  return static_cast<const uint8_t*>(data);
}

const char* css_name(int css) {
  switch (css) {
    case ACL_JPEG_CSS_444: return "4:4:4";
    case ACL_JPEG_CSS_422: return "4:2:2";
    case ACL_JPEG_CSS_420: return "4:2:0";
    case ACL_JPEG_CSS_GRAY: return "greyscale";
    case ACL_JPEG_CSS_440: return "4:4:0";
    case ACL_JPEG_CSS_411: return "4:1:1";
    default: return "unknown";
  }
}

/** JPEGD's output formats for a source subsampling: YUV420SP always, plus the source's own 422SP/444SP. */
bool jpegd_takes(int css, int format) {
  if (format == PIXEL_FORMAT_YUV_SEMIPLANAR_420 || format == PIXEL_FORMAT_YVU_SEMIPLANAR_420) return true;
  if (css == ACL_JPEG_CSS_422) return format == PIXEL_FORMAT_YUV_SEMIPLANAR_422 || format == PIXEL_FORMAT_YVU_SEMIPLANAR_422;
  if (css == ACL_JPEG_CSS_444) return format == PIXEL_FORMAT_YUV_SEMIPLANAR_444 || format == PIXEL_FORMAT_YVU_SEMIPLANAR_444;
  return false;
}

/** The header, checked against what JPEGD decodes (ACL_ERROR_UNSUPPORTED_JPEG otherwise). */
JpegInfo decodable_jpeg(const uint8_t* data, uint32_t size) {
  JpegInfo info = jpeg_read_info(data, size);
  ACL_SIM_REQUIRE(!info.progressive && !info.arithmetic, ACL_ERROR_UNSUPPORTED_JPEG, "the JPEG is ",
                  info.progressive ? "progressive" : "arithmetic-coded",
                  ": JPEGD decodes baseline Huffman JPEGs only");
  ACL_SIM_REQUIRE(info.ycbcr_or_gray && info.subsampling != ACL_JPEG_CSS_UNKNOWN, ACL_ERROR_UNSUPPORTED_JPEG,
                  "the JPEG has ", info.components, " components / an unsupported colour space or subsampling: "
                  "JPEGD decodes YCbCr 4:4:4/4:2:2/4:2:0/4:4:0/4:1:1 and greyscale");
  ACL_SIM_REQUIRE(info.width >= kJpegd.min_w && info.width <= kJpegd.max_w && info.height >= kJpegd.min_h &&
                      info.height <= kJpegd.max_h,
                  ACL_ERROR_UNSUPPORTED_JPEG, "the JPEG is ", info.width, "x", info.height, ": JPEGD decodes ",
                  kJpegd.min_w, "x", kJpegd.min_h, " to ", kJpegd.max_w, "x", kJpegd.max_h);
  return info;
}

uint32_t checked_u32(uint64_t v, const char* what) {
  ACL_SIM_REQUIRE(v <= UINT32_MAX, ACL_ERROR_INVALID_PARAM, what, " ", v, " does not fit in 32 bits");
  return static_cast<uint32_t>(v);
}

}  // namespace

void jpeg_image_info(const void* data, uint32_t size, uint32_t* w, uint32_t* h, int32_t* components, int* format) {
  JpegInfo info = jpeg_read_info(bytes(data, size, "data"), size);
  if (w) *w = info.width;
  if (h) *h = info.height;
  if (components) *components = info.components;
  if (format) *format = info.subsampling;
}

uint32_t jpeg_predict_dec_size(const void* data, uint32_t size, int out_format) {
  JpegInfo info = decodable_jpeg(bytes(data, size, "data"), size);
  ACL_SIM_REQUIRE(jpegd_takes(info.subsampling, out_format), ACL_ERROR_INVALID_PARAM, "JPEGD cannot write ",
                  format_name(out_format), " from a ", css_name(info.subsampling), " JPEG");
  const uint64_t plane = uint64_t{align_up(info.width, kJpegdPredictWidthAlign)} * align_up(info.height, 16);
  const FormatInfo* f = find_format(out_format);
  return checked_u32(plane + plane * 2 / (f->chroma_sx * f->chroma_sy), "predicted size");
}

uint32_t jpeg_predict_enc_size(const PicFields& in, uint32_t level) {
  static const int kJpegeInputs[] = {PIXEL_FORMAT_YUV_SEMIPLANAR_420, PIXEL_FORMAT_YVU_SEMIPLANAR_420,
                                     PIXEL_FORMAT_YUYV_PACKED_422,    PIXEL_FORMAT_UYVY_PACKED_422,
                                     PIXEL_FORMAT_YVYU_PACKED_422,    PIXEL_FORMAT_VYUY_PACKED_422};
  require_format(in, "inputDesc", kJpegeInputs, 6, "JPEGE");
  ACL_SIM_REQUIRE(in.width >= kJpege.min_w && in.width <= kJpege.max_w && in.height >= kJpege.min_h &&
                      in.height <= kJpege.max_h,
                  ACL_ERROR_INVALID_PARAM, "inputDesc is ", in.width, "x", in.height, ": JPEGE encodes ", kJpege.min_w,
                  "x", kJpege.min_h, " to ", kJpege.max_w, "x", kJpege.max_h);
  (void)level;
  // Worst case of baseline 4:2:0 at quality 100 stays under 3 bytes per (MCU-padded) pixel, plus the headers.
  return checked_u32(uint64_t{align_up(in.width, 16)} * align_up(in.height, 16) * 3 + 4096, "predicted size");
}

void png_image_info(const void* data, uint32_t size, uint32_t* w, uint32_t* h, int32_t* components) {
  PngInfo info = png_read_info(bytes(data, size, "data"), size);
  if (w) *w = info.width;
  if (h) *h = info.height;
  if (components) *components = info.components;
}

uint32_t png_predict_dec_size(const void* data, uint32_t size, int out_format) {
  PngInfo info = png_read_info(bytes(data, size, "data"), size);
  ACL_SIM_REQUIRE(out_format == PIXEL_FORMAT_RGB_888 || out_format == PIXEL_FORMAT_RGBA_8888, ACL_ERROR_INVALID_PARAM,
                  "PNGD writes PIXEL_FORMAT_RGB_888 or PIXEL_FORMAT_RGBA_8888, not ", format_name(out_format));
  const uint32_t bpp = out_format == PIXEL_FORMAT_RGB_888 ? 3 : 4;
  return checked_u32(uint64_t{align_up(info.width * bpp, kPngdWidthStrideAlign)} *
                         align_up(info.height, kPngdHeightStrideAlign),
                     "predicted size");
}

void enqueue_jpeg_decode(const void* data, uint32_t size, const std::shared_ptr<PicDesc>& out, Stream& s) {
  const uint8_t* src = bytes(data, size, "data");
  require_device_buffer(src, size, "the JPEG", s);
  JpegInfo info = decodable_jpeg(src, size);
  PicFields o = out->snapshot();
  ACL_SIM_REQUIRE(find_format(o.format) && jpegd_takes(info.subsampling, o.format), ACL_ERROR_INVALID_PARAM,
                  "outputDesc has ", format_name(o.format), ": JPEGD writes PIXEL_FORMAT_YUV_SEMIPLANAR_420 / "
                  "PIXEL_FORMAT_YVU_SEMIPLANAR_420 (or the source's own 422SP/444SP) from a ",
                  css_name(info.subsampling), " JPEG");
  o.width = info.width;
  o.height = info.height;
  ACL_SIM_REQUIRE(o.width_stride % kJpegdWidthStrideAlign == 0 && o.width_stride >= o.width, ACL_ERROR_INVALID_PARAM,
                  "outputDesc widthStride ", o.width_stride, " must be a multiple of ", kJpegdWidthStrideAlign,
                  " (128 on Ascend 310) and at least the image width ", o.width);
  ACL_SIM_REQUIRE(o.height_stride % kJpegdHeightStrideAlign == 0 && o.height_stride >= o.height,
                  ACL_ERROR_INVALID_PARAM, "outputDesc heightStride ", o.height_stride, " must be a multiple of ",
                  kJpegdHeightStrideAlign, " and at least the image height ", o.height);
  const size_t need = layout_bytes(o.layout());
  ACL_SIM_REQUIRE(o.size >= need, ACL_ERROR_INVALID_PARAM, "outputDesc size ", o.size, " is too small: the ",
                  o.width, "x", o.height, " image at widthStride ", o.width_stride, " x heightStride ",
                  o.height_stride, " needs ", need, " bytes (acldvppJpegPredictDecSize)");
  require_device_buffer(o.data, need, "outputDesc", s);
  {
    // The chip reports the decoded size in the output description.
    std::lock_guard<std::mutex> lock(out->mu);
    out->f.width = o.width;
    out->f.height = o.height;
  }
  out->ret_code.store(0);
  s.enqueue("dvpp_jpeg_decode", [src, size, o, out] {
    try {
      jpeg_decode(src, size, channels_of(static_cast<uint8_t*>(o.data), o.layout()));
    } catch (const Error& e) {
      out->ret_code.store(static_cast<uint32_t>(e.code()));
      throw Error(e.code(), str("acldvppJpegDecodeAsync: ", e.what()));
    }
  });
}

void enqueue_jpeg_encode(const std::shared_ptr<PicDesc>& in, void* data, uint32_t* size, uint32_t level, Stream& s) {
  ACL_SIM_REQUIRE(data, ACL_ERROR_INVALID_PARAM, "data must not be NULL");
  ACL_SIM_REQUIRE(size, ACL_ERROR_INVALID_PARAM, "size must not be NULL");
  PicFields p = in->snapshot();
  jpeg_predict_enc_size(p, level);  // format and resolution rules
  const FormatInfo* f = find_format(p.format);
  const bool sp = f->bytes_per_pixel == 1;
  ACL_SIM_REQUIRE(p.width % 2 == 0 && (!sp || p.height % 2 == 0), ACL_ERROR_INVALID_PARAM, "inputDesc is ", p.width,
                  "x", p.height, ": JPEGE needs an even width", sp ? " and height" : "");
  const uint32_t row = p.width * f->bytes_per_pixel;
  ACL_SIM_REQUIRE(p.width_stride % 16 == 0 && p.width_stride >= row, ACL_ERROR_INVALID_PARAM, "inputDesc widthStride ",
                  p.width_stride, " must be a multiple of 16 and at least ", row);
  ACL_SIM_REQUIRE(p.height_stride == p.height || (p.height_stride % 16 == 0 && p.height_stride >= p.height),
                  ACL_ERROR_INVALID_PARAM, "inputDesc heightStride ", p.height_stride,
                  " must equal the height or be a multiple of 16 at least the height ", p.height);
  const size_t need = layout_bytes(p.layout());
  ACL_SIM_REQUIRE(p.size >= need, ACL_ERROR_INVALID_PARAM, "inputDesc size ", p.size, " is too small: needs ", need,
                  " bytes");
  require_device_buffer(p.data, need, "inputDesc", s);
  const uint32_t capacity = *size;
  ACL_SIM_REQUIRE(capacity > 0, ACL_ERROR_INVALID_PARAM, "*size must give the output buffer's bytes");
  require_device_buffer(data, capacity, "the output buffer", s);
  const int quality = level == 0 ? 100 : static_cast<int>(level);
  in->ret_code.store(0);
  s.enqueue("dvpp_jpeg_encode", [p, data, size, capacity, quality, in] {
    try {
      std::vector<uint8_t> jpeg =
          jpeg_encode(channels_of(static_cast<uint8_t*>(p.data), p.layout()), p.width, p.height, quality);
      ACL_SIM_REQUIRE(jpeg.size() <= capacity, ACL_ERROR_INVALID_PARAM, "the JPEG takes ", jpeg.size(),
                      " bytes but the output buffer has ", capacity, " (acldvppJpegPredictEncSize)");
      std::memcpy(data, jpeg.data(), jpeg.size());
      *size = static_cast<uint32_t>(jpeg.size());
    } catch (const Error& e) {
      in->ret_code.store(static_cast<uint32_t>(e.code()));
      throw Error(e.code(), str("acldvppJpegEncodeAsync: ", e.what()));
    }
  });
}

void enqueue_png_decode(const void* data, uint32_t size, const std::shared_ptr<PicDesc>& out, Stream& s) {
  const uint8_t* src = bytes(data, size, "data");
  require_device_buffer(src, size, "the PNG", s);
  PngInfo info = png_read_info(src, size);
  ACL_SIM_REQUIRE(info.width >= kPngd.min_w && info.width <= kPngd.max_w && info.height >= kPngd.min_h &&
                      info.height <= kPngd.max_h,
                  ACL_ERROR_INVALID_PARAM, "the PNG is ", info.width, "x", info.height, ": PNGD decodes ", kPngd.min_w,
                  "x", kPngd.min_h, " to ", kPngd.max_w, "x", kPngd.max_h);
  PicFields o = out->snapshot();
  ACL_SIM_REQUIRE(o.format == PIXEL_FORMAT_RGB_888 || o.format == PIXEL_FORMAT_RGBA_8888, ACL_ERROR_INVALID_PARAM,
                  "outputDesc has ", format_name(o.format),
                  ": PNGD writes PIXEL_FORMAT_RGB_888 or PIXEL_FORMAT_RGBA_8888");
  const bool rgba = o.format == PIXEL_FORMAT_RGBA_8888;
  o.width = info.width;
  o.height = info.height;
  const uint32_t row = o.width * (rgba ? 4 : 3);
  ACL_SIM_REQUIRE(o.width_stride % kPngdWidthStrideAlign == 0 && o.width_stride >= row, ACL_ERROR_INVALID_PARAM,
                  "outputDesc widthStride ", o.width_stride, " must be a multiple of ", kPngdWidthStrideAlign,
                  " and at least width*", rgba ? 4 : 3, " = ", row);
  ACL_SIM_REQUIRE(o.height_stride % kPngdHeightStrideAlign == 0 && o.height_stride >= o.height,
                  ACL_ERROR_INVALID_PARAM, "outputDesc heightStride ", o.height_stride, " must be a multiple of ",
                  kPngdHeightStrideAlign, " and at least the image height ", o.height);
  const size_t need = layout_bytes(o.layout());
  ACL_SIM_REQUIRE(o.size >= need, ACL_ERROR_INVALID_PARAM, "outputDesc size ", o.size, " is too small: needs ", need,
                  " bytes (acldvppPngPredictDecSize)");
  require_device_buffer(o.data, need, "outputDesc", s);
  {
    std::lock_guard<std::mutex> lock(out->mu);
    out->f.width = o.width;
    out->f.height = o.height;
  }
  out->ret_code.store(0);
  s.enqueue("dvpp_png_decode", [src, size, o, out, rgba] {
    try {
      png_decode(src, size, static_cast<uint8_t*>(o.data), o.width_stride, rgba);
    } catch (const Error& e) {
      out->ret_code.store(static_cast<uint32_t>(e.code()));
      throw Error(e.code(), str("acldvppPngDecodeAsync: ", e.what()));
    }
  });
}

}  // namespace acl_sim::media
