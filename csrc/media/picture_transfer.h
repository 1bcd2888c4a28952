// The one VPC data path: take a rectangle of an input picture, scale it into
// a rectangle of an output picture, converting format and colour family on
// the way. Resize, crop, crop-and-paste, batch crop, colour conversion and the
// codecs' YUV output all reduce to it.
#pragma once

#include "media/channel_resize.h"
#include "media/pixel_format.h"

namespace acl_sim::media {

/** Scale @p crop (luma/pixel coordinates) of @p in into @p paste of @p out. Same colour family: each channel is
 *  resampled directly (chroma in its own subsampled grid). Different families: the crop is first brought to full
 *  resolution, converted (color_convert.h), then scaled. Output alpha, if any, becomes 255 inside @p paste;
 *  outside @p paste nothing is written. */
void transfer_picture(const PictureChannels& in, const Rect& crop, const PictureChannels& out, const Rect& paste,
                      Interpolation mode);

}  // namespace acl_sim::media
