// JPEG through libjpeg-turbo (the libjpeg.so.62 ABI), loaded at run time
// (codec_library.h). Decoding keeps the file's YCbCr samples (no colour
// conversion, no chroma interpolation: chroma is read at its coded resolution
// and only resampled when the output format's subsampling differs), as JPEGD
// does. Encoding takes YUV pictures and writes baseline Huffman 4:2:0 JFIF.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "media/pixel_format.h"

namespace acl_sim::media {

struct JpegInfo {
  uint32_t width = 0, height = 0;
  int components = 0;
  int subsampling = 0;     // acldvppJpegFormat (ACL_JPEG_CSS_*)
  bool progressive = false;
  bool arithmetic = false;
  bool ycbcr_or_gray = true;  // false for CMYK / YCCK / Adobe RGB files
};

/** Parse the header. Throws ACL_ERROR_INVALID_PARAM for data that is not a JPEG or whose header is damaged,
 *  ACL_ERROR_FEATURE_UNSUPPORTED when libjpeg is not found. */
JpegInfo jpeg_read_info(const uint8_t* data, size_t size);

/** Decode into @p out (a YUV-family picture of the image's width and height). Throws ACL_ERROR_INVALID_PARAM for
 *  corrupt or truncated data (libjpeg warnings count as errors: the chip reports them too). */
void jpeg_decode(const uint8_t* data, size_t size, const PictureChannels& out);

/** Encode the YUV picture @p in (@p width x @p height) at quality 1..100. */
std::vector<uint8_t> jpeg_encode(const PictureChannels& in, uint32_t width, uint32_t height, int quality);

}  // namespace acl_sim::media
