// The VPC calls: validate at call time, then enqueue the pixel work on the
// stream. One job = (input picture, crop) -> (output picture, paste).
#pragma once

#include <memory>
#include <vector>

#include "media/channel_resize.h"
#include "media/dvpp_objects.h"

namespace acl_sim {
class Stream;
}

namespace acl_sim::media {

struct VpcJob {
  PicFields in, out;
  Rect crop, paste;
  std::shared_ptr<PicDesc> out_desc;  // receives the ret code
};

/** Build a job from descriptions: @p crop / @p paste nullptr mean the whole input / output picture. Checks every
 *  rule of dvpp_rules.h against @p s's device. */
VpcJob make_vpc_job(const std::shared_ptr<PicDesc>& in, const std::shared_ptr<PicDesc>& out, const RoiConfig* crop,
                    const RoiConfig* paste, Stream& s);

/** Enqueue @p jobs as one stream task named @p task_name. */
void enqueue_vpc(Stream& s, std::vector<VpcJob> jobs, Interpolation mode, const char* task_name);

/** acldvppVpcConvertColorAsync: a same-size job whose output width/height/strides may be 0 (taken from the
 *  input: widthStride = ALIGN_UP(width * bytes-per-pixel, 16), heightStride = ALIGN_UP(height, 2)). */
VpcJob make_convert_job(const std::shared_ptr<PicDesc>& in, const std::shared_ptr<PicDesc>& out, Stream& s);

}  // namespace acl_sim::media
