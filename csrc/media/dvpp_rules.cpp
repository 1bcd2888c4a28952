#include "media/dvpp_rules.h"

#include "acl/acl_base.h"
#include "acl/ops/acl_dvpp.h"
#include "common/error.h"
#include "runtime/device.h"
#include "runtime/mem_pool.h"
#include "runtime/runtime.h"
#include "runtime/stream.h"

namespace acl_sim::media {

void require_format(const PicFields& p, const char* what, const int* allowed, int n_allowed, const char* engine) {
  const FormatInfo* f = find_format(p.format);
  ACL_SIM_REQUIRE(f, ACL_ERROR_INVALID_PARAM, what, " has ", format_name(p.format),
                  ", which acl_sim's DVPP does not process (docs/dvpp.md lists the formats)");
  if (!allowed) return;
  for (int i = 0; i < n_allowed; ++i)
    if (allowed[i] == p.format) return;
  fail(ACL_ERROR_INVALID_PARAM, what, " has ", f->name, ", which ", engine, " does not take");
}

void require_device_buffer(const void* data, size_t bytes, const char* what, Stream& s) {
  ACL_SIM_REQUIRE(data, ACL_ERROR_INVALID_PARAM, what, " has no data: set it (acldvppSetPicDescData)");
  Device* d = Runtime::get().find_device_of(data);
  ACL_SIM_REQUIRE(d, ACL_ERROR_INVALID_PARAM, what, " data ", data,
                  " is not device memory: DVPP reads and writes memory from acldvppMalloc");
  ACL_SIM_REQUIRE(d == &s.device(), ACL_ERROR_INVALID_PARAM, what, " data lives on device ", d->id(),
                  " but the stream runs on device ", s.device().id());
  try {
    d->pool().check_range(data, bytes);
  } catch (const Error&) {
    fail(ACL_ERROR_INVALID_PARAM, what, " data ", data, " does not hold ", bytes,
         " bytes inside one live allocation");
  }
}

void require_vpc_picture(const PicFields& p, const char* what, const Limits& lim, Stream& s) {
  require_format(p, what, nullptr, 0, "VPC");
  const FormatInfo* f = find_format(p.format);
  ACL_SIM_REQUIRE(p.width >= lim.min_w && p.width <= lim.max_w && p.height >= lim.min_h && p.height <= lim.max_h,
                  ACL_ERROR_INVALID_PARAM, what, " is ", p.width, "x", p.height, ": VPC takes ", lim.min_w, "x",
                  lim.min_h, " to ", lim.max_w, "x", lim.max_h);
  const uint32_t row_bytes = p.width * f->bytes_per_pixel;
  const uint32_t align = p.width > 4096 ? 2 : 16;
  ACL_SIM_REQUIRE(p.width_stride % align == 0 && p.width_stride >= row_bytes && p.width_stride >= 32,
                  ACL_ERROR_INVALID_PARAM, what, " widthStride ", p.width_stride, " must be a multiple of ", align,
                  ", at least 32 and at least width*", f->bytes_per_pixel, " = ", row_bytes);
  ACL_SIM_REQUIRE(p.width_stride <= 16384, ACL_ERROR_INVALID_PARAM, what, " widthStride ", p.width_stride,
                  " exceeds 16384");
  ACL_SIM_REQUIRE(p.height_stride % 2 == 0 && p.height_stride >= p.height && p.height_stride <= 8192,
                  ACL_ERROR_INVALID_PARAM, what, " heightStride ", p.height_stride,
                  " must be even, at least height ", p.height, " and at most 8192");
  const size_t need = layout_bytes(p.layout());
  ACL_SIM_REQUIRE(p.size >= need, ACL_ERROR_INVALID_PARAM, what, " size ", p.size, " is too small: ",
                  f->name, " at widthStride ", p.width_stride, " x heightStride ", p.height_stride, " needs ", need,
                  " bytes");
  require_device_buffer(p.data, need, what, s);
}

namespace {

Rect roi_rect(const RoiConfig& roi, uint32_t w, uint32_t h, const char* what) {
  uint32_t l, r, t, b;
  {
    std::lock_guard<std::mutex> lock(const_cast<RoiConfig&>(roi).mu);
    l = roi.left, r = roi.right, t = roi.top, b = roi.bottom;
  }
  ACL_SIM_REQUIRE(l % 2 == 0 && t % 2 == 0 && r % 2 == 1 && b % 2 == 1, ACL_ERROR_INVALID_PARAM, what, " (", l, ",",
                  r, ",", t, ",", b, "): left and top must be even, right and bottom odd");
  ACL_SIM_REQUIRE(r > l && b > t && r < w && b < h, ACL_ERROR_INVALID_PARAM, what, " (left ", l, ", right ", r,
                  ", top ", t, ", bottom ", b, ") does not lie inside the ", w, "x", h, " picture");
  Rect rect{l, t, r - l + 1, b - t + 1};
  ACL_SIM_REQUIRE(rect.w >= 10 && rect.h >= 6, ACL_ERROR_INVALID_PARAM, what, " is ", rect.w, "x", rect.h,
                  ": the smallest area is 10x6");
  return rect;
}

}  // namespace

Rect crop_rect(const RoiConfig& roi, uint32_t w, uint32_t h, const char* what) { return roi_rect(roi, w, h, what); }

Rect paste_rect(const RoiConfig& roi, uint32_t w, uint32_t h, const char* what) {
  Rect r = roi_rect(roi, w, h, what);
  ACL_SIM_REQUIRE(r.x % 16 == 0, ACL_ERROR_INVALID_PARAM, what, " left ", r.x, " must be a multiple of 16");
  return r;
}

void require_scale(const Rect& from, const Rect& to) {
  auto ok = [](uint32_t a, uint32_t b) { return uint64_t{b} * 32 >= a && b <= uint64_t{a} * 16; };
  ACL_SIM_REQUIRE(ok(from.w, to.w) && ok(from.h, to.h), ACL_ERROR_INVALID_PARAM, "scaling ", from.w, "x", from.h,
                  " to ", to.w, "x", to.h, " is outside the VPC's range [1/32, 16] per direction");
}

Interpolation interpolation_of(const ResizeConfig* cfg) {
  switch (cfg ? cfg->interpolation.load() : 0) {
    case 2: return Interpolation::kNearest;
    case 3: return Interpolation::kBilinearTf;
    case 4: return Interpolation::kNearestTf;
    default: return Interpolation::kBilinear;  // 0 (the chip then uses 1) and 1
  }
}

}  // namespace acl_sim::media
