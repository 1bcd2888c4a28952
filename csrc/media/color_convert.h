// YUV <-> RGB for full-resolution planar channels. The matrix is BT.601 full
// range (JFIF), the YCbCr that JPEG files and so JPEGD output carry:
//   R = Y + 1.402 (V-128)           Y =  0.299 R + 0.587 G + 0.114 B
//   G = Y - 0.344136 (U-128)        U = -0.168736 R - 0.331264 G + 0.5 B + 128
//         - 0.714136 (V-128)        V =  0.5 R - 0.418688 G - 0.081312 B + 128
//   B = Y + 1.772 (U-128)
// rounded half up and saturated to 0..255.
#pragma once

#include <cstddef>
#include <cstdint>

#include "media/pixel_format.h"

namespace acl_sim::media {

/** Convert @p n pixels from family @p from to @p to: in[c][i] -> out[c][i] (c = Y,U,V or R,G,B). Spread over
 *  the host thread pool; @p in and @p out must not overlap. Same family: a copy. */
void convert_planes(const uint8_t* const in[3], uint8_t* const out[3], size_t n, ColorFamily from, ColorFamily to);

}  // namespace acl_sim::media
