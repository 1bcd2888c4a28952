// AclSim.Aipp: the fused AIPP preprocessing in front of a model input
// (docs/aipp.md). Per output pixel, in CANN's documented order: channel swap
// (rbuv / ax) -> crop -> colour-space conversion -> mean / min / variance
// reciprocal -> padding. inputs: the raw uint8 images, the parameter block
// (aipp_params.h); output: the tensor the model expected (fp32 or fp16, NCHW or
// NHWC per the "layout" attribute).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "acl/acl_base.h"
#include "common/error.h"
#include "executor/thread_pool.h"
#include "kernels/aipp_params.h"
#include "common/fp16.h"
#include "kernels/op_registry.h"

namespace acl_sim {

namespace {

template <class T>
T get(const uint8_t* p, size_t off) {
  T v;
  std::memcpy(&v, p + off, sizeof(T));
  return v;
}
template <class T>
void put(uint8_t* p, size_t off, T v) {
  std::memcpy(p + off, &v, sizeof(T));
}

// Arithmetic shift right by 8 (floor), as the CSC formulas' ">> 8".
int32_t shr8(int32_t v) { return v >= 0 ? v / 256 : -((-v + 255) / 256); }
int32_t clamp_u8(int32_t v) { return std::min(255, std::max(0, v)); }

}  // namespace

size_t aipp_image_bytes(int format, int64_t w, int64_t h) {
  switch (format) {
    case kAippYuv420sp: return size_t(w * h * 3 / 2);
    case kAippXrgb8888: return size_t(w * h * 4);
    case kAippRgb888: return size_t(w * h * 3);
    case kAippYuv400: return size_t(w * h);
    default: return 0;
  }
}

void encode_aipp_params(const AippParams& p, uint8_t* out) {
  std::memset(out, 0, aipp_block_bytes(p.batches.size()));
  put<uint8_t>(out, 0, uint8_t(p.format));
  put<int8_t>(out, 1, p.csc);
  put<int8_t>(out, 2, p.rbuv_swap);
  put<int8_t>(out, 3, p.ax_swap);
  put<int8_t>(out, 4, int8_t(p.batches.size()));
  put<int32_t>(out, 8, p.src_w);
  put<int32_t>(out, 12, p.src_h);
  for (int i = 0; i < 9; ++i) put<int16_t>(out, 20 + 2 * i, p.matrix[i]);
  for (int i = 0; i < 3; ++i) {
    out[40 + i] = p.output_bias[i];
    out[43 + i] = p.input_bias[i];
  }
  put<float>(out, 46, p.padding_value);
  for (size_t b = 0; b < p.batches.size(); ++b) {
    uint8_t* r = out + kAippHeaderBytes + kAippBatchBytes * b;
    const AippBatchParams& q = p.batches[b];
    put<int8_t>(r, 0, q.crop);
    put<int8_t>(r, 1, q.scf);
    put<int8_t>(r, 2, q.padding);
    const int32_t ints[] = {q.crop_x, q.crop_y, q.crop_w, q.crop_h, q.scf_in_w, q.scf_in_h, q.scf_out_w,
                            q.scf_out_h, q.pad_top, q.pad_bottom, q.pad_left, q.pad_right};
    for (int i = 0; i < 12; ++i) put<int32_t>(r, 8 + 4 * i, ints[i]);
    for (int i = 0; i < 4; ++i) {
      put<int16_t>(r, 56 + 2 * i, q.mean[i]);
      put<float>(r, 64 + 4 * i, q.min[i]);
      put<float>(r, 80 + 4 * i, q.var_reci[i]);
    }
  }
}

AippParams decode_aipp_params(const uint8_t* in, size_t size) {
  ACL_SIM_REQUIRE(size >= kAippHeaderBytes, ACL_ERROR_INVALID_PARAM, "AIPP parameter block of ", size,
                  " bytes is shorter than its 64-byte header");
  AippParams p;
  p.format = in[0];
  p.csc = get<int8_t>(in, 1) != 0;
  p.rbuv_swap = get<int8_t>(in, 2) != 0;
  p.ax_swap = get<int8_t>(in, 3) != 0;
  const int batches = get<int8_t>(in, 4);
  ACL_SIM_REQUIRE(batches >= 1, ACL_ERROR_INVALID_PARAM, "AIPP parameters hold ", batches,
                  " images; set them with aclmdlSetInputAIPP before executing");
  ACL_SIM_REQUIRE(size >= aipp_block_bytes(size_t(batches)), ACL_ERROR_INVALID_PARAM, "AIPP parameter block of ",
                  size, " bytes is too short for ", batches, " images");
  p.src_w = get<int32_t>(in, 8);
  p.src_h = get<int32_t>(in, 12);
  for (int i = 0; i < 9; ++i) p.matrix[i] = get<int16_t>(in, 20 + 2 * i);
  for (int i = 0; i < 3; ++i) {
    p.output_bias[i] = in[40 + i];
    p.input_bias[i] = in[43 + i];
  }
  p.padding_value = get<float>(in, 46);
  for (int b = 0; b < batches; ++b) {
    const uint8_t* r = in + kAippHeaderBytes + kAippBatchBytes * size_t(b);
    AippBatchParams q;
    q.crop = get<int8_t>(r, 0) != 0;
    q.scf = get<int8_t>(r, 1) != 0;
    q.padding = get<int8_t>(r, 2) != 0;
    int32_t* ints[] = {&q.crop_x, &q.crop_y, &q.crop_w, &q.crop_h, &q.scf_in_w, &q.scf_in_h, &q.scf_out_w,
                       &q.scf_out_h, &q.pad_top, &q.pad_bottom, &q.pad_left, &q.pad_right};
    for (int i = 0; i < 12; ++i) *ints[i] = get<int32_t>(r, 8 + 4 * i);
    for (int i = 0; i < 4; ++i) {
      q.mean[i] = get<int16_t>(r, 56 + 2 * i);
      q.min[i] = get<float>(r, 64 + 4 * i);
      q.var_reci[i] = get<float>(r, 80 + 4 * i);
    }
    p.batches.push_back(q);
  }
  return p;
}

namespace {

struct Window {
  int64_t x0, y0, w, h, top, left;
};

// Checks one image's parameters against the source and the model's H x W; returns its window.
Window window_of(const AippParams& p, const AippBatchParams& q, int64_t out_h, int64_t out_w, int64_t b) {
  ACL_SIM_REQUIRE(aipp_image_bytes(p.format, 1, 2) != 0, ACL_ERROR_INVALID_PARAM, "AIPP input format ", p.format,
                  " is not supported (YUV420SP_U8 1, XRGB8888_U8 2, RGB888_U8 3, YUV400_U8 4)");
  ACL_SIM_REQUIRE(p.src_w >= 1 && p.src_h >= 1, ACL_ERROR_INVALID_PARAM, "AIPP source image size ", p.src_w, "x",
                  p.src_h, " is not set");
  ACL_SIM_REQUIRE(!q.scf, ACL_ERROR_INVALID_PARAM, "AIPP image ", b, ": resize (scf) is not supported by acl_sim");
  Window w{0, 0, p.src_w, p.src_h, 0, 0};
  if (q.crop) w = {q.crop_x, q.crop_y, q.crop_w, q.crop_h, 0, 0};
  ACL_SIM_REQUIRE(w.x0 >= 0 && w.y0 >= 0 && w.w >= 1 && w.h >= 1 && w.x0 + w.w <= p.src_w && w.y0 + w.h <= p.src_h,
                  ACL_ERROR_INVALID_PARAM, "AIPP image ", b, ": crop ", w.w, "x", w.h, " at (", w.x0, ",", w.y0,
                  ") lies outside the ", p.src_w, "x", p.src_h, " source");
  int64_t pt = 0, pb = 0, pl = 0, pr = 0;
  if (q.padding) {
    pt = q.pad_top, pb = q.pad_bottom, pl = q.pad_left, pr = q.pad_right;
    ACL_SIM_REQUIRE(pt >= 0 && pb >= 0 && pl >= 0 && pr >= 0, ACL_ERROR_INVALID_PARAM, "AIPP image ", b,
                    ": negative padding");
  }
  ACL_SIM_REQUIRE(w.h + pt + pb == out_h && w.w + pl + pr == out_w, ACL_ERROR_INVALID_PARAM, "AIPP image ", b,
                  " produces ", w.h + pt + pb, "x", w.w + pl + pr, " but the model input is ", out_h, "x", out_w);
  w.top = pt;
  w.left = pl;
  return w;
}

void run_aipp(OpContext& ctx) {
  ACL_SIM_REQUIRE(ctx.inputs.size() == 2 && ctx.outputs.size() == 1, ACL_ERROR_OP_INPUT_NOT_MATCH,
                  "AclSim.Aipp takes the raw images and the parameter block");
  const TensorView& raw = ctx.inputs[0];
  const TensorView& blk = ctx.inputs[1];
  TensorView& out = ctx.outputs[0];
  ACL_SIM_REQUIRE(out.shape.size() == 4 && (out.dtype == ACL_FLOAT || out.dtype == ACL_FLOAT16),
                  ACL_ERROR_OP_OUTPUT_NOT_MATCH, "AclSim.Aipp writes a 4-D float32/float16 tensor");
  const bool nhwc = ctx.attrs->get_string("layout", "NCHW") == "NHWC";
  const int64_t N = out.shape[0];
  const int64_t C = nhwc ? out.shape[3] : out.shape[1];
  const int64_t H = nhwc ? out.shape[1] : out.shape[2];
  const int64_t W = nhwc ? out.shape[2] : out.shape[3];
  const AippParams p = decode_aipp_params(static_cast<const uint8_t*>(blk.data), size_t(blk.numel()));
  const size_t image = aipp_image_bytes(p.format, p.src_w, p.src_h);
  std::vector<Window> win;
  for (int64_t b = 0; b < N; ++b)
    win.push_back(window_of(p, p.batches[size_t(std::min<int64_t>(b, int64_t(p.batches.size()) - 1))], H, W, b));
  ACL_SIM_REQUIRE(size_t(raw.numel()) >= image * size_t(N), ACL_ERROR_INVALID_PARAM, "AIPP input holds ",
                  raw.numel(), " bytes; ", N, " ", p.src_w, "x", p.src_h, " images need ", image * size_t(N));
  const int src_c = p.format == kAippYuv400 ? 1 : 3;
  ACL_SIM_REQUIRE(C == src_c || (p.csc && C == 1), ACL_ERROR_INVALID_PARAM, "AIPP input format ", p.format,
                  " gives ", src_c, " channel(s), the model input has ", C);
  const bool yuv_source = p.format == kAippYuv420sp || p.format == kAippYuv400;
  const uint8_t* base = static_cast<const uint8_t*>(raw.data);

  ThreadPool::instance().parallel_for(size_t(N * H), [&](size_t row) {
    const int64_t b = int64_t(row) / H, y = int64_t(row) % H;
    const AippBatchParams& q = p.batches[size_t(std::min<int64_t>(b, int64_t(p.batches.size()) - 1))];
    const Window& w = win[size_t(b)];
    const uint8_t* img = base + image * size_t(b);
    const int64_t sw = p.src_w;
    for (int64_t x = 0; x < W; ++x) {
      float v[3] = {p.padding_value, p.padding_value, p.padding_value};
      const int64_t cy = y - w.top, cx = x - w.left;
      if (cy >= 0 && cy < w.h && cx >= 0 && cx < w.w) {
        const int64_t sy = w.y0 + cy, sx = w.x0 + cx;
        int32_t px[3] = {0, 0, 0};
        switch (p.format) {
          case kAippYuv420sp: {
            const uint8_t* uv = img + sw * p.src_h + (sy / 2) * sw + (sx / 2) * 2;
            px[0] = img[sy * sw + sx];
            px[1] = uv[p.rbuv_swap ? 1 : 0];
            px[2] = uv[p.rbuv_swap ? 0 : 1];
            break;
          }
          case kAippRgb888:
          case kAippXrgb8888: {
            const int64_t bpp = p.format == kAippRgb888 ? 3 : 4;
            const uint8_t* s = img + (sy * sw + sx) * bpp + (p.format == kAippXrgb8888 && p.ax_swap ? 1 : 0);
            px[0] = s[p.rbuv_swap ? 2 : 0];
            px[1] = s[1];
            px[2] = s[p.rbuv_swap ? 0 : 2];
            break;
          }
          default: px[0] = img[sy * sw + sx];
        }
        int32_t o[3] = {px[0], px[1], px[2]};
        if (p.csc) {
          for (int i = 0; i < 3; ++i) {
            int32_t acc = 0;
            for (int j = 0; j < 3; ++j)
              acc += int32_t(p.matrix[i * 3 + j]) * (px[j] - (yuv_source ? int32_t(p.input_bias[j]) : 0));
            o[i] = clamp_u8(shr8(acc) + (yuv_source ? 0 : int32_t(p.output_bias[i])));
          }
        }
        for (int c = 0; c < C; ++c) v[c] = (float(o[c]) - float(q.mean[c]) - q.min[c]) * q.var_reci[c];
      }
      for (int64_t c = 0; c < C; ++c) {
        const int64_t off = nhwc ? ((b * H + y) * W + x) * C + c : ((b * C + c) * H + y) * W + x;
        if (out.dtype == ACL_FLOAT) static_cast<float*>(out.data)[off] = v[c];
        else static_cast<uint16_t*>(out.data)[off] = float_to_half(v[c]);
      }
    }
  });
}

const OpRegistration kAippRegistration("AclSim.Aipp", run_aipp);

}  // namespace
}  // namespace acl_sim
