#include "media/jpeg_codec.h"

#include <csetjmp>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "acl/acl_base.h"
#include "acl/ops/acl_dvpp.h"
#include "common/error.h"
#include "media/codec_library.h"
#include "media/picture_transfer.h"

#if __has_include(<jpeglib.h>)
#include <jpeglib.h>
#define ACL_SIM_HAVE_JPEGLIB 1
#endif

namespace acl_sim::media {

#if ACL_SIM_HAVE_JPEGLIB

namespace {

/** The libjpeg entry points acl_sim uses, resolved from the loaded library. */
struct JpegApi {
  decltype(&::jpeg_std_error) std_error;
  decltype(&::jpeg_CreateDecompress) create_decompress;
  decltype(&::jpeg_destroy_decompress) destroy_decompress;
  decltype(&::jpeg_mem_src) mem_src;
  decltype(&::jpeg_read_header) read_header;
  decltype(&::jpeg_start_decompress) start_decompress;
  decltype(&::jpeg_read_scanlines) read_scanlines;
  decltype(&::jpeg_finish_decompress) finish_decompress;
  decltype(&::jpeg_CreateCompress) create_compress;
  decltype(&::jpeg_destroy_compress) destroy_compress;
  decltype(&::jpeg_mem_dest) mem_dest;
  decltype(&::jpeg_set_defaults) set_defaults;
  decltype(&::jpeg_set_colorspace) set_colorspace;
  decltype(&::jpeg_set_quality) set_quality;
  decltype(&::jpeg_start_compress) start_compress;
  decltype(&::jpeg_write_raw_data) write_raw_data;
  decltype(&::jpeg_finish_compress) finish_compress;
};

const JpegApi& api() {
  static const JpegApi a = [] {
    const CodecLibrary& lib = codec_library("jpeg");
    require_codec_library(lib, "JPEG");
    JpegApi x{};
#define ACL_SIM_JPEG_SYM(field, name) x.field = reinterpret_cast<decltype(x.field)>(codec_symbol(lib, name))
    ACL_SIM_JPEG_SYM(std_error, "jpeg_std_error");
    ACL_SIM_JPEG_SYM(create_decompress, "jpeg_CreateDecompress");
    ACL_SIM_JPEG_SYM(destroy_decompress, "jpeg_destroy_decompress");
    ACL_SIM_JPEG_SYM(mem_src, "jpeg_mem_src");
    ACL_SIM_JPEG_SYM(read_header, "jpeg_read_header");
    ACL_SIM_JPEG_SYM(start_decompress, "jpeg_start_decompress");
    ACL_SIM_JPEG_SYM(read_scanlines, "jpeg_read_scanlines");
    ACL_SIM_JPEG_SYM(finish_decompress, "jpeg_finish_decompress");
    ACL_SIM_JPEG_SYM(create_compress, "jpeg_CreateCompress");
    ACL_SIM_JPEG_SYM(destroy_compress, "jpeg_destroy_compress");
    ACL_SIM_JPEG_SYM(mem_dest, "jpeg_mem_dest");
    ACL_SIM_JPEG_SYM(set_defaults, "jpeg_set_defaults");
    ACL_SIM_JPEG_SYM(set_colorspace, "jpeg_set_colorspace");
    ACL_SIM_JPEG_SYM(set_quality, "jpeg_set_quality");
    ACL_SIM_JPEG_SYM(start_compress, "jpeg_start_compress");
    ACL_SIM_JPEG_SYM(write_raw_data, "jpeg_write_raw_data");
    ACL_SIM_JPEG_SYM(finish_compress, "jpeg_finish_compress");
#undef ACL_SIM_JPEG_SYM
    return x;
  }();
  return a;
}

/** libjpeg reports errors through error_exit, which must not return: jump back to the caller's setjmp. The
 *  frames between are libjpeg's (C), so no C++ destructor is skipped. */
struct ErrorManager {
  jpeg_error_mgr pub;
  std::jmp_buf jump;
  char message[JMSG_LENGTH_MAX];
  int warnings;
};

void on_error_exit(j_common_ptr cinfo) {
  auto* err = reinterpret_cast<ErrorManager*>(cinfo->err);
  err->pub.format_message(cinfo, err->message);
  std::longjmp(err->jump, 1);
}

void on_emit_message(j_common_ptr cinfo, int level) {
  auto* err = reinterpret_cast<ErrorManager*>(cinfo->err);
  if (level < 0 && err->warnings++ == 0) err->pub.format_message(cinfo, err->message);
}

void install(ErrorManager& em) {
  api().std_error(&em.pub);
  em.pub.error_exit = on_error_exit;
  em.pub.emit_message = on_emit_message;
  em.message[0] = '\0';
  em.warnings = 0;
}

int subsampling_of(const jpeg_decompress_struct& c) {
  if (c.num_components == 1) return ACL_JPEG_CSS_GRAY;
  if (c.num_components != 3) return ACL_JPEG_CSS_UNKNOWN;
  const int h = c.comp_info[0].h_samp_factor, v = c.comp_info[0].v_samp_factor;
  for (int i = 1; i < 3; ++i)
    if (c.comp_info[i].h_samp_factor != 1 || c.comp_info[i].v_samp_factor != 1) return ACL_JPEG_CSS_UNKNOWN;
  if (h == 1 && v == 1) return ACL_JPEG_CSS_444;
  if (h == 2 && v == 1) return ACL_JPEG_CSS_422;
  if (h == 2 && v == 2) return ACL_JPEG_CSS_420;
  if (h == 1 && v == 2) return ACL_JPEG_CSS_440;
  if (h == 4 && v == 1) return ACL_JPEG_CSS_411;
  return ACL_JPEG_CSS_UNKNOWN;
}

void require_jpeg_magic(const uint8_t* data, size_t size) {
  ACL_SIM_REQUIRE(data && size >= 4 && data[0] == 0xFF && data[1] == 0xD8, ACL_ERROR_INVALID_PARAM,
                  "data is not a JPEG (no SOI marker FF D8)");
}

}  // namespace

JpegInfo jpeg_read_info(const uint8_t* data, size_t size) {
  require_jpeg_magic(data, size);
  const JpegApi& j = api();
  jpeg_decompress_struct c{};
  ErrorManager em;
  c.err = &em.pub;
  install(em);
  JpegInfo info;
  if (setjmp(em.jump)) {
    j.destroy_decompress(&c);
    fail(ACL_ERROR_INVALID_PARAM, "damaged JPEG header: ", em.message);
  }
  j.create_decompress(&c, JPEG_LIB_VERSION, sizeof(c));
  j.mem_src(&c, data, static_cast<unsigned long>(size));
  j.read_header(&c, TRUE);
  info.width = c.image_width;
  info.height = c.image_height;
  info.components = c.num_components;
  info.subsampling = subsampling_of(c);
  info.progressive = c.progressive_mode;
  info.arithmetic = c.arith_code;
  info.ycbcr_or_gray = c.jpeg_color_space == JCS_YCbCr || c.jpeg_color_space == JCS_GRAYSCALE;
  j.destroy_decompress(&c);
  return info;
}

void jpeg_decode(const uint8_t* data, size_t size, const PictureChannels& out) {
  require_jpeg_magic(data, size);
  const JpegApi& j = api();
  jpeg_decompress_struct c{};
  ErrorManager em;
  c.err = &em.pub;
  install(em);
  // Strips of an even number of rows keep the 2:1 chroma resampling inside one strip.
  constexpr uint32_t kStripRows = 16;
  std::vector<uint8_t> strip;
  std::vector<JSAMPROW> rows(kStripRows);
  if (setjmp(em.jump)) {
    j.destroy_decompress(&c);
    fail(ACL_ERROR_INVALID_PARAM, "corrupt JPEG data: ", em.message);
  }
  j.create_decompress(&c, JPEG_LIB_VERSION, sizeof(c));
  j.mem_src(&c, data, static_cast<unsigned long>(size));
  j.read_header(&c, TRUE);
  const bool gray = c.num_components == 1;
  c.out_color_space = gray ? JCS_GRAYSCALE : JCS_YCbCr;
  c.do_fancy_upsampling = FALSE;  // replicate chroma; the 2:1 box below gives back the coded samples exactly
  c.dct_method = JDCT_ISLOW;
  j.start_decompress(&c);
  const uint32_t w = c.output_width, h = c.output_height, nc = c.output_components;
  strip.resize(static_cast<size_t>(w) * nc * kStripRows);
  for (uint32_t r = 0; r < kStripRows; ++r) rows[r] = strip.data() + static_cast<size_t>(r) * w * nc;
  while (c.output_scanline < h) {
    const uint32_t y0 = c.output_scanline;
    uint32_t got = 0;
    while (got < kStripRows && c.output_scanline < h) got += j.read_scanlines(&c, rows.data() + got, kStripRows - got);
    PictureChannels s;
    s.family = ColorFamily::kYuv;
    for (uint32_t k = 0; k < 3; ++k) {
      s.c[k].width = w;
      s.c[k].height = got;
      if (k < nc) {
        s.c[k].base = strip.data() + k;
        s.c[k].row_stride = static_cast<size_t>(w) * nc;
        s.c[k].step = nc;
      }
    }
    transfer_picture(s, Rect{0, 0, w, got}, out, Rect{0, y0, w, got}, Interpolation::kBilinear);
  }
  j.finish_decompress(&c);
  const int warnings = em.warnings;
  std::string warning = em.message;
  j.destroy_decompress(&c);
  if (warnings) fail(ACL_ERROR_INVALID_PARAM, "corrupt JPEG data: ", warning);
}

std::vector<uint8_t> jpeg_encode(const PictureChannels& in, uint32_t width, uint32_t height, int quality) {
  const JpegApi& j = api();
  // Planar I420 copy padded to whole 16x16 MCUs (edges replicated), fed to libjpeg as raw 4:2:0 data.
  const uint32_t pw = (width + 15) / 16 * 16, ph = (height + 15) / 16 * 16;
  std::vector<uint8_t> planes[3] = {std::vector<uint8_t>(static_cast<size_t>(pw) * ph),
                                    std::vector<uint8_t>(static_cast<size_t>(pw / 2) * (ph / 2)),
                                    std::vector<uint8_t>(static_cast<size_t>(pw / 2) * (ph / 2))};
  PictureChannels i420;
  i420.family = ColorFamily::kYuv;
  const uint32_t dims[3][2] = {{pw, ph}, {pw / 2, ph / 2}, {pw / 2, ph / 2}};
  const uint32_t used[3][2] = {{width, height}, {(width + 1) / 2, (height + 1) / 2}, {(width + 1) / 2, (height + 1) / 2}};
  for (int k = 0; k < 3; ++k) {
    i420.c[k].base = planes[k].data();
    i420.c[k].row_stride = dims[k][0];
    i420.c[k].width = used[k][0];
    i420.c[k].height = used[k][1];
  }
  transfer_picture(in, Rect{0, 0, width, height}, i420, Rect{0, 0, width, height}, Interpolation::kBilinear);
  for (int k = 0; k < 3; ++k) {
    uint8_t* p = planes[k].data();
    const uint32_t W = dims[k][0], H = dims[k][1], uw = used[k][0], uh = used[k][1];
    for (uint32_t y = 0; y < uh; ++y) std::memset(p + y * W + uw, p[y * W + uw - 1], W - uw);
    for (uint32_t y = uh; y < H; ++y) std::memcpy(p + y * W, p + (uh - 1) * W, W);
  }

  jpeg_compress_struct c{};
  ErrorManager em;
  c.err = &em.pub;
  install(em);
  unsigned char* out_buf = nullptr;
  unsigned long out_size = 0;
  std::vector<JSAMPROW> rows[3] = {std::vector<JSAMPROW>(16), std::vector<JSAMPROW>(8), std::vector<JSAMPROW>(8)};
  JSAMPARRAY image[3] = {rows[0].data(), rows[1].data(), rows[2].data()};
  std::vector<uint8_t> result;
  if (setjmp(em.jump)) {
    j.destroy_compress(&c);
    std::free(out_buf);
    fail(ACL_ERROR_INVALID_PARAM, "JPEG encoding failed: ", em.message);
  }
  j.create_compress(&c, JPEG_LIB_VERSION, sizeof(c));
  j.mem_dest(&c, &out_buf, &out_size);
  c.image_width = width;
  c.image_height = height;
  c.input_components = 3;
  c.in_color_space = JCS_YCbCr;
  j.set_defaults(&c);
  j.set_colorspace(&c, JCS_YCbCr);
  j.set_quality(&c, quality, TRUE);
  c.raw_data_in = TRUE;
  c.dct_method = JDCT_ISLOW;
  c.comp_info[0].h_samp_factor = c.comp_info[0].v_samp_factor = 2;
  for (int k = 1; k < 3; ++k) c.comp_info[k].h_samp_factor = c.comp_info[k].v_samp_factor = 1;
  j.start_compress(&c, TRUE);
  while (c.next_scanline < c.image_height) {
    const uint32_t y = c.next_scanline;
    for (uint32_t r = 0; r < 16; ++r) rows[0][r] = planes[0].data() + static_cast<size_t>(y + r) * pw;
    for (uint32_t r = 0; r < 8; ++r) {
      rows[1][r] = planes[1].data() + static_cast<size_t>(y / 2 + r) * (pw / 2);
      rows[2][r] = planes[2].data() + static_cast<size_t>(y / 2 + r) * (pw / 2);
    }
    j.write_raw_data(&c, image, 16);
  }
  j.finish_compress(&c);
  result.assign(out_buf, out_buf + out_size);
  j.destroy_compress(&c);
  std::free(out_buf);
  return result;
}

#else  // built without jpeglib.h

JpegInfo jpeg_read_info(const uint8_t*, size_t) {
  fail(ACL_ERROR_FEATURE_UNSUPPORTED, "acl_sim was built without jpeglib.h: JPEG is unavailable");
}
void jpeg_decode(const uint8_t*, size_t, const PictureChannels&) { jpeg_read_info(nullptr, 0); }
std::vector<uint8_t> jpeg_encode(const PictureChannels&, uint32_t, uint32_t, int) {
  jpeg_read_info(nullptr, 0);
  return {};
}

#endif

}  // namespace acl_sim::media
