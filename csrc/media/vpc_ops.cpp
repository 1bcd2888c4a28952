#include "media/vpc_ops.h"

#include "acl/acl_base.h"
#include "common/error.h"
#include "media/dvpp_rules.h"
#include "media/picture_transfer.h"
#include "runtime/stream.h"

namespace acl_sim::media {

VpcJob make_vpc_job(const std::shared_ptr<PicDesc>& in, const std::shared_ptr<PicDesc>& out, const RoiConfig* crop,
                    const RoiConfig* paste, Stream& s) {
  VpcJob j;
  j.in = in->snapshot();
  j.out = out->snapshot();
  j.out_desc = out;
  require_vpc_picture(j.in, "inputDesc", kVpcInput, s);
  require_vpc_picture(j.out, "outputDesc", kVpcOutput, s);
  j.crop = crop ? crop_rect(*crop, j.in.width, j.in.height, "cropArea") : Rect{0, 0, j.in.width, j.in.height};
  j.paste = paste ? paste_rect(*paste, j.out.width, j.out.height, "pasteArea") : Rect{0, 0, j.out.width, j.out.height};
  require_scale(j.crop, j.paste);
  return j;
}

VpcJob make_convert_job(const std::shared_ptr<PicDesc>& in, const std::shared_ptr<PicDesc>& out, Stream& s) {
  VpcJob j;
  j.in = in->snapshot();
  j.out = out->snapshot();
  j.out_desc = out;
  require_vpc_picture(j.in, "inputDesc", kVpcInput, s);
  require_format(j.out, "outputDesc", nullptr, 0, "VPC");
  const FormatInfo* f = find_format(j.out.format);
  if (j.out.width == 0) j.out.width = j.in.width;
  if (j.out.height == 0) j.out.height = j.in.height;
  if (j.out.width_stride == 0) j.out.width_stride = align_up(j.out.width * f->bytes_per_pixel, 16);
  if (j.out.height_stride == 0) j.out.height_stride = align_up(j.out.height, 2);
  ACL_SIM_REQUIRE(j.out.width == j.in.width && j.out.height == j.in.height, ACL_ERROR_INVALID_PARAM,
                  "outputDesc is ", j.out.width, "x", j.out.height, " but inputDesc is ", j.in.width, "x", j.in.height,
                  ": colour conversion does not scale (set 0 or the input's size)");
  require_vpc_picture(j.out, "outputDesc", kVpcOutput, s);
  j.crop = j.paste = Rect{0, 0, j.in.width, j.in.height};
  return j;
}

void enqueue_vpc(Stream& s, std::vector<VpcJob> jobs, Interpolation mode, const char* task_name) {
  for (auto& j : jobs) j.out_desc->ret_code.store(0);
  s.enqueue(task_name, [jobs = std::move(jobs), mode, task_name] {
    for (const auto& j : jobs) {
      try {
        PictureChannels in = channels_of(static_cast<uint8_t*>(j.in.data), j.in.layout());
        PictureChannels out = channels_of(static_cast<uint8_t*>(j.out.data), j.out.layout());
        transfer_picture(in, j.crop, out, j.paste, mode);
      } catch (const Error& e) {
        j.out_desc->ret_code.store(static_cast<uint32_t>(e.code()));
        throw Error(e.code(), str(task_name, ": ", e.what()));
      }
    }
  });
}

}  // namespace acl_sim::media
