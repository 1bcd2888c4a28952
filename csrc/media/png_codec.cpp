#include "media/png_codec.h"

#include <cstring>
#include <string>

#include "acl/acl_base.h"
#include "common/error.h"
#include "media/codec_library.h"

#if __has_include(<png.h>)
#include <png.h>
#define ACL_SIM_HAVE_PNG_H 1
#endif

namespace acl_sim::media {

#if ACL_SIM_HAVE_PNG_H

namespace {

struct PngApi {
  decltype(&::png_image_begin_read_from_memory) begin_read;
  decltype(&::png_image_finish_read) finish_read;
  decltype(&::png_image_free) free_image;
};

const PngApi& api() {
  static const PngApi a = [] {
    const CodecLibrary& lib = codec_library("png");
    require_codec_library(lib, "PNG");
    PngApi x{};
    x.begin_read = reinterpret_cast<decltype(x.begin_read)>(codec_symbol(lib, "png_image_begin_read_from_memory"));
    x.finish_read = reinterpret_cast<decltype(x.finish_read)>(codec_symbol(lib, "png_image_finish_read"));
    x.free_image = reinterpret_cast<decltype(x.free_image)>(codec_symbol(lib, "png_image_free"));
    return x;
  }();
  return a;
}

const uint8_t kSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};

/** An opened png_image, freed on scope exit (libpng's simplified API reports errors by return value). */
struct Image {
  png_image img{};
  Image(const uint8_t* data, size_t size) {
    ACL_SIM_REQUIRE(data && size >= 8 && std::memcmp(data, kSignature, 8) == 0, ACL_ERROR_INVALID_PARAM,
                    "data is not a PNG (no PNG signature)");
    const PngApi& p = api();
    img.version = PNG_IMAGE_VERSION;
    if (!p.begin_read(&img, data, size)) {
      std::string msg = img.message;
      p.free_image(&img);
      fail(ACL_ERROR_INVALID_PARAM, "damaged PNG header: ", msg);
    }
  }
  ~Image() { api().free_image(&img); }
};

}  // namespace

PngInfo png_read_info(const uint8_t* data, size_t size) {
  Image im(data, size);
  PngInfo info;
  info.width = im.img.width;
  info.height = im.img.height;
  const bool color = (im.img.format & PNG_FORMAT_FLAG_COLOR) != 0;
  const bool alpha = (im.img.format & PNG_FORMAT_FLAG_ALPHA) != 0;
  info.components = (color ? 3 : 1) + (alpha ? 1 : 0);
  return info;
}

void png_decode(const uint8_t* data, size_t size, uint8_t* out, size_t row_stride, bool rgba) {
  Image im(data, size);
  im.img.format = rgba ? PNG_FORMAT_RGBA : PNG_FORMAT_RGB;
  // row_stride is in components for png_image_finish_read
  if (!api().finish_read(&im.img, nullptr, out, static_cast<png_int_32>(row_stride), nullptr))
    fail(ACL_ERROR_INVALID_PARAM, "corrupt PNG data: ", im.img.message);
}

#else  // built without png.h

PngInfo png_read_info(const uint8_t*, size_t) {
  fail(ACL_ERROR_FEATURE_UNSUPPORTED, "acl_sim was built without png.h: PNG is unavailable");
}
void png_decode(const uint8_t*, size_t, uint8_t*, size_t, bool) { png_read_info(nullptr, 0); }

#endif

}  // namespace acl_sim::media
