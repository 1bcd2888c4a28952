// The DVPP C API as a CANN C++ program uses it: JPEGE -> image info -> JPEGD -> VPC resize on one stream,
// plus argument faults (NULLs, dead handles, misaligned strides) that must return codes, never crash.
#define ENABLE_DVPP_INTERFACE
#include <acl/acl.h>
#include <acl/ops/acl_dvpp.h>

#include <cstdlib>
#include <cstring>
#include <vector>

#include "check.h"

namespace {

acldvppPicDesc* make_pic(void* data, uint32_t size, acldvppPixelFormat fmt, uint32_t w, uint32_t h, uint32_t ws,
                         uint32_t hs) {
  acldvppPicDesc* d = acldvppCreatePicDesc();
  CHECK(d != nullptr);
  CHECK(acldvppSetPicDescData(d, data) == ACL_SUCCESS);
  CHECK(acldvppSetPicDescSize(d, size) == ACL_SUCCESS);
  CHECK(acldvppSetPicDescFormat(d, fmt) == ACL_SUCCESS);
  CHECK(acldvppSetPicDescWidth(d, w) == ACL_SUCCESS);
  CHECK(acldvppSetPicDescHeight(d, h) == ACL_SUCCESS);
  CHECK(acldvppSetPicDescWidthStride(d, ws) == ACL_SUCCESS);
  CHECK(acldvppSetPicDescHeightStride(d, hs) == ACL_SUCCESS);
  return d;
}

}  // namespace

int main() {
  CHECK(aclInit(nullptr) == ACL_SUCCESS);
  CHECK(aclrtSetDevice(0) == ACL_SUCCESS);
  aclrtStream stream = nullptr;
  CHECK(aclrtCreateStream(&stream) == ACL_SUCCESS);
  acldvppChannelDesc* ch = acldvppCreateChannelDesc();
  CHECK(acldvppCreateChannel(ch) == ACL_SUCCESS);

  // a 320x240 NV12 gradient
  const uint32_t w = 320, h = 240, yuv_size = w * h * 3 / 2;
  std::vector<uint8_t> yuv(yuv_size);
  for (uint32_t y = 0; y < h; ++y)
    for (uint32_t x = 0; x < w; ++x) yuv[y * w + x] = static_cast<uint8_t>((x + y) / 3);
  for (uint32_t i = w * h; i < yuv_size; ++i) yuv[i] = static_cast<uint8_t>(100 + i % 40);
  void* in = nullptr;
  CHECK(acldvppMalloc(&in, yuv_size) == ACL_SUCCESS);
  CHECK(reinterpret_cast<uintptr_t>(in) % 128 == 0);
  CHECK(aclrtMemcpy(in, yuv_size, yuv.data(), yuv_size, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS);
  acldvppPicDesc* src = make_pic(in, yuv_size, PIXEL_FORMAT_YUV_SEMIPLANAR_420, w, h, w, h);

  // JPEGE
  acldvppJpegeConfig* cfg = acldvppCreateJpegeConfig();
  CHECK(acldvppSetJpegeConfigLevel(cfg, 90) == ACL_SUCCESS);
  uint32_t cap = 0;
  CHECK(acldvppJpegPredictEncSize(src, cfg, &cap) == ACL_SUCCESS && cap > 0);
  void* jpeg = nullptr;
  CHECK(acldvppMalloc(&jpeg, cap) == ACL_SUCCESS);
  uint32_t jpeg_size = cap;
  CHECK(acldvppJpegEncodeAsync(ch, src, jpeg, &jpeg_size, cfg, stream) == ACL_SUCCESS);
  CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
  CHECK(jpeg_size > 0 && jpeg_size < cap);

  // image information from a host copy, JPEGD from device memory
  std::vector<uint8_t> host(jpeg_size);
  CHECK(aclrtMemcpy(host.data(), jpeg_size, jpeg, jpeg_size, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS);
  uint32_t iw = 0, ih = 0;
  int32_t comps = 0;
  acldvppJpegFormat css = ACL_JPEG_CSS_UNKNOWN;
  CHECK(acldvppJpegGetImageInfoV2(host.data(), jpeg_size, &iw, &ih, &comps, &css) == ACL_SUCCESS);
  CHECK(iw == w && ih == h && comps == 3 && css == ACL_JPEG_CSS_420);
  uint32_t dec_size = 0;
  CHECK(acldvppJpegPredictDecSize(host.data(), jpeg_size, PIXEL_FORMAT_YUV_SEMIPLANAR_420, &dec_size) == ACL_SUCCESS);
  CHECK(dec_size == 384 * 240 * 3 / 2);
  void* dec = nullptr;
  CHECK(acldvppMalloc(&dec, dec_size) == ACL_SUCCESS);
  acldvppPicDesc* decoded = make_pic(dec, dec_size, PIXEL_FORMAT_YUV_SEMIPLANAR_420, w, h, 384, 240);
  CHECK(acldvppJpegDecodeAsync(ch, jpeg, jpeg_size, decoded, stream) == ACL_SUCCESS);

  // VPC resize of the decoded picture, queued behind the decode
  const uint32_t ow = 224, oh = 224, out_size = ow * oh * 3 / 2;
  void* out = nullptr;
  CHECK(acldvppMalloc(&out, out_size) == ACL_SUCCESS);
  acldvppPicDesc* resized = make_pic(out, out_size, PIXEL_FORMAT_YVU_SEMIPLANAR_420, ow, oh, ow, oh);
  acldvppResizeConfig* rc = acldvppCreateResizeConfig();
  CHECK(acldvppVpcResizeAsync(ch, decoded, resized, rc, stream) == ACL_SUCCESS);
  CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
  CHECK(acldvppGetPicDescRetCode(decoded) == 0 && acldvppGetPicDescRetCode(resized) == 0);

  std::vector<uint8_t> back(dec_size);
  CHECK(aclrtMemcpy(back.data(), dec_size, dec, dec_size, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS);
  double err = 0;
  for (uint32_t y = 0; y < h; ++y)
    for (uint32_t x = 0; x < w; ++x) err += std::abs(int(back[y * 384 + x]) - int(yuv[y * w + x]));
  CHECK(err / (w * h) < 2.0);  // luma survives a quality-90 round trip

  // faults: codes, not crashes
  CHECK(acldvppMalloc(nullptr, 16) == ACL_ERROR_INVALID_PARAM);
  CHECK(acldvppJpegGetImageInfo(nullptr, 10, &iw, &ih, &comps) == ACL_ERROR_INVALID_PARAM);
  CHECK(acldvppSetPicDescWidthStride(nullptr, 16) == ACL_ERROR_INVALID_PARAM);
  CHECK(acldvppGetPicDescWidth(reinterpret_cast<acldvppPicDesc*>(&iw)) == 0);  // a random pointer
  CHECK(acldvppSetPicDescWidthStride(resized, 100) == ACL_SUCCESS);
  CHECK(acldvppVpcResizeAsync(ch, decoded, resized, rc, stream) == ACL_ERROR_INVALID_PARAM);
  CHECK(std::strstr(aclGetRecentErrMsg(), "widthStride 100") != nullptr);
  CHECK(acldvppDestroyPicDesc(resized) == ACL_SUCCESS);
  CHECK(acldvppVpcResizeAsync(ch, decoded, resized, rc, stream) == ACL_ERROR_INVALID_PARAM);
  CHECK(acldvppSetResizeConfigInterpolation(rc, 5) == ACL_ERROR_FEATURE_UNSUPPORTED);
  CHECK(acldvppVpcBatchCropAsync(ch, nullptr, nullptr, 0, nullptr, nullptr, stream) == ACL_ERROR_INVALID_PARAM);

  CHECK(acldvppDestroyResizeConfig(rc) == ACL_SUCCESS);
  CHECK(acldvppDestroyJpegeConfig(cfg) == ACL_SUCCESS);
  CHECK(acldvppDestroyPicDesc(src) == ACL_SUCCESS && acldvppDestroyPicDesc(decoded) == ACL_SUCCESS);
  for (void* p : {in, jpeg, dec, out}) CHECK(acldvppFree(p) == ACL_SUCCESS);
  CHECK(acldvppDestroyChannel(ch) == ACL_SUCCESS);
  CHECK(acldvppDestroyChannelDesc(ch) == ACL_SUCCESS);
  CHECK(aclrtDestroyStream(stream) == ACL_SUCCESS);
  CHECK(aclrtResetDevice(0) == ACL_SUCCESS);
  CHECK(aclFinalize() == ACL_SUCCESS);
  if (g_failures) std::fprintf(stderr, "%d check(s) failed\n", g_failures.load());
  return g_failures ? 1 : 0;
}
