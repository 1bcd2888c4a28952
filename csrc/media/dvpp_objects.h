// The objects behind the acldvpp* handles: channels, picture descriptions
// (single and batch), ROI, resize and JPEG-encoder configurations. Each kind
// has one live-handle table (common/handle_table.h); the C layer resolves every
// handle there and holds the shared_ptr for the duration of the call.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "common/handle_table.h"
#include "media/pixel_format.h"

namespace acl_sim::media {

struct ChannelDesc {
  std::mutex mu;
  uint32_t mode = 0;          // acldvppChannelMode bits; 0 = every engine
  uint64_t channel_id = 0;    // non-zero while the channel is created
  int32_t device_id = -1;
};

/** The numbers a picture description carries. Async calls copy them at call time (later setter calls do not
 *  affect queued work); only ret_code is written back by the stream task. */
struct PicFields {
  void* data = nullptr;
  uint32_t size = 0;
  int format = 0;  // PIXEL_FORMAT_YUV_400 until set, as in CANN
  uint32_t width = 0, height = 0, width_stride = 0, height_stride = 0;

  PictureLayout layout() const { return PictureLayout{format, width, height, width_stride, height_stride}; }
};

struct PicDesc {
  std::mutex mu;
  PicFields f;
  std::atomic<uint32_t> ret_code{0};

  PicFields snapshot() {
    std::lock_guard<std::mutex> lock(mu);
    return f;
  }
};

struct BatchPicDesc {
  std::vector<std::shared_ptr<PicDesc>> pics;  // each also registered in pic_descs()...
  std::vector<void*> handles;                   // ...under these handles (what acldvppGetPicDesc returns)
};

struct RoiConfig {
  std::mutex mu;
  uint32_t left = 0, right = 0, top = 0, bottom = 0;  // inclusive bounds
};

struct ResizeConfig {
  std::atomic<uint32_t> interpolation{0};
};

struct JpegeConfig {
  std::atomic<uint32_t> level{100};
};

HandleTable<ChannelDesc>& channel_descs();
HandleTable<PicDesc>& pic_descs();
HandleTable<BatchPicDesc>& batch_pic_descs();
HandleTable<RoiConfig>& roi_configs();
HandleTable<ResizeConfig>& resize_configs();
HandleTable<JpegeConfig>& jpege_configs();

/** The live object or an ACL_ERROR_INVALID_PARAM naming @p what ("inputDesc") and the fault (NULL, destroyed). */
std::shared_ptr<ChannelDesc> require_channel(const void* h, const char* what);
std::shared_ptr<PicDesc> require_pic(const void* h, const char* what);
std::shared_ptr<BatchPicDesc> require_batch(const void* h, const char* what);
std::shared_ptr<RoiConfig> require_roi(const void* h, const char* what);
std::shared_ptr<ResizeConfig> require_resize(const void* h, const char* what);
std::shared_ptr<JpegeConfig> require_jpege(const void* h, const char* what);

/** A channel that acldvppCreateChannel opened (ACL_ERROR_INVALID_PARAM otherwise) and that allows @p engine
 *  (an acldvppChannelMode bit). */
std::shared_ptr<ChannelDesc> require_open_channel(const void* h, uint32_t engine);

}  // namespace acl_sim::media
