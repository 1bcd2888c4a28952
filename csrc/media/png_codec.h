// PNG through libpng16's simplified API, loaded at run time (codec_library.h).
// Every PNG colour type and bit depth decodes to 8-bit RGB or RGBA (palette and
// grey expanded, 16-bit reduced by libpng), as PNGD does.
#pragma once

#include <cstddef>
#include <cstdint>

namespace acl_sim::media {

struct PngInfo {
  uint32_t width = 0, height = 0;
  int components = 0;  // 1 grey, 2 grey+alpha, 3 RGB, 4 RGBA (palette: 3, or 4 with transparency)
};

/** Parse the header. Throws ACL_ERROR_INVALID_PARAM for data that is not a PNG or has a damaged header,
 *  ACL_ERROR_FEATURE_UNSUPPORTED when libpng is not found. */
PngInfo png_read_info(const uint8_t* data, size_t size);

/** Decode into @p out: rows of @p row_stride bytes, 3 (RGB) or 4 (RGBA) bytes per pixel. Throws
 *  ACL_ERROR_INVALID_PARAM for corrupt or truncated data. */
void png_decode(const uint8_t* data, size_t size, uint8_t* out, size_t row_stride, bool rgba);

}  // namespace acl_sim::media
