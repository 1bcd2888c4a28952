// JPEG / PNG: image information, output size prediction, JPEGD, JPEGE, PNGD.
#include "acl/ops/acl_dvpp.h"
#include "capi/rt_common.h"
#include "media/codec_ops.h"
#include "media/dvpp_objects.h"
#include "runtime/stream.h"

using namespace acl_sim;
using namespace acl_sim::capi;
using namespace acl_sim::media;

extern "C" {

ACL_FUNC_VISIBILITY aclError acldvppJpegGetImageInfo(const void* data, uint32_t size, uint32_t* width,
                                                     uint32_t* height, int32_t* components) {
  return api_call("acldvppJpegGetImageInfo", [&] { jpeg_image_info(data, size, width, height, components, nullptr); });
}

ACL_FUNC_VISIBILITY aclError acldvppJpegGetImageInfoV2(const void* data, uint32_t size, uint32_t* width,
                                                       uint32_t* height, int32_t* components,
                                                       acldvppJpegFormat* format) {
  return api_call("acldvppJpegGetImageInfoV2", [&] {
    int css = ACL_JPEG_CSS_UNKNOWN;
    jpeg_image_info(data, size, width, height, components, &css);
    if (format) *format = static_cast<acldvppJpegFormat>(css);
  });
}

ACL_FUNC_VISIBILITY aclError acldvppJpegPredictDecSize(const void* data, uint32_t dataSize,
                                                       acldvppPixelFormat outputPixelFormat, uint32_t* decSize) {
  return api_call("acldvppJpegPredictDecSize", [&] {
    require_not_null(decSize, "decSize");
    *decSize = jpeg_predict_dec_size(data, dataSize, outputPixelFormat);
  });
}

ACL_FUNC_VISIBILITY aclError acldvppJpegPredictEncSize(const acldvppPicDesc* inputDesc,
                                                       const acldvppJpegeConfig* config, uint32_t* size) {
  return api_call("acldvppJpegPredictEncSize", [&] {
    require_not_null(size, "size");
    auto in = require_pic(inputDesc, "inputDesc");
    auto cfg = require_jpege(config, "config");
    *size = jpeg_predict_enc_size(in->snapshot(), cfg->level.load());
  });
}

ACL_FUNC_VISIBILITY aclError acldvppPngGetImageInfo(const void* data, uint32_t dataSize, uint32_t* width,
                                                    uint32_t* height, int32_t* components) {
  return api_call("acldvppPngGetImageInfo", [&] { png_image_info(data, dataSize, width, height, components); });
}

ACL_FUNC_VISIBILITY aclError acldvppPngPredictDecSize(const void* data, uint32_t dataSize,
                                                      acldvppPixelFormat outputPixelFormat, uint32_t* decSize) {
  return api_call("acldvppPngPredictDecSize", [&] {
    require_not_null(decSize, "decSize");
    *decSize = png_predict_dec_size(data, dataSize, outputPixelFormat);
  });
}

ACL_FUNC_VISIBILITY aclError acldvppJpegDecodeAsync(acldvppChannelDesc* channelDesc, const void* data, uint32_t size,
                                                    acldvppPicDesc* outputDesc, aclrtStream stream) {
  return api_call("acldvppJpegDecodeAsync", [&] {
    rt();
    auto ch = require_open_channel(channelDesc, DVPP_CHNMODE_JPEGD);
    auto out = require_pic(outputDesc, "outputDesc");
    enqueue_jpeg_decode(data, size, out, *resolve_stream(stream));
  });
}

ACL_FUNC_VISIBILITY aclError acldvppJpegEncodeAsync(acldvppChannelDesc* channelDesc, acldvppPicDesc* inputDesc,
                                                    const void* data, uint32_t* size, acldvppJpegeConfig* config,
                                                    aclrtStream stream) {
  return api_call("acldvppJpegEncodeAsync", [&] {
    rt();
    auto ch = require_open_channel(channelDesc, DVPP_CHNMODE_JPEGE);
    auto in = require_pic(inputDesc, "inputDesc");
    auto cfg = require_jpege(config, "config");
    enqueue_jpeg_encode(in, const_cast<void*>(data), size, cfg->level.load(), *resolve_stream(stream));
  });
}

ACL_FUNC_VISIBILITY aclError acldvppPngDecodeAsync(acldvppChannelDesc* channelDesc, const void* data, uint32_t size,
                                                   acldvppPicDesc* outputDesc, aclrtStream stream) {
  return api_call("acldvppPngDecodeAsync", [&] {
    rt();
    auto ch = require_open_channel(channelDesc, 0);
    auto out = require_pic(outputDesc, "outputDesc");
    enqueue_png_decode(data, size, out, *resolve_stream(stream));
  });
}

}  // extern "C"
