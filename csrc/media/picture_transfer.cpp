#include "media/picture_transfer.h"

#include <algorithm>
#include <vector>

#include "media/color_convert.h"

namespace acl_sim::media {

namespace {

/** @p r (in full-resolution pixels) in the grid of channel @p c of a picture whose luma is @p luma. */
Rect channel_rect(const Rect& r, const ChannelView& c, const ChannelView& luma) {
  if (c.width == luma.width && c.height == luma.height) return r;
  const uint32_t sx = (luma.width + c.width - 1) / std::max(c.width, 1u);
  const uint32_t sy = (luma.height + c.height - 1) / std::max(c.height, 1u);
  Rect o;
  o.x = r.x / sx;
  o.y = r.y / sy;
  o.w = std::min((r.x + r.w + sx - 1) / sx, c.width) - o.x;
  o.h = std::min((r.y + r.h + sy - 1) / sy, c.height) - o.y;
  return o;
}

ChannelView plane_view(uint8_t* base, uint32_t w, uint32_t h) {
  ChannelView v;
  v.base = base;
  v.row_stride = w;
  v.step = 1;
  v.width = w;
  v.height = h;
  return v;
}

}  // namespace

void transfer_picture(const PictureChannels& in, const Rect& crop, const PictureChannels& out, const Rect& paste,
                      Interpolation mode) {
  if (in.family == out.family) {
    for (int c = 0; c < 3; ++c) {
      if (!out.c[c].base) continue;  // YUV400 output: luma only
      resize_channel(in.c[c], channel_rect(crop, in.c[c], in.c[0]), out.c[c], channel_rect(paste, out.c[c], out.c[0]),
                     mode);
    }
  } else {
    // Bring the crop to full resolution in its own family, convert, then scale like a same-family picture.
    const size_t n = static_cast<size_t>(crop.w) * crop.h;
    std::vector<uint8_t> full(3 * n), converted(3 * n);
    PictureChannels mid;
    mid.family = out.family;
    const uint8_t* src_planes[3];
    uint8_t* dst_planes[3];
    for (int c = 0; c < 3; ++c) {
      ChannelView f = plane_view(full.data() + c * n, crop.w, crop.h);
      Rect whole{0, 0, crop.w, crop.h};
      resize_channel(in.c[c], channel_rect(crop, in.c[c], in.c[0]), f, whole, Interpolation::kBilinear);
      src_planes[c] = f.base;
      dst_planes[c] = converted.data() + c * n;
      mid.c[c] = plane_view(dst_planes[c], crop.w, crop.h);
    }
    convert_planes(src_planes, dst_planes, n, in.family, out.family);
    Rect whole{0, 0, crop.w, crop.h};
    transfer_picture(mid, whole, out, paste, mode);
    return;
  }
  if (out.alpha.base) {
    ChannelView opaque;
    opaque.fill = 255;
    resize_channel(opaque, Rect{}, out.alpha, paste, mode);
  }
}

}  // namespace acl_sim::media
