#include "media/pixel_format.h"

#include "acl/ops/acl_dvpp.h"

namespace acl_sim::media {

namespace {

using F = ColorFamily;

const FormatInfo kFormats[] = {
    {PIXEL_FORMAT_YUV_400, "PIXEL_FORMAT_YUV_400", F::kYuv, 1, 0, 0},
    {PIXEL_FORMAT_YUV_SEMIPLANAR_420, "PIXEL_FORMAT_YUV_SEMIPLANAR_420", F::kYuv, 1, 2, 2},
    {PIXEL_FORMAT_YVU_SEMIPLANAR_420, "PIXEL_FORMAT_YVU_SEMIPLANAR_420", F::kYuv, 1, 2, 2},
    {PIXEL_FORMAT_YUV_SEMIPLANAR_422, "PIXEL_FORMAT_YUV_SEMIPLANAR_422", F::kYuv, 1, 2, 1},
    {PIXEL_FORMAT_YVU_SEMIPLANAR_422, "PIXEL_FORMAT_YVU_SEMIPLANAR_422", F::kYuv, 1, 2, 1},
    {PIXEL_FORMAT_YUV_SEMIPLANAR_444, "PIXEL_FORMAT_YUV_SEMIPLANAR_444", F::kYuv, 1, 1, 1},
    {PIXEL_FORMAT_YVU_SEMIPLANAR_444, "PIXEL_FORMAT_YVU_SEMIPLANAR_444", F::kYuv, 1, 1, 1},
    {PIXEL_FORMAT_YUYV_PACKED_422, "PIXEL_FORMAT_YUYV_PACKED_422", F::kYuv, 2, 2, 1},
    {PIXEL_FORMAT_UYVY_PACKED_422, "PIXEL_FORMAT_UYVY_PACKED_422", F::kYuv, 2, 2, 1},
    {PIXEL_FORMAT_YVYU_PACKED_422, "PIXEL_FORMAT_YVYU_PACKED_422", F::kYuv, 2, 2, 1},
    {PIXEL_FORMAT_VYUY_PACKED_422, "PIXEL_FORMAT_VYUY_PACKED_422", F::kYuv, 2, 2, 1},
    {PIXEL_FORMAT_YUV_PACKED_444, "PIXEL_FORMAT_YUV_PACKED_444", F::kYuv, 3, 1, 1},
    {PIXEL_FORMAT_RGB_888, "PIXEL_FORMAT_RGB_888", F::kRgb, 3, 1, 1},
    {PIXEL_FORMAT_BGR_888, "PIXEL_FORMAT_BGR_888", F::kRgb, 3, 1, 1},
    {PIXEL_FORMAT_ARGB_8888, "PIXEL_FORMAT_ARGB_8888", F::kRgb, 4, 1, 1},
    {PIXEL_FORMAT_ABGR_8888, "PIXEL_FORMAT_ABGR_8888", F::kRgb, 4, 1, 1},
    {PIXEL_FORMAT_RGBA_8888, "PIXEL_FORMAT_RGBA_8888", F::kRgb, 4, 1, 1},
    {PIXEL_FORMAT_BGRA_8888, "PIXEL_FORMAT_BGRA_8888", F::kRgb, 4, 1, 1},
};

uint32_t ceil_div(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

ChannelView view(uint8_t* base, size_t row_stride, size_t step, uint32_t w, uint32_t h) {
  ChannelView v;
  v.base = base;
  v.row_stride = row_stride;
  v.step = step;
  v.width = w;
  v.height = h;
  return v;
}

}  // namespace

const FormatInfo* find_format(int format) {
  for (const auto& f : kFormats)
    if (f.format == format) return &f;
  return nullptr;
}

std::string format_name(int format) {
  if (const FormatInfo* f = find_format(format)) return f->name;
  return "pixel format " + std::to_string(format);
}

size_t layout_bytes(const PictureLayout& l) {
  const FormatInfo* f = find_format(l.format);
  size_t plane = static_cast<size_t>(l.width_stride) * l.height_stride;
  if (!f || f->bytes_per_pixel != 1 || f->chroma_sx == 0) return plane;
  // semi-planar: the interleaved chroma plane has the luma stride and height_stride / sy rows
  return plane + static_cast<size_t>(l.width_stride) * (l.height_stride / f->chroma_sy) * 2 / f->chroma_sx;
}

PictureChannels channels_of(uint8_t* data, const PictureLayout& l) {
  const FormatInfo* f = find_format(l.format);
  PictureChannels p;
  p.family = f->family;
  const size_t ws = l.width_stride;
  const uint32_t w = l.width, h = l.height;
  switch (l.format) {
    case PIXEL_FORMAT_YUV_400:
      p.c[0] = view(data, ws, 1, w, h);
      p.c[1].width = p.c[2].width = ceil_div(w, 2);
      p.c[1].height = p.c[2].height = ceil_div(h, 2);
      break;
    case PIXEL_FORMAT_YUV_SEMIPLANAR_420:
    case PIXEL_FORMAT_YVU_SEMIPLANAR_420:
    case PIXEL_FORMAT_YUV_SEMIPLANAR_422:
    case PIXEL_FORMAT_YVU_SEMIPLANAR_422:
    case PIXEL_FORMAT_YUV_SEMIPLANAR_444:
    case PIXEL_FORMAT_YVU_SEMIPLANAR_444: {
      uint8_t* chroma = data + ws * l.height_stride;
      const uint32_t cw = ceil_div(w, f->chroma_sx), ch = ceil_div(h, f->chroma_sy);
      // the chroma plane holds (width_stride / sx) interleaved pairs per row
      const size_t crow = ws * 2 / f->chroma_sx;
      const bool vu = l.format == PIXEL_FORMAT_YVU_SEMIPLANAR_420 || l.format == PIXEL_FORMAT_YVU_SEMIPLANAR_422 ||
                      l.format == PIXEL_FORMAT_YVU_SEMIPLANAR_444;
      p.c[0] = view(data, ws, 1, w, h);
      p.c[1] = view(chroma + (vu ? 1 : 0), crow, 2, cw, ch);
      p.c[2] = view(chroma + (vu ? 0 : 1), crow, 2, cw, ch);
      break;
    }
    case PIXEL_FORMAT_YUYV_PACKED_422:
    case PIXEL_FORMAT_UYVY_PACKED_422:
    case PIXEL_FORMAT_YVYU_PACKED_422:
    case PIXEL_FORMAT_VYUY_PACKED_422: {
      // byte positions of Y0, U, V inside each 4-byte pair of pixels
      int y = 0, u = 1, v = 3;
      if (l.format == PIXEL_FORMAT_UYVY_PACKED_422) y = 1, u = 0, v = 2;
      if (l.format == PIXEL_FORMAT_YVYU_PACKED_422) y = 0, u = 3, v = 1;
      if (l.format == PIXEL_FORMAT_VYUY_PACKED_422) y = 1, u = 2, v = 0;
      p.c[0] = view(data + y, ws, 2, w, h);
      p.c[1] = view(data + u, ws, 4, ceil_div(w, 2), h);
      p.c[2] = view(data + v, ws, 4, ceil_div(w, 2), h);
      break;
    }
    default: {
      // packed 3- and 4-byte formats: position of each channel inside a pixel
      int c0 = 0, c1 = 1, c2 = 2, a = -1;
      switch (l.format) {
        case PIXEL_FORMAT_BGR_888: c0 = 2, c2 = 0; break;
        case PIXEL_FORMAT_ARGB_8888: a = 0, c0 = 1, c1 = 2, c2 = 3; break;
        case PIXEL_FORMAT_ABGR_8888: a = 0, c0 = 3, c1 = 2, c2 = 1; break;
        case PIXEL_FORMAT_RGBA_8888: a = 3; break;
        case PIXEL_FORMAT_BGRA_8888: c0 = 2, c2 = 0, a = 3; break;
        default: break;  // RGB_888, YUV_PACKED_444
      }
      const size_t bpp = static_cast<size_t>(f->bytes_per_pixel);
      p.c[0] = view(data + c0, ws, bpp, w, h);
      p.c[1] = view(data + c1, ws, bpp, w, h);
      p.c[2] = view(data + c2, ws, bpp, w, h);
      if (a >= 0) p.alpha = view(data + a, ws, bpp, w, h);
      break;
    }
  }
  return p;
}

}  // namespace acl_sim::media
