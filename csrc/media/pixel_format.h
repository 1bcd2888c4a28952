// What an 8-bit DVPP pixel format looks like in memory, as strided channel
// views. Every supported layout (YUV400, the semi-planar 420/422/444 pairs,
// packed YUV422 in its four orders, packed YUV444, RGB/BGR and the four
// 32-bit orders) reduces to three logical channels (Y,U,V or R,G,B), each a
// 2-D array base + row*row_stride + col*step with its own subsampling. The
// pixel kernels (channel_resize.h, color_convert.h) work on those views only,
// so no kernel knows a format.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace acl_sim::media {

enum class ColorFamily { kYuv, kRgb };

/** Static facts about one acldvppPixelFormat value. */
struct FormatInfo {
  int format;              // the acldvppPixelFormat value
  const char* name;        // CANN's enumerator name
  ColorFamily family;
  int bytes_per_pixel;     // of the first plane (1 for planar/semi-planar, 2 packed 422, 3, 4)
  int chroma_sx, chroma_sy;  // chroma subsampling (1 or 2); 0 for YUV400 (no chroma)
};

/** The format's facts, or nullptr when acl_sim cannot process it (10-bit, planar, 4/5/6-bit RGB, Bayer, ...). */
const FormatInfo* find_format(int format);
/** "PIXEL_FORMAT_..." or the number, for messages. */
std::string format_name(int format);

/** One logical channel: sample (x, y) is base[y*row_stride + x*step]; base == nullptr means the constant fill. */
struct ChannelView {
  uint8_t* base = nullptr;
  size_t row_stride = 0;
  size_t step = 1;
  uint32_t width = 0, height = 0;  // samples in this channel
  uint8_t fill = 128;              // value of a missing channel (YUV400 chroma)
};

/** A picture's three logical channels (+ alpha for 32-bit formats, base == nullptr otherwise). */
struct PictureChannels {
  ColorFamily family = ColorFamily::kYuv;
  ChannelView c[3];
  ChannelView alpha;
};

/** Geometry of a picture in memory (an acldvppPicDesc's numbers). */
struct PictureLayout {
  int format = 0;
  uint32_t width = 0, height = 0;
  uint32_t width_stride = 0, height_stride = 0;  // bytes per row / rows of the first plane
};

/** Bytes the layout spans (first plane + chroma plane for semi-planar formats). */
size_t layout_bytes(const PictureLayout& l);
/** The channel views of a picture at @p data laid out as @p l (format must be supported). */
PictureChannels channels_of(uint8_t* data, const PictureLayout& l);

}  // namespace acl_sim::media
