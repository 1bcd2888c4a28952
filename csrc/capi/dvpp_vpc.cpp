// VPC: resize, crop, crop-and-paste (single and batch), colour conversion.
#include <vector>

#include "acl/ops/acl_dvpp.h"
#include "capi/rt_common.h"
#include "media/dvpp_objects.h"
#include "media/dvpp_rules.h"
#include "media/vpc_ops.h"
#include "runtime/stream.h"

using namespace acl_sim;
using namespace acl_sim::capi;
using namespace acl_sim::media;

namespace {

/** One crop(-resize)(-paste) call; @p paste / @p resize may be NULL. */
void single(acldvppChannelDesc* channelDesc, acldvppPicDesc* inputDesc, acldvppPicDesc* outputDesc,
            acldvppRoiConfig* cropArea, acldvppRoiConfig* pasteArea, bool need_paste, acldvppResizeConfig* resizeConfig,
            aclrtStream stream, const char* task) {
  rt();
  require_open_channel(channelDesc, DVPP_CHNMODE_VPC);
  auto in = require_pic(inputDesc, "inputDesc");
  auto out = require_pic(outputDesc, "outputDesc");
  std::shared_ptr<RoiConfig> crop = cropArea ? require_roi(cropArea, "cropArea") : nullptr;
  std::shared_ptr<RoiConfig> paste = need_paste ? require_roi(pasteArea, "pasteArea") : nullptr;
  std::shared_ptr<ResizeConfig> cfg = resizeConfig ? require_resize(resizeConfig, "resizeConfig") : nullptr;
  auto stream_ref = resolve_stream(stream);  // keeps the stream alive for the call
  Stream& s = *stream_ref;
  std::vector<VpcJob> jobs{make_vpc_job(in, out, crop.get(), paste.get(), s)};
  enqueue_vpc(s, std::move(jobs), interpolation_of(cfg.get()), task);
}

/** A batch call: input i gives roiNums[i] consecutive outputs. */
void batch(acldvppChannelDesc* channelDesc, acldvppBatchPicDesc* src, uint32_t* roiNums, uint32_t size,
           acldvppBatchPicDesc* dst, acldvppRoiConfig* cropAreas[], acldvppRoiConfig* pasteAreas[], bool need_paste,
           acldvppResizeConfig* resizeConfig, aclrtStream stream, const char* task) {
  rt();
  require_open_channel(channelDesc, DVPP_CHNMODE_VPC);
  auto in = require_batch(src, "srcBatchPicDescs");
  auto out = require_batch(dst, "dstBatchPicDescs");
  ACL_SIM_REQUIRE(roiNums, ACL_ERROR_INVALID_PARAM, "roiNums must not be NULL");
  ACL_SIM_REQUIRE(cropAreas, ACL_ERROR_INVALID_PARAM, "cropAreas must not be NULL");
  ACL_SIM_REQUIRE(!need_paste || pasteAreas, ACL_ERROR_INVALID_PARAM, "pasteAreas must not be NULL");
  ACL_SIM_REQUIRE(size > 0 && size <= in->pics.size(), ACL_ERROR_INVALID_PARAM, "size ", size,
                  " must be in [1, ", in->pics.size(), "] (the source batch)");
  uint64_t total = 0;
  for (uint32_t i = 0; i < size; ++i) total += roiNums[i];
  ACL_SIM_REQUIRE(total > 0 && total <= kMaxBatchRois && total <= out->pics.size(), ACL_ERROR_INVALID_PARAM,
                  "roiNums add up to ", total, ": must be in [1, ", kMaxBatchRois, "] and at most the ",
                  out->pics.size(), " destination pictures");
  std::shared_ptr<ResizeConfig> cfg = resizeConfig ? require_resize(resizeConfig, "resizeConfig") : nullptr;
  auto stream_ref = resolve_stream(stream);  // keeps the stream alive for the call
  Stream& s = *stream_ref;
  std::vector<VpcJob> jobs;
  uint32_t k = 0;
  for (uint32_t i = 0; i < size; ++i) {
    for (uint32_t r = 0; r < roiNums[i]; ++r, ++k) {
      auto crop = require_roi(cropAreas[k], "cropAreas[i]");
      std::shared_ptr<RoiConfig> paste = need_paste ? require_roi(pasteAreas[k], "pasteAreas[i]") : nullptr;
      try {
        jobs.push_back(make_vpc_job(in->pics[i], out->pics[k], crop.get(), paste.get(), s));
      } catch (const Error& e) {
        fail(e.code(), "source ", i, ", region ", k, ": ", e.what());
      }
    }
  }
  enqueue_vpc(s, std::move(jobs), interpolation_of(cfg.get()), task);
}

}  // namespace

extern "C" {

ACL_FUNC_VISIBILITY aclError acldvppVpcResizeAsync(acldvppChannelDesc* channelDesc, acldvppPicDesc* inputDesc,
                                                   acldvppPicDesc* outputDesc, acldvppResizeConfig* resizeConfig,
                                                   aclrtStream stream) {
  return api_call("acldvppVpcResizeAsync", [&] {
    require_resize(resizeConfig, "resizeConfig");
    single(channelDesc, inputDesc, outputDesc, nullptr, nullptr, false, resizeConfig, stream, "dvpp_vpc_resize");
  });
}

ACL_FUNC_VISIBILITY aclError acldvppVpcCropAsync(acldvppChannelDesc* channelDesc, acldvppPicDesc* inputDesc,
                                                 acldvppPicDesc* outputDesc, acldvppRoiConfig* cropArea,
                                                 aclrtStream stream) {
  return api_call("acldvppVpcCropAsync", [&] {
    require_roi(cropArea, "cropArea");
    single(channelDesc, inputDesc, outputDesc, cropArea, nullptr, false, nullptr, stream, "dvpp_vpc_crop");
  });
}

ACL_FUNC_VISIBILITY aclError acldvppVpcCropResizeAsync(acldvppChannelDesc* channelDesc, acldvppPicDesc* inputDesc,
                                                       acldvppPicDesc* outputDesc, acldvppRoiConfig* cropArea,
                                                       acldvppResizeConfig* resizeConfig, aclrtStream stream) {
  return api_call("acldvppVpcCropResizeAsync", [&] {
    require_roi(cropArea, "cropArea");
    require_resize(resizeConfig, "resizeConfig");
    single(channelDesc, inputDesc, outputDesc, cropArea, nullptr, false, resizeConfig, stream, "dvpp_vpc_crop");
  });
}

ACL_FUNC_VISIBILITY aclError acldvppVpcCropAndPasteAsync(acldvppChannelDesc* channelDesc, acldvppPicDesc* inputDesc,
                                                         acldvppPicDesc* outputDesc, acldvppRoiConfig* cropArea,
                                                         acldvppRoiConfig* pasteArea, aclrtStream stream) {
  return api_call("acldvppVpcCropAndPasteAsync", [&] {
    require_roi(cropArea, "cropArea");
    single(channelDesc, inputDesc, outputDesc, cropArea, pasteArea, true, nullptr, stream, "dvpp_vpc_crop_paste");
  });
}

ACL_FUNC_VISIBILITY aclError acldvppVpcCropResizePasteAsync(acldvppChannelDesc* channelDesc,
                                                            acldvppPicDesc* inputDesc, acldvppPicDesc* outputDesc,
                                                            acldvppRoiConfig* cropArea, acldvppRoiConfig* pasteArea,
                                                            acldvppResizeConfig* resizeConfig, aclrtStream stream) {
  return api_call("acldvppVpcCropResizePasteAsync", [&] {
    require_roi(cropArea, "cropArea");
    require_resize(resizeConfig, "resizeConfig");
    single(channelDesc, inputDesc, outputDesc, cropArea, pasteArea, true, resizeConfig, stream,
           "dvpp_vpc_crop_paste");
  });
}

ACL_FUNC_VISIBILITY aclError acldvppVpcBatchCropAsync(acldvppChannelDesc* channelDesc,
                                                      acldvppBatchPicDesc* srcBatchPicDescs, uint32_t* roiNums,
                                                      uint32_t size, acldvppBatchPicDesc* dstBatchPicDescs,
                                                      acldvppRoiConfig* cropAreas[], aclrtStream stream) {
  return api_call("acldvppVpcBatchCropAsync", [&] {
    batch(channelDesc, srcBatchPicDescs, roiNums, size, dstBatchPicDescs, cropAreas, nullptr, false, nullptr, stream,
          "dvpp_vpc_batch_crop");
  });
}

ACL_FUNC_VISIBILITY aclError acldvppVpcBatchCropResizeAsync(acldvppChannelDesc* channelDesc,
                                                            acldvppBatchPicDesc* srcBatchPicDescs, uint32_t* roiNums,
                                                            uint32_t size, acldvppBatchPicDesc* dstBatchPicDescs,
                                                            acldvppRoiConfig* cropAreas[],
                                                            acldvppResizeConfig* resizeConfig, aclrtStream stream) {
  return api_call("acldvppVpcBatchCropResizeAsync", [&] {
    require_resize(resizeConfig, "resizeConfig");
    batch(channelDesc, srcBatchPicDescs, roiNums, size, dstBatchPicDescs, cropAreas, nullptr, false, resizeConfig,
          stream, "dvpp_vpc_batch_crop");
  });
}

ACL_FUNC_VISIBILITY aclError acldvppVpcBatchCropAndPasteAsync(acldvppChannelDesc* channelDesc,
                                                              acldvppBatchPicDesc* srcBatchPicDescs,
                                                              uint32_t* roiNums, uint32_t size,
                                                              acldvppBatchPicDesc* dstBatchPicDescs,
                                                              acldvppRoiConfig* cropAreas[],
                                                              acldvppRoiConfig* pasteAreas[], aclrtStream stream) {
  return api_call("acldvppVpcBatchCropAndPasteAsync", [&] {
    batch(channelDesc, srcBatchPicDescs, roiNums, size, dstBatchPicDescs, cropAreas, pasteAreas, true, nullptr,
          stream, "dvpp_vpc_batch_crop_paste");
  });
}

ACL_FUNC_VISIBILITY aclError acldvppVpcConvertColorAsync(acldvppChannelDesc* channelDesc, acldvppPicDesc* inputDesc,
                                                         acldvppPicDesc* outputDesc, aclrtStream stream) {
  return api_call("acldvppVpcConvertColorAsync", [&] {
    rt();
    require_open_channel(channelDesc, DVPP_CHNMODE_VPC);
    auto in = require_pic(inputDesc, "inputDesc");
    auto out = require_pic(outputDesc, "outputDesc");
    auto stream_ref = resolve_stream(stream);  // keeps the stream alive for the call
  Stream& s = *stream_ref;
    std::vector<VpcJob> jobs{make_convert_job(in, out, s)};
    enqueue_vpc(s, std::move(jobs), Interpolation::kBilinear, "dvpp_vpc_convert_color");
  });
}

}  // extern "C"
