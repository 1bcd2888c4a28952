// DVPP memory, channels, picture descriptions, ROI / resize / JPEG-encoder configurations.
#include <atomic>

#include "acl/ops/acl_dvpp.h"
#include "capi/rt_common.h"
#include "media/dvpp_memory.h"
#include "media/dvpp_objects.h"
#include "runtime/context.h"
#include "runtime/device.h"

using namespace acl_sim;
using namespace acl_sim::capi;
using namespace acl_sim::media;

namespace {

template <class C, class T>
C* handle_of(T* obj) {
  return reinterpret_cast<C*>(obj);
}

/** Apply @p set to a picture description's fields under its lock. */
template <class F>
aclError set_pic(const char* fn, acldvppPicDesc* d, F&& set) {
  return api_call(fn, [&] {
    auto p = require_pic(d, "picDesc");
    std::lock_guard<std::mutex> lock(p->mu);
    set(p->f);
  });
}

template <class T, class F>
T get_pic(const char* fn, const acldvppPicDesc* d, T on_error, F&& get) {
  return api_value(fn, on_error, [&] {
    auto p = require_pic(d, "picDesc");
    std::lock_guard<std::mutex> lock(p->mu);
    return get(p->f);
  });
}

template <class F>
aclError set_roi(const char* fn, acldvppRoiConfig* c, F&& set) {
  return api_call(fn, [&] {
    auto r = require_roi(c, "config");
    std::lock_guard<std::mutex> lock(r->mu);
    set(*r);
  });
}

std::atomic<uint64_t> g_next_channel_id{1};

}  // namespace

extern "C" {

// ---- memory ----
ACL_FUNC_VISIBILITY aclError acldvppMalloc(void** devPtr, size_t size) {
  return api_call("acldvppMalloc", [&] {
    require_not_null(devPtr, "devPtr");
    rt();
    ACL_SIM_REQUIRE(size > 0, ACL_ERROR_INVALID_PARAM, "size must be > 0");
    *devPtr = dvpp_malloc(require_context().device(), size);
  });
}

ACL_FUNC_VISIBILITY aclError acldvppFree(void* devPtr) {
  return api_call("acldvppFree", [&] {
    require_not_null(devPtr, "devPtr");
    rt();
    dvpp_free(devPtr);
  });
}

// ---- channels ----
ACL_FUNC_VISIBILITY acldvppChannelDesc* acldvppCreateChannelDesc(void) {
  return api_value("acldvppCreateChannelDesc", static_cast<acldvppChannelDesc*>(nullptr), [] {
    return handle_of<acldvppChannelDesc>(channel_descs().add(std::make_shared<ChannelDesc>()));
  });
}

ACL_FUNC_VISIBILITY aclError acldvppDestroyChannelDesc(acldvppChannelDesc* channelDesc) {
  return api_call("acldvppDestroyChannelDesc", [&] {
    require_channel(channelDesc, "channelDesc");
    channel_descs().remove(channelDesc);
  });
}

ACL_FUNC_VISIBILITY aclError acldvppSetChannelDescMode(acldvppChannelDesc* channelDesc, uint32_t mode) {
  return api_call("acldvppSetChannelDescMode", [&] {
    auto ch = require_channel(channelDesc, "channelDesc");
    constexpr uint32_t kAll = DVPP_CHNMODE_VPC | DVPP_CHNMODE_JPEGD | DVPP_CHNMODE_JPEGE;
    ACL_SIM_REQUIRE((mode & ~kAll) == 0, ACL_ERROR_INVALID_PARAM, "mode ", mode,
                    " is not a combination of DVPP_CHNMODE_VPC (1), DVPP_CHNMODE_JPEGD (2), DVPP_CHNMODE_JPEGE (4)");
    std::lock_guard<std::mutex> lock(ch->mu);
    ACL_SIM_REQUIRE(ch->channel_id == 0, ACL_ERROR_INVALID_PARAM,
                    "the channel is already created: set the mode before acldvppCreateChannel");
    ch->mode = mode;
  });
}

ACL_FUNC_VISIBILITY uint64_t acldvppGetChannelDescChannelId(const acldvppChannelDesc* channelDesc) {
  return api_value("acldvppGetChannelDescChannelId", uint64_t{0}, [&] {
    auto ch = require_channel(channelDesc, "channelDesc");
    std::lock_guard<std::mutex> lock(ch->mu);
    return ch->channel_id;
  });
}

ACL_FUNC_VISIBILITY aclError acldvppCreateChannel(acldvppChannelDesc* channelDesc) {
  return api_call("acldvppCreateChannel", [&] {
    auto ch = require_channel(channelDesc, "channelDesc");
    rt();
    const int32_t device = require_context().device().id();
    std::lock_guard<std::mutex> lock(ch->mu);
    ACL_SIM_REQUIRE(ch->channel_id == 0, ACL_ERROR_INVALID_PARAM, "channel ", ch->channel_id,
                    " is already created on this description");
    ch->channel_id = g_next_channel_id++;
    ch->device_id = device;
  });
}

ACL_FUNC_VISIBILITY aclError acldvppDestroyChannel(acldvppChannelDesc* channelDesc) {
  return api_call("acldvppDestroyChannel", [&] {
    auto ch = require_channel(channelDesc, "channelDesc");
    std::lock_guard<std::mutex> lock(ch->mu);
    ACL_SIM_REQUIRE(ch->channel_id != 0, ACL_ERROR_INVALID_PARAM, "the channel is not created (or already destroyed)");
    ch->channel_id = 0;
    ch->device_id = -1;
  });
}

// ---- picture descriptions ----
ACL_FUNC_VISIBILITY acldvppPicDesc* acldvppCreatePicDesc(void) {
  return api_value("acldvppCreatePicDesc", static_cast<acldvppPicDesc*>(nullptr),
                   [] { return handle_of<acldvppPicDesc>(pic_descs().add(std::make_shared<PicDesc>())); });
}

ACL_FUNC_VISIBILITY aclError acldvppDestroyPicDesc(acldvppPicDesc* picDesc) {
  return api_call("acldvppDestroyPicDesc", [&] {
    require_pic(picDesc, "picDesc");
    pic_descs().remove(picDesc);
  });
}

ACL_FUNC_VISIBILITY aclError acldvppSetPicDescData(acldvppPicDesc* picDesc, void* dataDev) {
  return set_pic("acldvppSetPicDescData", picDesc, [&](PicFields& f) { f.data = dataDev; });
}
ACL_FUNC_VISIBILITY aclError acldvppSetPicDescSize(acldvppPicDesc* picDesc, uint32_t size) {
  return set_pic("acldvppSetPicDescSize", picDesc, [&](PicFields& f) { f.size = size; });
}
ACL_FUNC_VISIBILITY aclError acldvppSetPicDescFormat(acldvppPicDesc* picDesc, acldvppPixelFormat format) {
  return set_pic("acldvppSetPicDescFormat", picDesc, [&](PicFields& f) {
    const int v = static_cast<int>(format);
    ACL_SIM_REQUIRE((v >= PIXEL_FORMAT_YUV_400 && v <= PIXEL_FORMAT_BGRA_8565) ||
                        (v >= PIXEL_FORMAT_RGB_BAYER_8BPP && v <= PIXEL_FORMAT_RGB_BAYER_16BPP) ||
                        (v >= PIXEL_FORMAT_BGR_888_PLANAR && v <= PIXEL_FORMAT_S64C1) ||
                        (v >= PIXEL_FORMAT_YUV_SEMIPLANAR_440 && v <= PIXEL_FORMAT_FLOAT32),
                    ACL_ERROR_INVALID_PARAM, "format ", v, " is not an acldvppPixelFormat");
    f.format = v;
  });
}
ACL_FUNC_VISIBILITY aclError acldvppSetPicDescWidth(acldvppPicDesc* picDesc, uint32_t width) {
  return set_pic("acldvppSetPicDescWidth", picDesc, [&](PicFields& f) { f.width = width; });
}
ACL_FUNC_VISIBILITY aclError acldvppSetPicDescHeight(acldvppPicDesc* picDesc, uint32_t height) {
  return set_pic("acldvppSetPicDescHeight", picDesc, [&](PicFields& f) { f.height = height; });
}
ACL_FUNC_VISIBILITY aclError acldvppSetPicDescWidthStride(acldvppPicDesc* picDesc, uint32_t widthStride) {
  return set_pic("acldvppSetPicDescWidthStride", picDesc, [&](PicFields& f) { f.width_stride = widthStride; });
}
ACL_FUNC_VISIBILITY aclError acldvppSetPicDescHeightStride(acldvppPicDesc* picDesc, uint32_t heightStride) {
  return set_pic("acldvppSetPicDescHeightStride", picDesc, [&](PicFields& f) { f.height_stride = heightStride; });
}
ACL_FUNC_VISIBILITY aclError acldvppSetPicDescRetCode(acldvppPicDesc* picDesc, uint32_t retCode) {
  return api_call("acldvppSetPicDescRetCode", [&] { require_pic(picDesc, "picDesc")->ret_code.store(retCode); });
}

ACL_FUNC_VISIBILITY void* acldvppGetPicDescData(const acldvppPicDesc* picDesc) {
  return get_pic("acldvppGetPicDescData", picDesc, static_cast<void*>(nullptr), [](PicFields& f) { return f.data; });
}
ACL_FUNC_VISIBILITY uint32_t acldvppGetPicDescSize(const acldvppPicDesc* picDesc) {
  return get_pic("acldvppGetPicDescSize", picDesc, 0u, [](PicFields& f) { return f.size; });
}
ACL_FUNC_VISIBILITY acldvppPixelFormat acldvppGetPicDescFormat(const acldvppPicDesc* picDesc) {
  return get_pic("acldvppGetPicDescFormat", picDesc, PIXEL_FORMAT_YUV_400,
                 [](PicFields& f) { return static_cast<acldvppPixelFormat>(f.format); });
}
ACL_FUNC_VISIBILITY uint32_t acldvppGetPicDescWidth(const acldvppPicDesc* picDesc) {
  return get_pic("acldvppGetPicDescWidth", picDesc, 0u, [](PicFields& f) { return f.width; });
}
ACL_FUNC_VISIBILITY uint32_t acldvppGetPicDescHeight(const acldvppPicDesc* picDesc) {
  return get_pic("acldvppGetPicDescHeight", picDesc, 0u, [](PicFields& f) { return f.height; });
}
ACL_FUNC_VISIBILITY uint32_t acldvppGetPicDescWidthStride(const acldvppPicDesc* picDesc) {
  return get_pic("acldvppGetPicDescWidthStride", picDesc, 0u, [](PicFields& f) { return f.width_stride; });
}
ACL_FUNC_VISIBILITY uint32_t acldvppGetPicDescHeightStride(const acldvppPicDesc* picDesc) {
  return get_pic("acldvppGetPicDescHeightStride", picDesc, 0u, [](PicFields& f) { return f.height_stride; });
}
ACL_FUNC_VISIBILITY uint32_t acldvppGetPicDescRetCode(const acldvppPicDesc* picDesc) {
  return api_value("acldvppGetPicDescRetCode", 0u, [&] { return require_pic(picDesc, "picDesc")->ret_code.load(); });
}

// ---- batches ----
ACL_FUNC_VISIBILITY acldvppBatchPicDesc* acldvppCreateBatchPicDesc(uint32_t batchSize) {
  return api_value("acldvppCreateBatchPicDesc", static_cast<acldvppBatchPicDesc*>(nullptr), [&] {
    ACL_SIM_REQUIRE(batchSize > 0 && batchSize <= 256, ACL_ERROR_INVALID_PARAM, "batchSize ", batchSize,
                    " must be in [1, 256]");
    auto b = std::make_shared<BatchPicDesc>();
    for (uint32_t i = 0; i < batchSize; ++i) {
      b->pics.push_back(std::make_shared<PicDesc>());
      b->handles.push_back(pic_descs().add(b->pics.back()));
    }
    return handle_of<acldvppBatchPicDesc>(batch_pic_descs().add(std::move(b)));
  });
}

ACL_FUNC_VISIBILITY acldvppPicDesc* acldvppGetPicDesc(acldvppBatchPicDesc* batchPicDesc, uint32_t index) {
  return api_value("acldvppGetPicDesc", static_cast<acldvppPicDesc*>(nullptr), [&] {
    auto b = require_batch(batchPicDesc, "batchPicDesc");
    ACL_SIM_REQUIRE(index < b->pics.size(), ACL_ERROR_INVALID_PARAM, "index ", index, " is outside the batch of ",
                    b->pics.size());
    return static_cast<acldvppPicDesc*>(b->handles[index]);
  });
}

ACL_FUNC_VISIBILITY aclError acldvppDestroyBatchPicDesc(acldvppBatchPicDesc* batchPicDesc) {
  return api_call("acldvppDestroyBatchPicDesc", [&] {
    auto b = require_batch(batchPicDesc, "batchPicDesc");
    for (void* h : b->handles) pic_descs().remove(h);  // members a caller destroyed already are skipped
    batch_pic_descs().remove(batchPicDesc);
  });
}

// ---- ROI ----
ACL_FUNC_VISIBILITY acldvppRoiConfig* acldvppCreateRoiConfig(uint32_t left, uint32_t right, uint32_t top,
                                                             uint32_t bottom) {
  return api_value("acldvppCreateRoiConfig", static_cast<acldvppRoiConfig*>(nullptr), [&] {
    auto r = std::make_shared<RoiConfig>();
    r->left = left, r->right = right, r->top = top, r->bottom = bottom;
    return handle_of<acldvppRoiConfig>(roi_configs().add(std::move(r)));
  });
}
ACL_FUNC_VISIBILITY aclError acldvppDestroyRoiConfig(acldvppRoiConfig* roiConfig) {
  return api_call("acldvppDestroyRoiConfig", [&] {
    require_roi(roiConfig, "roiConfig");
    roi_configs().remove(roiConfig);
  });
}
ACL_FUNC_VISIBILITY aclError acldvppSetRoiConfigLeft(acldvppRoiConfig* config, uint32_t left) {
  return set_roi("acldvppSetRoiConfigLeft", config, [&](RoiConfig& r) { r.left = left; });
}
ACL_FUNC_VISIBILITY aclError acldvppSetRoiConfigRight(acldvppRoiConfig* config, uint32_t right) {
  return set_roi("acldvppSetRoiConfigRight", config, [&](RoiConfig& r) { r.right = right; });
}
ACL_FUNC_VISIBILITY aclError acldvppSetRoiConfigTop(acldvppRoiConfig* config, uint32_t top) {
  return set_roi("acldvppSetRoiConfigTop", config, [&](RoiConfig& r) { r.top = top; });
}
ACL_FUNC_VISIBILITY aclError acldvppSetRoiConfigBottom(acldvppRoiConfig* config, uint32_t bottom) {
  return set_roi("acldvppSetRoiConfigBottom", config, [&](RoiConfig& r) { r.bottom = bottom; });
}
ACL_FUNC_VISIBILITY aclError acldvppSetRoiConfig(acldvppRoiConfig* config, uint32_t left, uint32_t right,
                                                 uint32_t top, uint32_t bottom) {
  return set_roi("acldvppSetRoiConfig", config, [&](RoiConfig& r) {
    r.left = left, r.right = right, r.top = top, r.bottom = bottom;
  });
}

// ---- resize configuration ----
ACL_FUNC_VISIBILITY acldvppResizeConfig* acldvppCreateResizeConfig(void) {
  return api_value("acldvppCreateResizeConfig", static_cast<acldvppResizeConfig*>(nullptr), [] {
    return handle_of<acldvppResizeConfig>(resize_configs().add(std::make_shared<ResizeConfig>()));
  });
}
ACL_FUNC_VISIBILITY aclError acldvppDestroyResizeConfig(acldvppResizeConfig* resizeConfig) {
  return api_call("acldvppDestroyResizeConfig", [&] {
    require_resize(resizeConfig, "resizeConfig");
    resize_configs().remove(resizeConfig);
  });
}
ACL_FUNC_VISIBILITY aclError acldvppSetResizeConfigInterpolation(acldvppResizeConfig* resizeConfig,
                                                                 uint32_t interpolation) {
  return api_call("acldvppSetResizeConfigInterpolation", [&] {
    auto c = require_resize(resizeConfig, "resizeConfig");
    ACL_SIM_REQUIRE(interpolation != 5, ACL_ERROR_FEATURE_UNSUPPORTED,
                    "interpolation 5 (the vendor's high-order filter) is not simulated: use 0-4");
    ACL_SIM_REQUIRE(interpolation <= 4, ACL_ERROR_INVALID_PARAM, "interpolation ", interpolation,
                    " is not one of 0 (default), 1/3 (bilinear), 2/4 (nearest)");
    c->interpolation.store(interpolation);
  });
}
ACL_FUNC_VISIBILITY uint32_t acldvppGetResizeConfigInterpolation(const acldvppResizeConfig* resizeConfig) {
  return api_value("acldvppGetResizeConfigInterpolation", 0u,
                   [&] { return require_resize(resizeConfig, "resizeConfig")->interpolation.load(); });
}

// ---- JPEG encoder configuration ----
ACL_FUNC_VISIBILITY acldvppJpegeConfig* acldvppCreateJpegeConfig(void) {
  return api_value("acldvppCreateJpegeConfig", static_cast<acldvppJpegeConfig*>(nullptr), [] {
    return handle_of<acldvppJpegeConfig>(jpege_configs().add(std::make_shared<JpegeConfig>()));
  });
}
ACL_FUNC_VISIBILITY aclError acldvppDestroyJpegeConfig(acldvppJpegeConfig* jpegeConfig) {
  return api_call("acldvppDestroyJpegeConfig", [&] {
    require_jpege(jpegeConfig, "jpegeConfig");
    jpege_configs().remove(jpegeConfig);
  });
}
ACL_FUNC_VISIBILITY aclError acldvppSetJpegeConfigLevel(acldvppJpegeConfig* jpegeConfig, uint32_t level) {
  return api_call("acldvppSetJpegeConfigLevel", [&] {
    auto c = require_jpege(jpegeConfig, "jpegeConfig");
    ACL_SIM_REQUIRE(level <= 100, ACL_ERROR_INVALID_PARAM, "level ", level, " is outside [0, 100]");
    c->level.store(level);
  });
}
ACL_FUNC_VISIBILITY uint32_t acldvppGetJpegeConfigLevel(const acldvppJpegeConfig* jpegeConfig) {
  return api_value("acldvppGetJpegeConfigLevel", 0u,
                   [&] { return require_jpege(jpegeConfig, "jpegeConfig")->level.load(); });
}

}  // extern "C"
