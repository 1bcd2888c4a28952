// The codec calls (JPEGD, JPEGE, PNGD) and their host-side helpers (image
// information, output size prediction): validation at call time, decoding and
// encoding as stream tasks.
#pragma once

#include <cstdint>
#include <memory>

#include "media/dvpp_objects.h"

namespace acl_sim {
class Stream;
}

namespace acl_sim::media {

/** acldvppJpegGetImageInfoV2's values; @p format receives an acldvppJpegFormat. */
void jpeg_image_info(const void* data, uint32_t size, uint32_t* w, uint32_t* h, int32_t* components, int* format);
uint32_t jpeg_predict_dec_size(const void* data, uint32_t size, int out_format);
uint32_t jpeg_predict_enc_size(const PicFields& in, uint32_t level);
void png_image_info(const void* data, uint32_t size, uint32_t* w, uint32_t* h, int32_t* components);
uint32_t png_predict_dec_size(const void* data, uint32_t size, int out_format);

void enqueue_jpeg_decode(const void* data, uint32_t size, const std::shared_ptr<PicDesc>& out, Stream& s);
void enqueue_jpeg_encode(const std::shared_ptr<PicDesc>& in, void* data, uint32_t* size, uint32_t level, Stream& s);
void enqueue_png_decode(const void* data, uint32_t size, const std::shared_ptr<PicDesc>& out, Stream& s);

}  // namespace acl_sim::media
