// Scaling one channel's rectangle into another channel's rectangle: the pixel
// core of every VPC call (resize, crop, crop-and-paste, batch crop) and of the
// chroma resampling in the codecs and colour conversion.
#pragma once

#include <cstdint>

#include "media/pixel_format.h"

namespace acl_sim::media {

/** acldvppSetResizeConfigInterpolation's choices (0 and 1 are both kBilinear). */
enum class Interpolation {
  kBilinear,    // OpenCV INTER_LINEAR: sample centres, src = (dst + 0.5) * scale - 0.5, edge-clamped
  kNearest,     // OpenCV INTER_NEAREST: src = floor(dst * scale)
  kBilinearTf,  // TensorFlow's legacy resize_bilinear: src = dst * scale
  kNearestTf,   // TensorFlow's legacy resize_nearest_neighbor: src = floor(dst * scale)
};

struct Rect {
  uint32_t x = 0, y = 0, w = 0, h = 0;
};

/** Write @p dst_rect of @p dst from @p src_rect of @p src, scaled with @p mode. A source with base == nullptr
 *  fills the rectangle with its fill value. Rectangles are in each channel's own samples and must lie inside the
 *  channels. Rows are spread over the host thread pool. Results round half up and saturate to 0..255. */
void resize_channel(const ChannelView& src, const Rect& src_rect, const ChannelView& dst, const Rect& dst_rect,
                    Interpolation mode);
/** As above with explicit scale factors (source samples per destination sample): chroma planes of odd-sized
 *  pictures have rounded-up sizes, so their true ratio is not src_rect.w / dst_rect.w. */
void resize_channel(const ChannelView& src, const Rect& src_rect, const ChannelView& dst, const Rect& dst_rect,
                    Interpolation mode, double scale_x, double scale_y);

}  // namespace acl_sim::media
