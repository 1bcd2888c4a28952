// ONNX ConvTranspose (1-D/2-D/3-D, groups, strides, dilations, pads,
// output_padding, output_shape / auto_pad) with the fused epilogue.
//
// Computed as the adjoint of Conv: cols = W_g^T * X_g on the packed GEMM
// (W_g read transposed in place), then col2im gathers each output row's
// contributions from cols, one output row per pool index, so no two indices
// write the same element and a one-channel output (PP-OCR det's last layer)
// still spreads over the threads. cols lives in per-thread scratch: a model run
// allocates nothing (a zero-filled vector per call, 9.8 MB for PP-OCR det's
// first 2x2/2 ConvTranspose, was 0.9 ms on one thread). Where every output has
// one source (kernel == stride, no pads: 2x2/2 upsampling) output rows are
// interleaved cols rows, and on 1-D / 2-D planes each pool index computes the
// cols of a block of input rows and interleaves them while they are in L2.
// Stop 43, in-model A/B (PP-OCR det, Zen 4, 40 pairs): the interleave took its
// ConvTransposes 0.90x / 0.83x the time (AVX-512 / AVX2), the blocks 0.82x /
// 0.87x of that.
#include <algorithm>
#include <vector>

#include "executor/thread_pool.h"
#include "kernels/conv_geometry.h"
#include "kernels/epilogue.h"
#include "kernels/gemm.h"
#include "kernels/gemm_tensor_io.h"
#include "kernels/isa_target.h"
#include "kernels/op_registry.h"
#include "kernels/thread_scratch.h"

namespace acl_sim {
namespace {

/**
 * Output row (od, oh) of one channel: the sum, in kernel-position order, of the cols rows (one per kernel
 * position, in_size values each) that land on it, written to dst[0, OW).
 */
void col2im_row(const float* cols, float* dst, int64_t od, int64_t oh, const Geometry3& g) {
  const int64_t IW = g.in[2], IH = g.in[1], ID = g.in[0], OW = g.out[2];
  const int64_t in_size = ID * IH * IW;
  std::fill(dst, dst + OW, 0.f);
  for (int64_t kd = 0; kd < g.k[0]; ++kd) {
    const int64_t nd = od + g.p[0] - kd * g.d[0];  // id * stride when some input depth id lands here
    if (nd < 0 || nd % g.s[0] != 0 || nd / g.s[0] >= ID) continue;
    const int64_t id = nd / g.s[0];
    for (int64_t kh = 0; kh < g.k[1]; ++kh) {
      const int64_t nh = oh + g.p[1] - kh * g.d[1];
      if (nh < 0 || nh % g.s[1] != 0 || nh / g.s[1] >= IH) continue;
      const int64_t ih = nh / g.s[1];
      for (int64_t kw = 0; kw < g.k[2]; ++kw) {
        const float* src = cols + ((kd * g.k[1] + kh) * g.k[2] + kw) * in_size + (id * IH + ih) * IW;
        const int64_t off_w = kw * g.d[2] - g.p[2];
        // Input columns iw with 0 <= iw*sw + off_w < OW.
        const int64_t lo = off_w >= 0 ? 0 : (-off_w + g.s[2] - 1) / g.s[2];
        const int64_t hi = OW - 1 - off_w < 0 ? 0 : std::min(IW, (OW - 1 - off_w) / g.s[2] + 1);
        const int64_t sw = g.s[2];
        for (int64_t iw = lo; iw < hi; ++iw) dst[iw * sw + off_w] += src[iw];
      }
    }
  }
}

/**
 * True when every output value has exactly one source: kernel == stride on every axis, dilation 1, no pads, and
 * out == in * stride (PP-OCR det's 2x2/2 upsampling). Its output rows are then interleaved cols rows.
 */
bool one_source_per_output(const SpatialGeometry& g) {
  for (int i = 0; i < g.nsp; ++i)
    if (g.kernel[i] != g.stride[i] || g.dilation[i] != 1 || g.pad_begin[i] != 0 || g.pad_end[i] != 0 ||
        g.out[i] != g.in[i] * g.stride[i])
      return false;
  return true;
}

/**
 * col2im_row where one_source_per_output: an output row is sw cols rows (src: kernel column 0's, the others
 * `stride` floats apart) interleaved, dst[iw * sw + kw] = src[kw * stride + iw]: no zero fill and no adds. A
 * stride-2 row is two loads and two unpacks per 8 outputs once vectorised (compiled per ISA).
 */
struct InterleaveRow {
  __attribute__((always_inline)) void operator()(const float* src, int64_t stride, int64_t IW, int64_t sw,
                                                 float* dst) const {
    if (sw == 2) {
      const float* s0 = src;
      const float* s1 = src + stride;
      for (int64_t iw = 0; iw < IW; ++iw) {
        dst[2 * iw] = s0[iw];
        dst[2 * iw + 1] = s1[iw];
      }
      return;
    }
    for (int64_t kw = 0; kw < sw; ++kw)
      for (int64_t iw = 0; iw < IW; ++iw) dst[iw * sw + kw] = src[kw * stride + iw];
  }
};

// The cols block of a one-source ConvTranspose task (this thread's, reused across calls), at most this many floats
// (256 KiB: a quarter of a Zen 4 core's L2) unless one input row needs more.
thread_local Scratch<float> t_cols_block;
constexpr int64_t kColsBlockFloats = 65536;

// cols of the call in progress on this thread (the GEMM overwrites it: beta 0).
thread_local Scratch<float> t_cols;

void run_conv_transpose(OpContext& ctx) {
  require_float_io(ctx, 2, 1);
  const TensorView& tx = ctx.inputs[0];
  const TensorView& tw = ctx.inputs[1];
  const Attrs& at = *ctx.attrs;
  ACL_SIM_REQUIRE(tx.shape.size() >= 3 && tx.shape.size() <= 5 && tw.shape.size() == tx.shape.size(),
                  ACL_ERROR_OP_INPUT_NOT_MATCH, "ConvTranspose: X ", dims_str(tx.shape), " and W ",
                  dims_str(tw.shape), " must be [N, C, spatial...] / [C, M/group, kernel...] with 1-3 spatial axes");
  const int64_t N = tx.shape[0], C = tx.shape[1];
  const int64_t group = at.get_int("group", 1);
  ACL_SIM_REQUIRE(group >= 1 && C % group == 0 && tw.shape[0] == C, ACL_ERROR_OP_INPUT_NOT_MATCH,
                  "ConvTranspose: W ", dims_str(tw.shape), " must start with C = ", C, " and C must divide by group ",
                  group);
  const int64_t mg = tw.shape[1], M = mg * group, cg = C / group;
  const size_t n = tx.shape.size() - 2;
  SpatialGeometry g;
  g.nsp = static_cast<int>(n);
  g.in.assign(tx.shape.begin() + 2, tx.shape.end());
  g.kernel.assign(tw.shape.begin() + 2, tw.shape.end());
  const TensorView& ty = ctx.outputs[0];
  ACL_SIM_REQUIRE(ty.shape.size() == tx.shape.size() && ty.shape[0] == N && ty.shape[1] == M,
                  ACL_ERROR_OP_OUTPUT_NOT_MATCH, "ConvTranspose: output shape ", dims_str(ty.shape),
                  " must be [", N, ", ", M, ", spatial...]");
  g.out.assign(ty.shape.begin() + 2, ty.shape.end());

  // Strides/dilations/explicit pads as for Conv; then pads implied by the given output size when asked.
  resolve_window_attrs(g, at, "ConvTranspose");
  std::vector<int64_t> out_pad = at.get_ints("output_padding", std::vector<int64_t>(n, 0));
  if (out_pad.empty()) out_pad.assign(n, 0);
  ACL_SIM_REQUIRE(out_pad.size() == n, ACL_ERROR_OP_ATTR_NOT_MATCH, "ConvTranspose: output_padding has ",
                  out_pad.size(), " values, expected ", n);
  const std::string auto_pad = at.get_string("auto_pad", "NOTSET");
  const bool implied = at.has("output_shape") || auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER";
  for (size_t i = 0; i < n; ++i) {
    const int64_t full = g.stride[i] * (g.in[i] - 1) + out_pad[i] + (g.kernel[i] - 1) * g.dilation[i] + 1;
    if (implied) {
      const int64_t total = full - g.out[i];
      // An output larger than the full result (negative total padding) keeps the result at the
      // start and zero-fills the end, as onnxruntime does.
      g.pad_begin[i] = total < 0 ? 0 : auto_pad == "SAME_UPPER" ? total / 2 : total - total / 2;
      g.pad_end[i] = total - g.pad_begin[i];
    }
    ACL_SIM_REQUIRE(full - g.pad_begin[i] - g.pad_end[i] == g.out[i], ACL_ERROR_OP_OUTPUT_NOT_MATCH,
                    "ConvTranspose: output shape ", dims_str(ty.shape), " does not match the inferred size ",
                    full - g.pad_begin[i] - g.pad_end[i], " on spatial axis ", i);
  }
  const bool has_bias = ctx.inputs.size() > 2 && ctx.inputs[2].present();
  if (has_bias)
    ACL_SIM_REQUIRE(ctx.inputs[2].numel() == M, ACL_ERROR_OP_INPUT_NOT_MATCH, "ConvTranspose: bias has ",
                    ctx.inputs[2].numel(), " values, expected ", M);
  const Activation act = activation_from_attrs(at);
  if (ty.numel() == 0) return;

  F32Input X(ctx, 0), W(ctx, 1), B;
  if (has_bias) B = F32Input(ctx, 2);
  F32Output Y(ctx.outputs[0]);
  const Geometry3 g3(g);
  const bool one_source = one_source_per_output(g);
  const int64_t kprod = g.kernel_size(), in_size = g.in_size(), out_size = g.out_size();
  const int64_t OW = g3.out[2], rows = g3.out[0] * g3.out[1];  // output rows per channel
  for (int64_t b = 0; b < N; ++b) {
    for (int64_t gi = 0; gi < group; ++gi) {
      // cols[mg*kprod, in_size] = W_g^T * X_g, with W_g = W[gi*cg : (gi+1)*cg] viewed as [cg, mg*kprod].
      const MatrixRef a{W.data() + gi * cg * mg * kprod, 1, mg * kprod};
      const float* xg = X.data() + (b * C + gi * cg) * in_size;
      float* yg = Y.data() + (b * M + gi * mg) * out_size;
      const float* bias = has_bias ? B.data() + gi * mg : nullptr;
      if (one_source && g3.in[0] == 1) {
        // Blocks of input rows, one pool index each: the block's cols (the GEMM on this thread) stay in L2 while
        // they are interleaved into its output rows, where one whole-plane cols (9.8 MB for PP-OCR det's first
        // 2x2/2) went out to memory and back.
        const int64_t IH = g3.in[1], IW = g3.in[2], sh = g3.s[1], sw = g3.s[2], mk = mg * kprod;
        const int64_t threads = static_cast<int64_t>(ThreadPool::instance().concurrency());
        const int64_t per = std::max<int64_t>(
            1, std::min(kColsBlockFloats / std::max<int64_t>(1, mk * IW), (IH + 4 * threads - 1) / (4 * threads)));
        const int64_t tasks = (IH + per - 1) / per;
        ThreadPool::instance().parallel_for(static_cast<size_t>(tasks), [&](size_t t) {
          const int64_t i0 = static_cast<int64_t>(t) * per, i1 = std::min(IH, i0 + per), ncols = (i1 - i0) * IW;
          float* cb = t_cols_block.get(static_cast<size_t>(mk * ncols));
          gemm_f32(mk, ncols, cg, 1.f, a, MatrixRef{xg + i0 * IW, in_size, 1}, 0.f, cb, ncols, GemmEpilogue{}, false);
          for (int64_t m = 0; m < mg; ++m)
            for (int64_t oh = i0 * sh; oh < i1 * sh; ++oh) {
              float* dst = yg + m * out_size + oh * OW;
              const float* src = cb + (m * kprod + (oh % sh) * sw) * ncols + (oh / sh - i0) * IW;
              isa_call(InterleaveRow{}, src, ncols, IW, sw, dst);
              bias_activation(dst, static_cast<size_t>(OW), bias ? bias[m] : 0.f, act);
            }
        });
        continue;
      }
      float* cols = t_cols.get(static_cast<size_t>(mg * kprod * in_size));
      gemm_f32(mg * kprod, in_size, cg, 1.f, a, MatrixRef{xg, in_size, 1}, 0.f, cols, in_size);
      ThreadPool::instance().parallel_for(static_cast<size_t>(mg * rows), [&](size_t i) {
        const int64_t m = static_cast<int64_t>(i) / rows, r = static_cast<int64_t>(i) % rows;
        float* dst = yg + m * out_size + r * OW;
        if (one_source) {
          const int64_t od = r / g3.out[1], oh = r % g3.out[1];
          const int64_t kpos = ((od % g3.s[0]) * g3.k[1] + oh % g3.s[1]) * g3.k[2];
          const int64_t at = ((od / g3.s[0]) * g3.in[1] + oh / g3.s[1]) * g3.in[2];
          const float* src = cols + (m * kprod + kpos) * in_size + at;
          isa_call(InterleaveRow{}, src, in_size, g3.in[2], g3.s[2], dst);
        } else {
          col2im_row(cols + m * kprod * in_size, dst, r / g3.out[1], r % g3.out[1], g3);
        }
        bias_activation(dst, static_cast<size_t>(OW), bias ? bias[m] : 0.f, act);
      });
    }
  }
  Y.commit();
}

}  // namespace

ACL_SIM_REGISTER_OP(ConvTranspose, run_conv_transpose);

}  // namespace acl_sim
