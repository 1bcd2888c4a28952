// DeformConv (opset 19), 2-D: Conv whose kernel taps are shifted by learned offsets.
// X [N, C, H, W], W [M, C/group, kH, kW], offset [N, offset_group * kH * kW * 2, oH, oW]
// ((dy, dx) per tap), optional B [M] and mask [N, offset_group * kH * kW, oH, oW].
// A tap at fractional position (h, w) = (oh*s - pad + kh*d + dy, ...) samples X bilinearly
// (corners outside the image read 0), times the mask.
//
// Per batch entry the sampled taps form a column matrix [C * kH * kW, oH * oW] (built row by
// row over the pool), and each group is one packed GEMM W_g x cols_g, as for Conv; bias is
// added after. fp32 / fp16 / bf16 in fp32.
#include <cmath>
#include <vector>

#include "executor/thread_pool.h"
#include "kernels/conv_geometry.h"
#include "kernels/gemm.h"
#include "kernels/gemm_tensor_io.h"
#include "kernels/op_registry.h"

namespace acl_sim {
namespace {

/** Bilinear sample of one plane at (h, w); corners outside [0,H) x [0,W) read 0. */
inline float bilinear_zero(const float* plane, int64_t H, int64_t W, float h, float w) {
  if (!(h > -1.f && h < static_cast<float>(H) && w > -1.f && w < static_cast<float>(W))) return 0.f;
  const float hf = std::floor(h), wf = std::floor(w);
  const auto h0 = static_cast<int64_t>(hf), w0 = static_cast<int64_t>(wf);
  const float lh = h - hf, lw = w - wf, hh = 1.f - lh, hw = 1.f - lw;
  auto at = [&](int64_t y, int64_t x) { return (y >= 0 && y < H && x >= 0 && x < W) ? plane[y * W + x] : 0.f; };
  return hh * hw * at(h0, w0) + hh * lw * at(h0, w0 + 1) + lh * hw * at(h0 + 1, w0) + lh * lw * at(h0 + 1, w0 + 1);
}

void run_deform_conv(OpContext& ctx) {
  const char* op = ctx.op_type;
  require_float_io(ctx, 3, 1);
  const TensorView& tx = ctx.inputs[0];
  const TensorView& tw = ctx.inputs[1];
  const TensorView& toff = ctx.inputs[2];
  const TensorView* tb = ctx.inputs.size() > 3 && ctx.inputs[3].present() ? &ctx.inputs[3] : nullptr;
  const TensorView* tm = ctx.inputs.size() > 4 && ctx.inputs[4].present() ? &ctx.inputs[4] : nullptr;
  const Attrs& at = *ctx.attrs;
  ACL_SIM_REQUIRE(tx.shape.size() == 4 && tw.shape.size() == 4, ACL_ERROR_OP_INPUT_NOT_MATCH, op,
                  ": only 2-D deformable convolution is supported (X [N,C,H,W], W [M,C/group,kH,kW]), got X ",
                  dims_str(tx.shape), ", W ", dims_str(tw.shape));
  const int64_t N = tx.shape[0], C = tx.shape[1], H = tx.shape[2], Wd = tx.shape[3];
  const int64_t M = tw.shape[0], kh = tw.shape[2], kw = tw.shape[3];
  const int64_t group = at.get_int("group", 1), og = at.get_int("offset_group", 1);
  ACL_SIM_REQUIRE(group >= 1 && og >= 1 && C % group == 0 && M % group == 0 && tw.shape[1] * group == C &&
                      C % og == 0,
                  ACL_ERROR_OP_INPUT_NOT_MATCH, op, ": X ", dims_str(tx.shape), ", W ", dims_str(tw.shape),
                  ", group ", group, " and offset_group ", og, " are inconsistent");
  SpatialGeometry g;
  g.nsp = 2;
  g.in = {H, Wd};
  g.kernel = {kh, kw};
  if (at.has("kernel_shape"))
    ACL_SIM_REQUIRE(at.get_ints("kernel_shape") == g.kernel, ACL_ERROR_OP_ATTR_NOT_MATCH, op, ": kernel_shape ",
                    dims_str(at.get_ints("kernel_shape")), " differs from W's ", dims_str(g.kernel));
  resolve_window_attrs(g, at, op);
  g.out = window_output_dims(g, false);
  const int64_t oh = g.out[0], ow = g.out[1], taps = kh * kw, plane = oh * ow;
  ACL_SIM_REQUIRE(ctx.outputs[0].shape == std::vector<int64_t>({N, M, oh, ow}), ACL_ERROR_OP_OUTPUT_NOT_MATCH, op,
                  ": output shape ", dims_str(ctx.outputs[0].shape), " does not match the inferred ",
                  dims_str({N, M, oh, ow}));
  ACL_SIM_REQUIRE(toff.shape == std::vector<int64_t>({N, og * taps * 2, oh, ow}), ACL_ERROR_OP_INPUT_NOT_MATCH, op,
                  ": offset must be ", dims_str({N, og * taps * 2, oh, ow}), ", got ", dims_str(toff.shape));
  if (tm)
    ACL_SIM_REQUIRE(tm->shape == std::vector<int64_t>({N, og * taps, oh, ow}), ACL_ERROR_OP_INPUT_NOT_MATCH, op,
                    ": mask must be ", dims_str({N, og * taps, oh, ow}), ", got ", dims_str(tm->shape));
  if (tb)
    ACL_SIM_REQUIRE(tb->numel() == M, ACL_ERROR_OP_INPUT_NOT_MATCH, op, ": B has ", tb->numel(), " values, expected ",
                    M);
  if (ctx.outputs[0].numel() == 0) return;

  F32Input X(ctx, 0), Wt(ctx, 1), Off(ctx, 2), Mask, Bias;
  if (tm) Mask = F32Input(ctx, 4);
  if (tb) Bias = F32Input(ctx, 3);
  F32Output Y(ctx.outputs[0]);
  const int64_t cg = C / group, mg = M / group, c_per_og = C / og;
  const int64_t sh = g.stride[0], sw = g.stride[1], dh = g.dilation[0], dw = g.dilation[1];
  const int64_t ph = g.pad_begin[0], pw = g.pad_begin[1];
  std::vector<float> cols(static_cast<size_t>(C * taps * plane));
  for (int64_t n = 0; n < N; ++n) {
    const float* xn = X.data() + n * C * H * Wd;
    const float* offn = Off.data() + n * og * taps * 2 * plane;
    const float* maskn = tm ? Mask.data() + n * og * taps * plane : nullptr;
    // cols row (c, tap): the tap's samples over the output plane.
    ThreadPool::instance().parallel_for(static_cast<size_t>(C * taps), [&](size_t r) {
      const int64_t c = static_cast<int64_t>(r) / taps, t = static_cast<int64_t>(r) % taps;
      const int64_t ti = t / kw, tj = t % kw, o = c / c_per_og;
      const float* dy = offn + ((o * taps + t) * 2) * plane;
      const float* dx = dy + plane;
      const float* mk = maskn ? maskn + (o * taps + t) * plane : nullptr;
      const float* xp = xn + c * H * Wd;
      float* row = cols.data() + static_cast<int64_t>(r) * plane;
      for (int64_t i = 0; i < oh; ++i) {
        const float base_h = static_cast<float>(i * sh - ph + ti * dh);
        for (int64_t j = 0; j < ow; ++j) {
          const int64_t p = i * ow + j;
          const float base_w = static_cast<float>(j * sw - pw + tj * dw);
          const float v = bilinear_zero(xp, H, Wd, base_h + dy[p], base_w + dx[p]);
          row[p] = mk ? v * mk[p] : v;
        }
      }
    });
    for (int64_t gi = 0; gi < group; ++gi) {
      float* yg = Y.data() + (n * M + gi * mg) * plane;
      const MatrixRef a{Wt.data() + gi * mg * cg * taps, cg * taps, 1};
      const MatrixRef b{cols.data() + gi * cg * taps * plane, plane, 1};
      gemm_f32(mg, plane, cg * taps, 1.f, a, b, 0.f, yg, plane);
      if (tb) {
        for (int64_t m = 0; m < mg; ++m) {
          const float bias = Bias.data()[gi * mg + m];
          float* py = yg + m * plane;
          for (int64_t p = 0; p < plane; ++p) py[p] += bias;
        }
      }
    }
  }
  Y.commit();
}

}  // namespace

ACL_SIM_REGISTER_OP(DeformConv, run_deform_conv);

}  // namespace acl_sim
