// The chip's documented limits for DVPP inputs and outputs (docs/dvpp.md has
// the table), checked at call time with CANN's codes: argument faults give
// ACL_ERROR_INVALID_PARAM, a JPEG the decoder cannot handle gives
// ACL_ERROR_UNSUPPORTED_JPEG. Messages name the description and the rule.
#pragma once

#include <cstdint>

#include "media/channel_resize.h"
#include "media/dvpp_objects.h"

namespace acl_sim {
class Stream;
}

namespace acl_sim::media {

inline uint32_t align_up(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

struct Limits {
  uint32_t min_w, min_h, max_w, max_h;
};
constexpr Limits kVpcInput{10, 6, 8192, 8192};
constexpr Limits kVpcOutput{10, 6, 4096, 8192};
constexpr Limits kJpegd{32, 32, 8192, 8192};
constexpr Limits kJpege{32, 32, 8192, 8192};
constexpr Limits kPngd{32, 32, 4096, 4096};
constexpr uint32_t kJpegdWidthStrideAlign = 64;   // 128 on Ascend 310, 64 on 310P: both pass
constexpr uint32_t kJpegdHeightStrideAlign = 16;
constexpr uint32_t kJpegdPredictWidthAlign = 128;  // what acldvppJpegPredictDecSize assumes (fits every chip)
constexpr uint32_t kPngdWidthStrideAlign = 128;
constexpr uint32_t kPngdHeightStrideAlign = 16;
constexpr uint32_t kMaxBatchRois = 256;

/** The format must be one acl_sim processes; @p allowed (nullptr: any) lists the ones this engine takes. */
void require_format(const PicFields& p, const char* what, const int* allowed, int n_allowed, const char* engine);

/** A VPC picture: width/height in @p lim, widthStride a multiple of 16 (2 above 4096 pixels) covering
 *  width * bytes-per-pixel, heightStride even covering height, and the buffer (device memory of @p s's device,
 *  at least size bytes) holding the layout. */
void require_vpc_picture(const PicFields& p, const char* what, const Limits& lim, Stream& s);

/** @p data .. data+bytes is device memory on the stream's device (ACL_ERROR_INVALID_PARAM otherwise). */
void require_device_buffer(const void* data, size_t bytes, const char* what, Stream& s);

/** The ROI as a rectangle: left/top even, right/bottom odd, inside @p w x @p h, at least 10x6. Paste areas also
 *  need left aligned to 16. */
Rect crop_rect(const RoiConfig& roi, uint32_t w, uint32_t h, const char* what);
Rect paste_rect(const RoiConfig& roi, uint32_t w, uint32_t h, const char* what);
/** Width and height scale factors within [1/32, 16]. */
void require_scale(const Rect& from, const Rect& to);

/** acldvppResizeConfig's interpolation as a mode (nullptr config: the default). */
Interpolation interpolation_of(const ResizeConfig* cfg);

}  // namespace acl_sim::media
