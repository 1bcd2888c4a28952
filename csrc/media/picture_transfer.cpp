#include "media/picture_transfer.h"

#include <algorithm>
#include <vector>

#include "media/color_convert.h"

namespace acl_sim::media {

namespace {

/** Horizontal and vertical subsampling (1 or 2) of channel @p c against the picture's luma. */
uint32_t sub_x(const ChannelView& c, const ChannelView& luma) {
  return c.width * 2 <= luma.width + 1 && c.width < luma.width ? 2 : 1;
}
uint32_t sub_y(const ChannelView& c, const ChannelView& luma) {
  return c.height * 2 <= luma.height + 1 && c.height < luma.height ? 2 : 1;
}

/** @p r (in full-resolution pixels) in the grid of channel @p c of a picture whose luma is @p luma. */
Rect channel_rect(const Rect& r, const ChannelView& c, const ChannelView& luma) {
  const uint32_t sx = sub_x(c, luma), sy = sub_y(c, luma);
  if (sx == 1 && sy == 1) return r;
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
      // the scale comes from the full-resolution rectangles: chroma sizes are rounded up for odd pictures
      const double scale_x = static_cast<double>(crop.w) * sub_x(out.c[c], out.c[0]) / (paste.w * sub_x(in.c[c], in.c[0]));
      const double scale_y = static_cast<double>(crop.h) * sub_y(out.c[c], out.c[0]) / (paste.h * sub_y(in.c[c], in.c[0]));
      resize_channel(in.c[c], channel_rect(crop, in.c[c], in.c[0]), out.c[c], channel_rect(paste, out.c[c], out.c[0]),
                     mode, scale_x, scale_y);
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
      resize_channel(in.c[c], channel_rect(crop, in.c[c], in.c[0]), f, whole, Interpolation::kBilinear,
                     1.0 / sub_x(in.c[c], in.c[0]), 1.0 / sub_y(in.c[c], in.c[0]));
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
