// ONNX Conv (1-D/2-D/3-D, groups, depthwise, strides, dilations, pads,
// auto_pad) with the fused bias + activation epilogue.
//
// An optional fourth input (ATC's fused residual Add, group 1 only) is added
// in the same epilogue, before the activation. ATC's memory plan may give the
// output the residual's buffer (its last use): every path then adds the
// residual where it lies. Paths that finish per element (Winograd, the
// pixel-major store, the tile-buffer copy-out) read it before writing the same
// element; paths that keep partial sums in the output (the in-place direct
// conv, the GEMM) start their first K slice by accumulating onto it.
//
// Paths: depthwise -> direct sliding-window kernel; 1-D/2-D convs whose rows
// are wide enough (any kernel, stride, pads, dilation) -> direct conv reading
// the padded (phase-split) input in place (conv_direct.h); the rest (small
// planes, 3-D) -> implicit im2col packed straight into the GEMM (1x1
// unpadded: the plane is B as it is).
// ACL_SIM_CONV_DIRECT=0 sends them to the GEMM paths too, =all takes the direct
// path on every plane width (read per call, so a benchmark can time both in one
// process and the tests can reach every path). Small planes, strided windows and
// few output channels take the pixel-major direct conv (conv_pixel_major.h;
// ACL_SIM_CONV_PIXEL_MAJOR=0 / =all likewise), its weights packed once per
// loaded model in the node cache (conv_node_data.h).
// Before all of these, 3x3 stride-1 group-1 convs go to Winograd F(4x4, 3x3)
// (conv_winograd.h) where its measured rule says it is faster, its transformed
// weights in the node cache too; ACL_SIM_CONV_WINOGRAD=0 / =all likewise.
// In a loaded model the direct path reads its weights packed once per model (conv_direct_packed.h);
// ACL_SIM_CONV_DIRECT_PACKED=0 makes it read them in place, for A/B measurements. The GEMM paths read theirs
// packed once into the micro-kernels' panels where that was measured to pay (ACL_SIM_CONV_GEMM_PACKED=0 never,
// =all on every GEMM conv of a loaded model).
#include <cstdlib>
#include <cstring>
#include <vector>

#include "executor/thread_pool.h"
#include "kernels/conv_depthwise.h"
#include "kernels/conv_direct.h"
#include "kernels/conv_direct_input.h"
#include "kernels/conv_direct_packed.h"
#include "kernels/conv_geometry.h"
#include "kernels/conv_im2col.h"
#include "kernels/conv_node_data.h"
#include "kernels/conv_pixel_major.h"
#include "kernels/conv_winograd.h"
#include "kernels/cpu_features.h"
#include "kernels/epilogue.h"
#include "kernels/gemm.h"
#include "kernels/gemm_microkernel.h"
#include "kernels/gemm_tensor_io.h"
#include "kernels/op_registry.h"
#include "kernels/packed_weights.h"
#include "kernels/thread_scratch.h"

namespace acl_sim {
namespace {

enum class DirectMode { kAuto, kOff, kAll };

/** A conv path's override from the environment (read per call): "0" never, "all" wherever it can run. */
DirectMode path_mode(const char* env) {
  const char* v = std::getenv(env);
  if (v && std::strcmp(v, "0") == 0) return DirectMode::kOff;
  if (v && std::strcmp(v, "all") == 0) return DirectMode::kAll;
  return DirectMode::kAuto;
}

// Transformed weights of a Winograd conv outside a model (aclop), rebuilt every call.
thread_local Scratch<float> t_winograd_u;
// Packed weights of a pixel-major conv outside a model (aclop), rebuilt every call.
thread_local Scratch<float> t_pixel_major_w;

void run_conv(OpContext& ctx) {
  require_float_io(ctx, 2, 1);
  const TensorView& tx = ctx.inputs[0];
  const TensorView& tw = ctx.inputs[1];
  const Attrs& at = *ctx.attrs;
  ACL_SIM_REQUIRE(tx.shape.size() >= 3 && tx.shape.size() <= 5, ACL_ERROR_OP_INPUT_NOT_MATCH,
                  "Conv: X must be [N, C, spatial...] with 1-3 spatial axes, got ", dims_str(tx.shape));
  ACL_SIM_REQUIRE(tw.shape.size() == tx.shape.size(), ACL_ERROR_OP_INPUT_NOT_MATCH, "Conv: W ", dims_str(tw.shape),
                  " must have the rank of X ", dims_str(tx.shape));
  const int64_t N = tx.shape[0], C = tx.shape[1], M = tw.shape[0];
  const int64_t group = at.get_int("group", 1);
  ACL_SIM_REQUIRE(group >= 1 && C % group == 0 && M % group == 0 && tw.shape[1] * group == C,
                  ACL_ERROR_OP_INPUT_NOT_MATCH, "Conv: X ", dims_str(tx.shape), ", W ", dims_str(tw.shape),
                  " and group ", group, " are inconsistent (need C = W[1]*group, M % group == 0)");
  SpatialGeometry g;
  g.nsp = static_cast<int>(tx.shape.size()) - 2;
  g.in.assign(tx.shape.begin() + 2, tx.shape.end());
  g.kernel.assign(tw.shape.begin() + 2, tw.shape.end());
  if (at.has("kernel_shape"))
    ACL_SIM_REQUIRE(at.get_ints("kernel_shape") == g.kernel, ACL_ERROR_OP_ATTR_NOT_MATCH, "Conv: kernel_shape ",
                    dims_str(at.get_ints("kernel_shape")), " differs from W's ", dims_str(g.kernel));
  resolve_window_attrs(g, at, "Conv");
  g.out = window_output_dims(g, false);
  std::vector<int64_t> expect = {N, M};
  expect.insert(expect.end(), g.out.begin(), g.out.end());
  ACL_SIM_REQUIRE(ctx.outputs[0].shape == expect, ACL_ERROR_OP_OUTPUT_NOT_MATCH, "Conv: output shape ",
                  dims_str(ctx.outputs[0].shape), " does not match the inferred ", dims_str(expect));
  const bool has_bias = ctx.inputs.size() > 2 && ctx.inputs[2].present();
  if (has_bias)
    ACL_SIM_REQUIRE(ctx.inputs[2].numel() == M, ACL_ERROR_OP_INPUT_NOT_MATCH, "Conv: bias has ",
                    ctx.inputs[2].numel(), " values, expected ", M);
  // ATC's fused residual (passes/fuse_residual.py): a fourth input of Y's shape, added before the activation.
  const bool has_residual = ctx.inputs.size() > 3 && ctx.inputs[3].present();
  if (has_residual) {
    ACL_SIM_REQUIRE(ctx.inputs[3].shape == expect, ACL_ERROR_OP_INPUT_NOT_MATCH, "Conv: residual ",
                    dims_str(ctx.inputs[3].shape), " must have the output shape ", dims_str(expect));
    ACL_SIM_REQUIRE(group == 1, ACL_ERROR_OP_INPUT_NOT_MATCH, "Conv: a residual input needs group 1, got ", group);
  }
  const Activation act = activation_from_attrs(at);
  if (N * M * g.out_size() == 0) return;

  F32Input W(ctx, 1), B;
  if (has_bias) B = F32Input(ctx, 2);
  const float* bias = has_bias ? B.data() : nullptr;

  const int64_t cg = C / group, mg = M / group;
  if (cg == 1 && group == C && g.nsp <= 2 && !has_residual) {
    if (M == C) {  // one input plane per output plane: fp16 / bf16 planes are staged by the tasks themselves
      for_each_plane_range(ctx, N * C, depthwise_planes_per_task(g), g.in_size(), g.out_size(),
                           [&](const float* x, float* y, int64_t first, int64_t last) {
                             depthwise_conv_planes_f32(x, W.data(), bias, y, first, last, C, M, g, act);
                           });
      return;
    }
    F32Input X(ctx, 0);
    F32Output Y(ctx.outputs[0]);
    depthwise_conv_f32(X.data(), W.data(), bias, Y.data(), N, C, M, g, act);
    Y.commit();
    return;
  }
  // X and the residual widened to fp32 by the paths that read them so; an fp16 / bf16 pointwise conv on the GEMM
  // reads them as they lie (half_gemm, below).
  F32Input X, R;
  auto widen_inputs = [&] {
    X = F32Input(ctx, 0);
    if (has_residual) R = F32Input(ctx, 3);
  };
  F32Output Y(ctx.outputs[0]);

  const DirectMode pm_mode = path_mode("ACL_SIM_CONV_PIXEL_MAJOR");
  const DirectMode mode = path_mode("ACL_SIM_CONV_DIRECT");
  // Winograd by its rule, unless another path is asked for everywhere (=all) and this one is not.
  const DirectMode wmode = group == 1 ? path_mode("ACL_SIM_CONV_WINOGRAD") : DirectMode::kOff;
  const bool other_forced = pm_mode == DirectMode::kAll || mode == DirectMode::kAll;
  // Weights repacked once per loaded model (node cache), or per call (aclop, the testing path): per call, the
  // Winograd transform (36 x M x C, in double) and the pixel-major pack only pay off on large enough planes
  // (single ops through run_op: 3x3 512 -> 512 at 7x7 took 3.0x onnxruntime's time packing per call, 1.1x
  // without; 3x3 128 -> 128 at 28x28 stays faster on Winograd, 0.9-1.0x against 1.4x).
  const bool cached = ctx.cache && ctx.input_is_weight(1);
  // Outside a model Winograd transforms its weights per call (36 x M x C, 4x the weights): that pays off from
  // 64 output pixels per SIMD lane (through run_op on an Intel Xeon, 3x3 128 -> 128 at 28x28: AVX-512 0.87x of
  // Winograd's time on the im2col GEMM, AVX2 1.3x; 3x3 64 -> 64 at 56x56: Winograd 0.5-0.7x of the GEMM on both).
  // AVX-512 on 256-bit units (Zen 4) counts 8 lanes, as AVX2 does: the FMAs Winograd saves cost twice as much
  // there (stop 37, run_op, 3x3 128 -> 128 at 28x28: Winograd 0.87 ms against the GEMM's 1.15).
  const int64_t fma_lanes = cpu_features().avx512_double_pumped ? 8 : micro_kernels().lanes;
  const bool winograd_per_call_pays = g.out_size() >= 64 * fma_lanes;
  const bool pixel_major_ready =
      cached && pm_mode != DirectMode::kOff && group == 1 && pixel_major_conv_applies(g, cg, mg, false);
  if (wmode != DirectMode::kOff && winograd_conv_supported(g) &&
      (wmode == DirectMode::kAll ||
       (!other_forced && (cached || winograd_per_call_pays) &&
        winograd_conv_preferred(g, C, M, N, pixel_major_ready)))) {
    // U's panels follow the kernel the batch's tile count picks, so a dynamic batch may need both layouts.
    const int64_t mr = winograd_panel_rows(g, N);
    const size_t u_size = static_cast<size_t>(winograd_weights_floats(M, C, mr));
    auto transform = [&](float* dst) { winograd_transform_weights(W.data(), M, C, mr, dst); };
    const float* u;
    if (cached) {
      const ConvNodeData& data = conv_node_data(*ctx.cache);
      u = packed_once(mr == micro_kernels().mr ? data.winograd : data.winograd_tall, u_size, transform);
    } else {
      float* fresh = t_winograd_u.get(u_size);
      transform(fresh);
      u = fresh;
    }
    // fp16 / bf16 X and Y as they lie: widened per plane by the input transform, stored by the output transform.
    WinogradHalfIo half;
    if (tx.dtype != ACL_FLOAT) {
      half.x = static_cast<const uint16_t*>(tx.data);
      half.y = static_cast<uint16_t*>(ctx.outputs[0].data);
      half.bf16 = tx.dtype == ACL_BF16;
      if (has_residual) R = F32Input(ctx, 3);
    } else {
      widen_inputs();
    }
    winograd_conv_f32(X.data(), N, C, g, u, M, Y.data(), bias, has_residual ? R.data() : nullptr, act, half);
    if (!half.y) Y.commit();
    return;
  }

  const int64_t K = cg * g.kernel_size(), P = g.out_size(), in_size = g.in_size();
  bool pointwise = true, windowed = false, strided_window = false;
  for (int i = 0; i < g.nsp; ++i) {
    pointwise = pointwise && g.kernel[i] == 1 && g.stride[i] == 1 && g.pad_begin[i] == 0 && g.pad_end[i] == 0;
    windowed = windowed || g.kernel[i] > 1;
    strided_window = strided_window || g.stride[i] > 1;
  }

  // A 1x1 conv on a 1x1 plane (the squeeze-excite blocks of PP-OCR and MobileNetV3) is one small GEMM over the
  // whole batch, Y[N, M] = X[N, C] W^T, W^T read in place as a column-major B: one dot product per output, where
  // the conv paths spread a single pixel over whole vectors (one-node 480 -> 120 execute: 16 us, now 4 us).
  if (pointwise && P == 1 && group == 1 && pm_mode != DirectMode::kAll && mode != DirectMode::kAll) {
    widen_inputs();
    GemmEpilogue ep;
    ep.col_bias = bias;
    ep.act = act;
    const float* res = has_residual ? R.data() : nullptr;
    const float beta = res == Y.data() ? 1.f : 0.f;  // the residual in the output buffer: accumulate onto it
    ep.residual = beta != 0.f ? nullptr : res;
    gemm_f32(N, M, C, 1.f, MatrixRef{X.data(), C, 1}, MatrixRef{W.data(), 1, C}, beta, Y.data(), M, ep, true);
    Y.commit();
    return;
  }

  const bool pixel_major =
      pm_mode == DirectMode::kAll ||
      (pm_mode != DirectMode::kOff && (cached || g.out_size() >= 1024) && pixel_major_conv_applies(g, cg, mg, false));
  // fp16 / bf16 pointwise convs over 128..512 channels (or into more than 16) go to the GEMM, which reads X as it
  // lies and stores fp16 from its kernels, where the direct conv widens X in a pass of its own. Stop 42, in-model
  // A/B on Zen 4 (AVX-512, force_fp16, bench_node_ab.py, 30-40 pairs): the 1x1 convs of squeezenet that the fp32
  // rule sends to the direct conv took 0.69-0.96x the time on the GEMM (0.89x summed, the model 0.95x), but for
  // 64 -> 16 at 55x55 (1.33x: the GEMM packs all of X for 16 rows of FMAs; 128 -> 16 was even). light_resnet50's
  // residual 1x1 convs (the residual added in the GEMM's kernels) took 0.96-0.98x on the GEMM at 14x14 but
  // 1.19-1.27x at 7x7, which stay direct, as 2048 -> 512 at 7x7 (1.10-1.14x) does.
  const bool half_pointwise_on_gemm = tx.dtype != ACL_FLOAT && pointwise && (!has_residual || P >= 196) &&
                                      K <= 512 && (mg > 16 || K >= 128) && mode != DirectMode::kAll;
  const bool direct = !pixel_major && cg > 0 && mode != DirectMode::kOff && !half_pointwise_on_gemm &&
                      direct_conv_applies(g, cg, mg, mode == DirectMode::kAll);
  // The pixel-major path's weight panels, every group's: once per loaded model, else per call.
  const int64_t pm_size = pixel_major ? pixel_major_packed_size(mg, K) : 0;
  auto pack_pixel_major = [&](float* dst) {
    for (int64_t gi = 0; gi < group; ++gi) pixel_major_pack_weights(W.data() + gi * mg * K, mg, K, dst + gi * pm_size);
  };
  const float* pm_w = nullptr;
  if (pixel_major && cached) {
    pm_w = packed_once(conv_node_data(*ctx.cache).pixel_major, static_cast<size_t>(group * pm_size), pack_pixel_major);
  } else if (pixel_major) {
    float* fresh = t_pixel_major_w.get(static_cast<size_t>(group * pm_size));
    pack_pixel_major(fresh);
    pm_w = fresh;
  }
  // The direct path's packed weights (every group's), once per loaded model; outside a model it reads w in place.
  const int64_t dp_size = direct ? direct_packed_size(mg, K) : 0;
  const float* dp_w = nullptr;
  if (direct && direct_packed_available() && cached &&
      path_mode("ACL_SIM_CONV_DIRECT_PACKED") != DirectMode::kOff) {
    dp_w = packed_once(conv_node_data(*ctx.cache).direct, static_cast<size_t>(group * dp_size), [&](float* dst) {
      for (int64_t gi = 0; gi < group; ++gi) direct_pack_weights(W.data() + gi * mg * K, mg, K, dst + gi * dp_size);
    });
  }
  // The GEMM paths' A (the weights) in micro-kernel panels, every group's, once per loaded model (gemm.h says
  // why). Stop 24, A/B inside light_resnet50 on AVX2 (Intel Xeon, 30 pairs): 1x1 256->1024 at 14x14 took
  // 0.91x the time of A in place, 128->512 at 28x28 0.96x; on 7x7 planes (512->2048: 1.05x), 56x56 ones
  // (1.0-1.03x) and at K >= 1024 (1.05x; 3x3 512->512 at 7x7 1.8x then, 1.1x once the column kernel over packed A
  // was vectorised in stop 30) reading A in place stays ahead.
  // Stop 29, the same A/B after stops 25-28's kernel changes (in-place A prefetched on a panel's first strip,
  // deep K slices): on AVX2 packed A no longer pays (40 pairs inside light_resnet50: the 1x1 convs it packed for
  // took 0.94-0.99x the time with A in place, the unchanged nodes 0.99-1.0x; PP-OCR rec 0.989x, densenet121 and
  // PP-OCR det 0.998-1.001x, 15-25 pairs); on AVX-512 it still does (1x1 128->512 at 28x28 0.95-0.97x).
  // Stop 31, on a host with 512 KiB of L2 per core (AMD EPYC Zen 3, AVX2, 2 threads), the same A/B inside
  // light_resnet50 (30 pairs, five runs, both orders): its 1x1 convs, strided ones included, took 0.91-0.99x
  // the time with packed A (7x7 planes 0.87-0.89x, 56x56 ones 0.96-0.99x), the model 0.95-1.0x; densenet121's
  // 1x1 convs 0.94x, PP-OCR det / rec / cls's 0.95x / 0.93x / 0.98x (20 pairs). The 3x3 convs on the GEMM stay
  // in place (the stem 1.075x packed in stop 30). So 1x1 convs pack where L2 is that small (not measured on
  // 1 MiB L2s: Zen 4, Skylake-SP).
  // Stop 32, on a host with 1 MiB of L2 per core (AMD EPYC Zen 4, 2 threads), the same A/B inside
  // light_resnet50 (30 pairs): on AVX2 packed A took the 1x1 convs at K <= 512 0.95-0.99x the time (K 128:
  // 0.95x) but those at K 1024 / 2048 1.14x / 1.45x (one deep K slice of a 4-row panel: 32 KiB, all of L1d);
  // on AVX-512 every K was even (0.99-1.0x). So there 1x1 convs pack up to K 512 on AVX2 only.
  const bool on_gemm = !pixel_major && !direct;
  const int64_t ga_size = on_gemm ? packed_a_floats(mg, K) : 0;
  const float* ga_w = nullptr;
  const DirectMode ga_mode = path_mode("ACL_SIM_CONV_GEMM_PACKED");
  const long l2 = cpu_features().l2_bytes;
  const bool ga_pays = (micro_kernels().mr >= 8 && K <= 512 && P >= 196 && P <= 784) ||
                       (!windowed && (l2 <= (512 << 10) || (l2 <= (1 << 20) && micro_kernels().mr <= 4 && K <= 512)));
  if (on_gemm && cached && mg > 4 && ga_mode != DirectMode::kOff && (ga_pays || ga_mode == DirectMode::kAll)) {
    ga_w = packed_once(conv_node_data(*ctx.cache).gemm_a, static_cast<size_t>(group * ga_size), [&](float* dst) {
      for (int64_t gi = 0; gi < group; ++gi)
        pack_a_panels(MatrixRef{W.data() + gi * mg * K, K, 1}, mg, K, dst + gi * ga_size);
    });
  }
  // Strided windows whose output rows are shorter than 16 take im2col from the padded, phase-split input
  // (PhasePlaneIm2ColSource): Im2ColSource copies their stride-2 runs element by element. Stop 29, A/B inside
  // light_resnet50 (Intel Xeon, 2 threads, 15-20 pairs): the 3x3/2 at 512 channels into 7x7 0.91-0.95x the
  // time on AVX-512, 0.97-1.01x on AVX2. Longer rows (the 3x3/2 at 128 into 28x28: 1.02-1.2x) gather their
  // runs with vectors from x itself, and the split is a whole pass over the input; 1x1/2 windows read one
  // phase of four (AVX2 1x1/2 512->1024 into 14x14: 1.07x).
  const bool phase_planes =
      on_gemm && windowed && strided_window && direct_input_supported(g) && g.out[g.nsp - 1] < 16;
  // An fp16 / bf16 pointwise conv on the GEMM reads X and the residual as they lie and narrows each finished tile
  // into the output (HalfRowsPanelSource, GemmEpilogue::out_half), without a widening pass before it and a
  // narrowing pass after it.
  const bool half_gemm = tx.dtype != ACL_FLOAT && on_gemm && pointwise;
  // The direct and pixel-major convs write an fp16 / bf16 output themselves.
  const bool half_direct = tx.dtype != ACL_FLOAT && (direct || pixel_major);
  // The im2col GEMM reads a widened X, but its residual and output as they lie (GemmEpilogue's half fields).
  const bool half_im2col = tx.dtype != ACL_FLOAT && on_gemm && !pointwise;
  // An fp16 / bf16 X that the direct input's padded copy reads (pads or strides: the direct, pixel-major and
  // phase-plane im2col paths) is widened by that copy, a plane at a time, not by a pass of its own before it; an
  // fp16 X that the direct conv reads in place (no pads, stride 1) is widened by its kernels as they load it.
  const bool half_planes =
      tx.dtype != ACL_FLOAT &&
      (((direct || pixel_major || phase_planes) && direct_input_copies(g)) ||
       (tx.dtype == ACL_FLOAT16 && direct && !direct_input_copies(g) && direct_conv_half_b_available()));
  if (half_planes) {
    if (has_residual && !half_im2col) R = F32Input(ctx, 3);
  } else if (half_im2col) {
    X = F32Input(ctx, 0);
  } else if (!half_gemm) {
    widen_inputs();
  }
  auto one = [&](int64_t n, int64_t gi, bool parallel) {
    const int64_t x_off = (n * C + gi * cg) * in_size, y_off = (n * M + gi * mg) * P;
    float* yg = Y.data() + y_off;
    GemmEpilogue ep;
    ep.row_bias = bias ? bias + gi * mg : nullptr;
    ep.act = act;
    const MatrixRef a{W.data() + gi * mg * K, K, 1};
    if (half_gemm) {
      ep.out_half = static_cast<uint16_t*>(ctx.outputs[0].data) + y_off;
      ep.residual_half = has_residual ? static_cast<const uint16_t*>(ctx.inputs[3].data) + y_off : nullptr;
      ep.half_is_bf16 = tx.dtype == ACL_BF16;
      const HalfRowsPanelSource xs(static_cast<const uint16_t*>(tx.data) + x_off, in_size, ep.half_is_bf16);
      if (ga_w) gemm_f32_packed_a(mg, P, K, ga_w + gi * ga_size, xs, 0.f, yg, P, ep, parallel);
      else gemm_f32(mg, P, K, 1.f, a, xs, 0.f, yg, P, ep, parallel);
      return;
    }
    const ConvInputPlanes xin = half_planes ? ConvInputPlanes(static_cast<const uint16_t*>(tx.data) + x_off,
                                                              tx.dtype == ACL_BF16)
                                            : ConvInputPlanes(X.data() + x_off);
    const float* xg = xin.f32;  // null for half_planes, whose paths read xin
    ep.residual = has_residual && !half_im2col ? R.data() + y_off : nullptr;
    // The residual in the output buffer (in place): the GEMM accumulates onto it (beta 1).
    GemmEpilogue gemm_ep = ep;
    const float beta = ep.residual == yg ? 1.f : 0.f;
    if (beta != 0.f) gemm_ep.residual = nullptr;
    if (half_im2col) {
      gemm_ep.out_half = static_cast<uint16_t*>(ctx.outputs[0].data) + y_off;
      gemm_ep.residual_half = has_residual ? static_cast<const uint16_t*>(ctx.inputs[3].data) + y_off : nullptr;
      gemm_ep.half_is_bf16 = tx.dtype == ACL_BF16;
    }
    if (half_direct) {
      ep.out_half = static_cast<uint16_t*>(ctx.outputs[0].data) + y_off;
      ep.half_is_bf16 = tx.dtype == ACL_BF16;
    }
    if (pixel_major) {
      pixel_major_conv_f32(xin, cg, g, pm_w + gi * pm_size, mg, yg, ep, parallel);
    } else if (direct) {
      direct_conv_f32(xin, cg, g, a.data, mg, yg, ep, parallel, dp_w ? dp_w + gi * dp_size : nullptr);
    } else if (pointwise && ga_w) {
      gemm_f32_packed_a(mg, P, K, ga_w + gi * ga_size, MatrixPanelSource(MatrixRef{xg, in_size, 1}), beta, yg, P,
                        gemm_ep, parallel);
    } else if (pointwise) {
      gemm_f32(mg, P, K, 1.f, a, MatrixRef{xg, in_size, 1}, beta, yg, P, gemm_ep, parallel);
    } else {
      auto im2col_gemm = [&](const BPanelSource& cols) {
        if (ga_w)
          gemm_f32_packed_a(mg, P, K, ga_w + gi * ga_size, cols, beta, yg, P, gemm_ep, parallel);
        else
          gemm_f32(mg, P, K, 1.f, a, cols, beta, yg, P, gemm_ep, parallel);
      };
      if (phase_planes)
        im2col_gemm(PhasePlaneIm2ColSource(prepare_direct_input(xin, cg, g, parallel)));
      else
        im2col_gemm(Im2ColSource(xg, cg, g));
    }
  };
  const int64_t jobs = N * group;
  if (jobs > 1 && 2.0 * mg * P * K < 4e6) {
    // Many small GEMMs (grouped convs, small batches of small images): one per pool index.
    ThreadPool::instance().parallel_for(static_cast<size_t>(jobs), [&](size_t i) {
      one(static_cast<int64_t>(i) / group, static_cast<int64_t>(i) % group, false);
    });
  } else {
    for (int64_t n = 0; n < N; ++n)
      for (int64_t gi = 0; gi < group; ++gi) one(n, gi, true);
  }
  if (!half_gemm && !half_direct && !half_im2col) Y.commit();
}

}  // namespace

ACL_SIM_REGISTER_OP(Conv, run_conv);

}  // namespace acl_sim
