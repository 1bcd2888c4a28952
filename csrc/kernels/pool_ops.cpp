// ONNX MaxPool (with the optional int64 Indices output, storage_order,
// dilations, ceil_mode), AveragePool (count_include_pad, ceil_mode) and
// LpPool (with dilations, opset 18) over 1-3 spatial axes; fp32/fp16/bf16 (fp32 compute).
// MaxPool also takes int8 / uint8 (opset 12): the values are exact in fp32, so they are staged
// through the same fp32 path and narrowed back without rounding.
//
// One pool index handles a run of (n, c) planes; per output row the valid
// kernel range of every axis is computed up front, so the inner loops carry
// no bounds checks.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "kernels/conv_geometry.h"
#include "kernels/gemm_tensor_io.h"
#include "kernels/op_registry.h"
#include "kernels/pool_flat.h"
#include "kernels/pool_taps.h"

namespace acl_sim {
namespace {

enum class PoolKind { kMax, kAvg, kLp };

struct PoolPlan {
  PoolKind kind;
  int64_t in[3], out[3], k[3], s[3], d[3], pb[3], pe[3];
  bool count_include_pad = false;
  double p = 2.0;
  int storage_order = 0;
  int nsp = 2;
};

/** Valid kernel taps [lo, hi) on one axis for output index o: 0 <= o*s - pb + t*d < in. */
inline void tap_range(int64_t o, int64_t in, int64_t k, int64_t s, int64_t d, int64_t pb, int64_t* lo, int64_t* hi) {
  const int64_t start = o * s - pb;
  *lo = start >= 0 ? 0 : (-start + d - 1) / d;
  *hi = start > in - 1 ? 0 : std::min(k, (in - 1 - start) / d + 1);
  if (*hi < *lo) *hi = *lo;
}

/** Taps of the window on one axis that fall inside the padded extent [-pb, in + pe). */
inline int64_t padded_taps(int64_t o, const PoolPlan& P, int a) {
  const int64_t start = o * P.s[a] - P.pb[a];
  int64_t n = 0;
  for (int64_t t = 0; t < P.k[a]; ++t) {
    const int64_t pos = start + t * P.d[a];
    if (pos >= -P.pb[a] && pos < P.in[a] + P.pe[a]) ++n;
  }
  return n;
}

/**
 * 1 / count of every output of a 2-D AveragePool plane (0 where the window has no tap), by pool_plane_rows'
 * rule: the taps inside the plane, or with count_include_pad those inside the padded extent. Followed by a
 * vector's worth of zeros, for kernels that load whole vectors.
 */
std::vector<float> average_scales(const PoolPlan& P) {
  const int64_t OH = P.out[1], OW = P.out[2];
  std::vector<float> inv(static_cast<size_t>(OH * OW + 16), 0.f);
  for (int64_t oh = 0; oh < OH; ++oh) {
    int64_t h_lo, h_hi;
    tap_range(oh, P.in[1], P.k[1], P.s[1], P.d[1], P.pb[1], &h_lo, &h_hi);
    for (int64_t ow = 0; ow < OW; ++ow) {
      int64_t w_lo, w_hi;
      tap_range(ow, P.in[2], P.k[2], P.s[2], P.d[2], P.pb[2], &w_lo, &w_hi);
      const int64_t count = P.count_include_pad ? padded_taps(oh, P, 1) * padded_taps(ow, P, 2)
                                                : (h_hi - h_lo) * (w_hi - w_lo);
      inv[oh * OW + ow] = count > 0 ? 1.f / static_cast<float>(count) : 0.f;
    }
  }
  return inv;
}

/**
 * MaxPool without Indices and AveragePool: per output row, the border columns
 * take the generic per-output path and the interior columns (whole window
 * inside the row) are accumulated tap by tap over the row, vectorised.
 * Max skips NaN taps (a window of only NaN gives -inf); sums are fp32, which
 * is exact enough for windows of a few dozen taps.
 */
void pool_plane_rows(const PoolPlan& P, const float* x, float* y, float* acc) {
  const int64_t ID = P.in[0], IH = P.in[1], IW = P.in[2], OW = P.out[2];
  const int64_t sw = P.s[2], dw = P.d[2], kw = P.k[2], pw = P.pb[2];
  const bool is_max = P.kind == PoolKind::kMax;
  // Interior columns: ow*sw - pw >= 0 and ow*sw - pw + (kw-1)*dw <= IW-1.
  const int64_t ow_lo = std::min(OW, (pw + sw - 1) / sw);
  const int64_t last = IW - 1 - (kw - 1) * dw + pw;
  const int64_t ow_hi = last < 0 ? ow_lo : std::max(ow_lo, std::min(OW, last / sw + 1));
  const int64_t n = ow_hi - ow_lo;
  for (int64_t od = 0; od < P.out[0]; ++od) {
    int64_t d_lo, d_hi;
    tap_range(od, ID, P.k[0], P.s[0], P.d[0], P.pb[0], &d_lo, &d_hi);
    for (int64_t oh = 0; oh < P.out[1]; ++oh) {
      int64_t h_lo, h_hi;
      tap_range(oh, IH, P.k[1], P.s[1], P.d[1], P.pb[1], &h_lo, &h_hi);
      const int64_t id0 = od * P.s[0] - P.pb[0], ih0 = oh * P.s[1] - P.pb[1];
      float* yrow = y + (od * P.out[1] + oh) * OW;
      // Border columns: the same per-output loop as the generic path.
      for (int64_t ow = 0; ow < OW; ++ow) {
        if (ow == ow_lo && n > 0) ow = ow_hi;
        if (ow >= OW) break;
        int64_t w_lo, w_hi;
        tap_range(ow, IW, kw, sw, dw, pw, &w_lo, &w_hi);
        const int64_t iw0 = ow * sw - pw;
        float a = is_max ? -std::numeric_limits<float>::infinity() : 0.f;
        for (int64_t td = d_lo; td < d_hi; ++td)
          for (int64_t th = h_lo; th < h_hi; ++th) {
            const float* row = x + ((id0 + td * P.d[0]) * IH + (ih0 + th * P.d[1])) * IW + iw0;
            for (int64_t tw = w_lo; tw < w_hi; ++tw) {
              const float v = row[tw * dw];
              a = is_max ? (v > a ? v : a) : a + v;
            }
          }
        if (is_max) {
          yrow[ow] = a;
        } else {
          int64_t count = (d_hi - d_lo) * (h_hi - h_lo) * (w_hi - w_lo);
          if (P.count_include_pad) count = padded_taps(od, P, 0) * padded_taps(oh, P, 1) * padded_taps(ow, P, 2);
          yrow[ow] = count > 0 ? a / static_cast<float>(count) : 0.f;
        }
      }
      if (n <= 0) continue;
      std::fill(acc, acc + n, is_max ? -std::numeric_limits<float>::infinity() : 0.f);
      for (int64_t td = d_lo; td < d_hi; ++td)
        for (int64_t th = h_lo; th < h_hi; ++th) {
          const float* r = x + ((id0 + td * P.d[0]) * IH + (ih0 + th * P.d[1])) * IW + ow_lo * sw - pw;
          pool_row_taps_f32(is_max, acc, r, n, kw, dw, sw);
        }
      if (is_max) {
        std::copy(acc, acc + n, yrow + ow_lo);
      } else {
        int64_t count = (d_hi - d_lo) * (h_hi - h_lo) * kw;
        if (P.count_include_pad) count = padded_taps(od, P, 0) * padded_taps(oh, P, 1) * kw;
        const float scale = count > 0 ? 1.f / static_cast<float>(count) : 0.f;
        for (int64_t i = 0; i < n; ++i) yrow[ow_lo + i] = acc[i] * scale;
      }
    }
  }
}

void pool_plane(const PoolPlan& P, const float* x, float* y, int64_t* idx, int64_t plane_base) {
  const int64_t ID = P.in[0], IH = P.in[1], IW = P.in[2];
  for (int64_t od = 0; od < P.out[0]; ++od) {
    int64_t d_lo, d_hi;
    tap_range(od, ID, P.k[0], P.s[0], P.d[0], P.pb[0], &d_lo, &d_hi);
    for (int64_t oh = 0; oh < P.out[1]; ++oh) {
      int64_t h_lo, h_hi;
      tap_range(oh, IH, P.k[1], P.s[1], P.d[1], P.pb[1], &h_lo, &h_hi);
      for (int64_t ow = 0; ow < P.out[2]; ++ow) {
        int64_t w_lo, w_hi;
        tap_range(ow, IW, P.k[2], P.s[2], P.d[2], P.pb[2], &w_lo, &w_hi);
        const int64_t id0 = od * P.s[0] - P.pb[0], ih0 = oh * P.s[1] - P.pb[1], iw0 = ow * P.s[2] - P.pb[2];
        const int64_t o = (od * P.out[1] + oh) * P.out[2] + ow;
        if (P.kind == PoolKind::kMax) {
          float best = -std::numeric_limits<float>::infinity();
          int64_t best_at = -1;
          for (int64_t td = d_lo; td < d_hi; ++td)
            for (int64_t th = h_lo; th < h_hi; ++th) {
              const int64_t row = ((id0 + td * P.d[0]) * IH + (ih0 + th * P.d[1])) * IW + iw0;
              for (int64_t tw = w_lo; tw < w_hi; ++tw) {
                const float v = x[row + tw * P.d[2]];
                if (v > best || best_at < 0) {
                  best = v;
                  best_at = row + tw * P.d[2];
                }
              }
            }
          y[o] = best;
          if (idx) {
            if (best_at < 0) {
              idx[o] = -1;
            } else if (P.storage_order == 0) {
              idx[o] = plane_base + best_at;
            } else {  // column-major flat index over the real spatial axes
              const int64_t iw = best_at % IW, ih = (best_at / IW) % IH, id = best_at / (IW * IH);
              const int64_t col = P.nsp == 1 ? iw : P.nsp == 2 ? ih + iw * IH : id + ih * ID + iw * ID * IH;
              idx[o] = plane_base + col;
            }
          }
        } else {
          double acc = 0.0;
          int64_t count = 0;
          for (int64_t td = d_lo; td < d_hi; ++td)
            for (int64_t th = h_lo; th < h_hi; ++th) {
              const float* row = x + ((id0 + td * P.d[0]) * IH + (ih0 + th * P.d[1])) * IW + iw0;
              if (P.kind == PoolKind::kAvg) {
                for (int64_t tw = w_lo; tw < w_hi; ++tw) acc += row[tw * P.d[2]];
              } else {
                for (int64_t tw = w_lo; tw < w_hi; ++tw) acc += std::pow(std::fabs(double(row[tw * P.d[2]])), P.p);
              }
              count += w_hi - w_lo;
            }
          if (P.kind == PoolKind::kAvg) {
            if (P.count_include_pad) count = padded_taps(od, P, 0) * padded_taps(oh, P, 1) * padded_taps(ow, P, 2);
            y[o] = count > 0 ? static_cast<float>(acc / static_cast<double>(count)) : 0.f;
          } else {
            y[o] = static_cast<float>(std::pow(acc, 1.0 / P.p));
          }
        }
      }
    }
  }
}

/** int8 / uint8 <-> fp32 staging for MaxPool on 8-bit integers (every value is exact in fp32). */
class Int8Staging {
 public:
  Int8Staging(const TensorView& x, TensorView& y) : x_(x), y_(y) {
    in_.resize(static_cast<size_t>(x.numel()));
    out_.resize(static_cast<size_t>(y.numel()));
    if (x.dtype == ACL_UINT8) widen(static_cast<const uint8_t*>(x.data));
    else widen(static_cast<const int8_t*>(x.data));
    xf_ = TensorView{in_.data(), ACL_FLOAT, x.shape};
    yf_ = TensorView{out_.data(), ACL_FLOAT, y.shape};
  }
  TensorView& x() { return xf_; }
  TensorView& y() { return yf_; }
  void commit() {
    const size_t n = out_.size();
    if (y_.dtype == ACL_UINT8) {
      auto* d = static_cast<uint8_t*>(y_.data);
      for (size_t i = 0; i < n; ++i) d[i] = static_cast<uint8_t>(out_[i]);
    } else {
      auto* d = static_cast<int8_t*>(y_.data);
      for (size_t i = 0; i < n; ++i) d[i] = static_cast<int8_t>(out_[i]);
    }
  }

 private:
  template <class T>
  void widen(const T* s) {
    for (size_t i = 0; i < in_.size(); ++i) in_[i] = static_cast<float>(s[i]);
  }
  const TensorView& x_;
  TensorView& y_;
  std::vector<float> in_, out_;
  TensorView xf_, yf_;
};

void run_pool_f32(OpContext& ctx, PoolKind kind);

void run_pool(OpContext& ctx, PoolKind kind) {
  const int dt = ctx.inputs.empty() ? -1 : ctx.inputs[0].dtype;
  if (kind == PoolKind::kMax && (dt == ACL_UINT8 || dt == ACL_INT8) && !ctx.outputs.empty()) {
    ACL_SIM_REQUIRE(ctx.inputs[0].present() && ctx.outputs[0].dtype == dt, ACL_ERROR_OP_OUTPUT_NOT_MATCH,
                    ctx.op_type, ": output 0 must have the input's dtype");
    Int8Staging stage(ctx.inputs[0], ctx.outputs[0]);
    OpContext f = ctx;
    f.inputs[0] = stage.x();
    f.outputs[0] = stage.y();
    run_pool_f32(f, kind);
    stage.commit();
    return;
  }
  run_pool_f32(ctx, kind);
}

void run_pool_f32(OpContext& ctx, PoolKind kind) {
  const char* op = ctx.op_type;
  require_float_io(ctx, 1, 1);
  const TensorView& tx = ctx.inputs[0];
  const Attrs& at = *ctx.attrs;
  ACL_SIM_REQUIRE(tx.shape.size() >= 3 && tx.shape.size() <= 5, ACL_ERROR_OP_INPUT_NOT_MATCH, op,
                  ": X must be [N, C, spatial...] with 1-3 spatial axes, got ", dims_str(tx.shape));
  SpatialGeometry g;
  g.nsp = static_cast<int>(tx.shape.size()) - 2;
  g.in.assign(tx.shape.begin() + 2, tx.shape.end());
  ACL_SIM_REQUIRE(at.has("kernel_shape"), ACL_ERROR_OP_ATTR_NOT_MATCH, op, ": kernel_shape is required");
  g.kernel = at.get_ints("kernel_shape");
  ACL_SIM_REQUIRE(g.kernel.size() == static_cast<size_t>(g.nsp), ACL_ERROR_OP_ATTR_NOT_MATCH, op,
                  ": kernel_shape ", dims_str(g.kernel), " does not match ", g.nsp, " spatial axes");
  resolve_window_attrs(g, at, op, true);
  const bool ceil_mode = at.get_int("ceil_mode", 0) != 0;
  g.out = window_output_dims(g, ceil_mode, true);
  std::vector<int64_t> expect = {tx.shape[0], tx.shape[1]};
  expect.insert(expect.end(), g.out.begin(), g.out.end());
  ACL_SIM_REQUIRE(ctx.outputs[0].shape == expect, ACL_ERROR_OP_OUTPUT_NOT_MATCH, op, ": output shape ",
                  dims_str(ctx.outputs[0].shape), " does not match the inferred ", dims_str(expect));
  int64_t* indices = nullptr;
  if (kind == PoolKind::kMax && ctx.outputs.size() > 1 && ctx.outputs[1].present()) {
    ACL_SIM_REQUIRE(ctx.outputs[1].dtype == ACL_INT64 && ctx.outputs[1].shape == expect,
                    ACL_ERROR_OP_OUTPUT_NOT_MATCH, op, ": Indices must be int64 of shape ", dims_str(expect));
    indices = static_cast<int64_t*>(ctx.outputs[1].data);
  }

  PoolPlan P;
  P.kind = kind;
  P.nsp = g.nsp;
  const int lead = 3 - g.nsp;
  for (int i = 0; i < 3; ++i) {
    const int j = i - lead;
    P.in[i] = j >= 0 ? g.in[j] : 1;
    P.out[i] = j >= 0 ? g.out[j] : 1;
    P.k[i] = j >= 0 ? g.kernel[j] : 1;
    P.s[i] = j >= 0 ? g.stride[j] : 1;
    P.d[i] = j >= 0 ? g.dilation[j] : 1;
    P.pb[i] = j >= 0 ? g.pad_begin[j] : 0;
    P.pe[i] = j >= 0 ? g.pad_end[j] : 0;
  }
  P.count_include_pad = at.get_int("count_include_pad", 0) != 0;
  P.p = static_cast<double>(at.get_int("p", 2));
  P.storage_order = static_cast<int>(at.get_int("storage_order", 0));
  const int64_t planes = tx.shape[0] * tx.shape[1], in_size = g.in_size(), out_size = g.out_size();
  if (planes * out_size == 0) return;

  // Several small planes per pool index so tiny pools do not drown in scheduling.
  const int64_t per_task = std::max<int64_t>(1, 16384 / std::max<int64_t>(1, out_size * g.kernel_size()));
  // Max without Indices and Avg take the row-vectorised path; Lp and Indices keep the per-output loop.
  const bool row_path = (kind == PoolKind::kMax && !indices) || kind == PoolKind::kAvg;
  // A window that is the whole unpadded plane (resnet's 7x7 AveragePool on 7x7) is one reduction per plane.
  bool whole_plane = row_path;
  for (int i = 0; i < 3; ++i)
    whole_plane = whole_plane && P.out[i] == 1 && P.k[i] == P.in[i] && P.d[i] == 1 && P.pb[i] == 0 && P.pe[i] == 0;
  // 3x3/2 Max- and AveragePool on 2-D planes (resnet's stem pool, shufflenet's) have their own separable
  // kernel (pool_taps.h); the average scales by counts worked out here once per call.
  const bool pool_3x3s2 = row_path && P.nsp == 2 && P.k[1] == 3 && P.k[2] == 3 && P.s[1] == 2 && P.s[2] == 2 &&
                          P.d[1] == 1 && P.d[2] == 1 && pool_3x3s2_supported(P.pb[1], P.pb[2]);
  std::vector<float> inv_counts;
  if (pool_3x3s2 && kind == PoolKind::kAvg) inv_counts = average_scales(P);
  // So does the unpadded 2x2/2 AveragePool whose windows all lie inside the plane (densenet's transitions).
  const bool avg_2x2s2 = kind == PoolKind::kAvg && P.nsp == 2 && P.k[1] == 2 && P.k[2] == 2 && P.s[1] == 2 &&
                         P.s[2] == 2 && P.d[1] == 1 && P.d[2] == 1 && P.pb[1] == 0 && P.pb[2] == 0 &&
                         P.pe[1] == 0 && P.pe[2] == 0 && 2 * P.out[1] <= P.in[1] && 2 * P.out[2] <= P.in[2] &&
                         avg_pool_2x2s2_supported();
  // And the 3x3/1 Max- or AveragePool padded by one on every side (a same-size blur; inception's pool branches).
  const bool same_3x3 = row_path && P.nsp == 2 && P.k[1] == 3 && P.k[2] == 3 && P.s[1] == 1 && P.s[2] == 1 &&
                        P.d[1] == 1 && P.d[2] == 1 && P.pb[1] == 1 && P.pb[2] == 1 && P.pe[1] == 1 && P.pe[2] == 1 &&
                        P.out[1] == P.in[1] && P.out[2] == P.in[2] && pool_3x3s1p1_supported(P.in[1], P.in[2]);
  // Small planes of it and of the 3x3/2 pools as one flat run each (pool_flat.h), masks and scales worked out once
  // per call. Stop 37 (Zen 4, 2 threads, in-model A/B against the row kernel, 30 pairs; its first flat kernel):
  // inception_v2's AveragePools 0.39x / 0.41x the time (AVX-512 / AVX2), its MaxPools 0.88x / 0.85x,
  // inception_v1's MaxPools 0.68x / 0.63x, both models 0.97x.
  const bool flat_3x3 = (same_3x3 || pool_3x3s2) &&
                        pool_3x3_flat_supported(P.in[1], P.in[2], P.s[1], P.pb[1], P.pb[2], P.out[1], P.out[2]);
  std::vector<uint32_t> flat_masks;
  if (flat_3x3) {
    flat_masks = pool_3x3_flat_masks(P.in[1], P.in[2], P.s[1], P.pb[1], P.pb[2], P.out[1], P.out[2]);
    if (kind == PoolKind::kAvg && inv_counts.empty()) inv_counts = average_scales(P);
  }
  // fp16 planes of the flat and the 3x3/2 kernels are read and written as they lie (pool_3x3_flat_f16,
  // pool_3x3s2_plane_f16), not staged.
  if (flat_3x3 && tx.dtype == ACL_FLOAT16 && pool_3x3_flat_f16_available()) {
    const auto* x = static_cast<const uint16_t*>(tx.data);
    auto* y = static_cast<uint16_t*>(ctx.outputs[0].data);
    for_each_plane_task(planes, per_task, [&](int64_t first, int64_t last) {
      pool_3x3_flat_f16(kind == PoolKind::kMax, x + first * in_size, last - first, P.in[1], P.in[2],
                        y + first * out_size, P.out[1], P.out[2], flat_masks.data(), inv_counts.data());
    });
    return;
  }
  if (pool_3x3s2 && !flat_3x3 && tx.dtype == ACL_FLOAT16) {
    const auto* x = static_cast<const uint16_t*>(tx.data);
    auto* y = static_cast<uint16_t*>(ctx.outputs[0].data);
    for_each_plane_task(planes, per_task, [&](int64_t first, int64_t last) {
      for (int64_t pl = first; pl < last; ++pl)
        pool_3x3s2_plane_f16(x + pl * in_size, P.in[1], P.in[2], P.pb[1], P.pb[2], y + pl * out_size, P.out[1],
                             P.out[2], inv_counts.empty() ? nullptr : inv_counts.data());
    });
    return;
  }
  // Planes [first, last) from x (plane first's input) into y (its output), fp32.
  auto run_planes = [&](const float* x, float* y, int64_t first, int64_t last) {
    if (flat_3x3) {
      pool_3x3_flat_f32(kind == PoolKind::kMax, x, last - first, P.in[1], P.in[2], y, P.out[1], P.out[2],
                        flat_masks.data(), inv_counts.data());
      return;
    }
    if (same_3x3) {
      for (int64_t pl = first; pl < last; ++pl)
        pool_3x3s1p1_plane_f32(kind == PoolKind::kMax, x + (pl - first) * in_size, P.in[1], P.in[2],
                               y + (pl - first) * out_size, P.count_include_pad);
      return;
    }
    if (avg_2x2s2) {
      for (int64_t pl = first; pl < last; ++pl)
        avg_pool_2x2s2_plane_f32(x + (pl - first) * in_size, P.in[2], y + (pl - first) * out_size, P.out[1], P.out[2]);
      return;
    }
    if (pool_3x3s2) {
      for (int64_t pl = first; pl < last; ++pl)
        pool_3x3s2_plane_f32(x + (pl - first) * in_size, P.in[1], P.in[2], P.pb[1], P.pb[2],
                             y + (pl - first) * out_size, P.out[1], P.out[2],
                             inv_counts.empty() ? nullptr : inv_counts.data());
      return;
    }
    if (whole_plane) {
      for (int64_t pl = first; pl < last; ++pl) {
        const float* xp = x + (pl - first) * in_size;
        y[pl - first] = kind == PoolKind::kMax ? plane_max_f32(xp, in_size)
                                               : plane_sum_f32(xp, in_size) / static_cast<float>(in_size);
      }
      return;
    }
    if (row_path) {
      std::vector<float> acc(static_cast<size_t>(P.out[2]));
      for (int64_t pl = first; pl < last; ++pl)
        pool_plane_rows(P, x + (pl - first) * in_size, y + (pl - first) * out_size, acc.data());
      return;
    }
    for (int64_t pl = first; pl < last; ++pl)
      pool_plane(P, x + (pl - first) * in_size, y + (pl - first) * out_size,
                 indices ? indices + pl * out_size : nullptr, pl * in_size);
  };
  for_each_plane_range(ctx, planes, per_task, in_size, out_size, run_planes);
}

void run_max_pool(OpContext& ctx) { run_pool(ctx, PoolKind::kMax); }
void run_average_pool(OpContext& ctx) { run_pool(ctx, PoolKind::kAvg); }
void run_lp_pool(OpContext& ctx) { run_pool(ctx, PoolKind::kLp); }

}  // namespace

ACL_SIM_REGISTER_OP(MaxPool, run_max_pool);
ACL_SIM_REGISTER_OP(AveragePool, run_average_pool);
ACL_SIM_REGISTER_OP(LpPool, run_lp_pool);

}  // namespace acl_sim
