#include "media/dvpp_objects.h"

#include "acl/acl_base.h"
#include "acl/ops/acl_dvpp.h"
#include "common/error.h"

namespace acl_sim::media {

HandleTable<ChannelDesc>& channel_descs() {
  static HandleTable<ChannelDesc> t;
  return t;
}
HandleTable<PicDesc>& pic_descs() {
  static HandleTable<PicDesc> t;
  return t;
}
HandleTable<BatchPicDesc>& batch_pic_descs() {
  static HandleTable<BatchPicDesc> t;
  return t;
}
HandleTable<RoiConfig>& roi_configs() {
  static HandleTable<RoiConfig> t;
  return t;
}
HandleTable<ResizeConfig>& resize_configs() {
  static HandleTable<ResizeConfig> t;
  return t;
}
HandleTable<JpegeConfig>& jpege_configs() {
  static HandleTable<JpegeConfig> t;
  return t;
}

namespace {

template <class T>
std::shared_ptr<T> require(HandleTable<T>& table, const void* h, const char* what, const char* kind) {
  ACL_SIM_REQUIRE(h, ACL_ERROR_INVALID_PARAM, what, " must not be NULL");
  auto obj = table.find(h);
  ACL_SIM_REQUIRE(obj, ACL_ERROR_INVALID_PARAM, what, " (", h, ") is not a live ", kind,
                  " (never created or already destroyed)");
  return obj;
}

const char* engine_name(uint32_t engine) {
  switch (engine) {
    case DVPP_CHNMODE_VPC: return "VPC";
    case DVPP_CHNMODE_JPEGD: return "JPEGD";
    case DVPP_CHNMODE_JPEGE: return "JPEGE";
    default: return "PNGD";
  }
}

}  // namespace

std::shared_ptr<ChannelDesc> require_channel(const void* h, const char* what) {
  return require(channel_descs(), h, what, "acldvppChannelDesc");
}
std::shared_ptr<PicDesc> require_pic(const void* h, const char* what) {
  return require(pic_descs(), h, what, "acldvppPicDesc");
}
std::shared_ptr<BatchPicDesc> require_batch(const void* h, const char* what) {
  return require(batch_pic_descs(), h, what, "acldvppBatchPicDesc");
}
std::shared_ptr<RoiConfig> require_roi(const void* h, const char* what) {
  return require(roi_configs(), h, what, "acldvppRoiConfig");
}
std::shared_ptr<ResizeConfig> require_resize(const void* h, const char* what) {
  return require(resize_configs(), h, what, "acldvppResizeConfig");
}
std::shared_ptr<JpegeConfig> require_jpege(const void* h, const char* what) {
  return require(jpege_configs(), h, what, "acldvppJpegeConfig");
}

std::shared_ptr<ChannelDesc> require_open_channel(const void* h, uint32_t engine) {
  auto ch = require_channel(h, "channelDesc");
  std::lock_guard<std::mutex> lock(ch->mu);
  ACL_SIM_REQUIRE(ch->channel_id != 0, ACL_ERROR_INVALID_PARAM,
                  "channelDesc has no open channel: call acldvppCreateChannel first (or it was destroyed)");
  // PNGD is not a mode bit of its own in CANN: a VPC/JPEGD-restricted channel still serves it
  if (engine != 0 && ch->mode != 0)
    ACL_SIM_REQUIRE((ch->mode & engine) != 0, ACL_ERROR_INVALID_PARAM, "the channel was created for mode ", ch->mode,
                    " (acldvppSetChannelDescMode), which does not include ", engine_name(engine));
  return ch;
}

}  // namespace acl_sim::media
