// Resize (opsets 10-19) and Upsample: nearest (four rounding modes), N-linear
// and cubic, with every coordinate_transformation_mode.
//
// Interpolation is separable: per axis and output index we precompute taps
// (source index, weight): 1 for nearest, 2 for linear, 4 for cubic; axes that
// are not resized get a single identity tap. An output row then sums the
// products of the outer axes' taps with the last axis' taps.
//
// antialias=1 (opset 18) with linear / cubic and a downscaling axis (scale < 1) stretches the
// filter by 1/scale: that axis gets about 2/scale (linear) or 4/scale (cubic)
// taps, normalised to sum 1, placed around the source coordinate as ONNX defines it.
//
// Opset detection: Resize with exactly two inputs is opset 10 (X, scales;
// default transformation "asymmetric"); Upsample is "asymmetric" too.
#include <cmath>

#include "kernels/data_movement.h"
#include "kernels/elementwise_cast.h"

namespace acl_sim::kern {
namespace {

enum class Mode { Nearest, Linear, Cubic };

struct Tap {
  int64_t index;  // -1: outside (tf_crop_and_resize extrapolation)
  float weight;
};

struct AxisTaps {
  int taps = 1;
  std::vector<Tap> t;  // out_size * taps
  bool identity = true;
};

struct ResizeParams {
  Mode mode = Mode::Nearest;
  std::string coord = "half_pixel";
  std::string nearest = "round_prefer_floor";
  float cubic_a = -0.75f;
  bool exclude_outside = false;
  float extrapolation = 0.f;
  bool antialias = false;
};

double to_original(const ResizeParams& p, int64_t x, int64_t in, int64_t out, double scale, double roi_start,
                   double roi_end) {
  const std::string& m = p.coord;
  if (m == "half_pixel") return (x + 0.5) / scale - 0.5;
  if (m == "pytorch_half_pixel") return out > 1 ? (x + 0.5) / scale - 0.5 : 0.0;
  if (m == "align_corners") return out == 1 ? 0.0 : static_cast<double>(x) * (in - 1) / (out - 1);
  if (m == "asymmetric") return x / scale;
  if (m == "tf_half_pixel_for_nn") return (x + 0.5) / scale;
  if (m == "half_pixel_symmetric") {
    double adjustment = out / (scale * in);
    double center = in / 2.0;
    double offset = center * (1 - adjustment);
    return offset + (x + 0.5) / scale - 0.5;
  }
  // tf_crop_and_resize
  if (out > 1) return roi_start * (in - 1) + x * (roi_end - roi_start) * (in - 1) / (out - 1);
  return 0.5 * (roi_start + roi_end) * (in - 1);
}

int64_t nearest_index(const ResizeParams& p, double x, int64_t in, double scale) {
  double f = std::floor(x);
  double frac = x - f;
  int64_t r;
  // "simple" (Upsample, Resize-10, as onnxruntime): ceil when downsampling, else truncate.
  if (p.nearest == "simple") r = static_cast<int64_t>(scale < 1 ? std::ceil(x) : f);
  else if (p.nearest == "floor") r = static_cast<int64_t>(f);
  else if (p.nearest == "ceil") r = static_cast<int64_t>(std::ceil(x));
  else if (p.nearest == "round_prefer_ceil") r = static_cast<int64_t>(frac >= 0.5 ? f + 1 : f);
  else r = static_cast<int64_t>(frac > 0.5 ? f + 1 : f);  // round_prefer_floor
  return std::clamp<int64_t>(r, 0, in - 1);
}

/** Antialiased linear / cubic taps on a downscaling axis (scale < 1). */
AxisTaps make_antialias_taps(const ResizeParams& p, int64_t in, int64_t out, double scale, double roi_start,
                             double roi_end) {
  // Filter support grows by 1/scale: taps at offsets [start, start + n) around the source pixel.
  const bool cubic = p.mode == Mode::Cubic;
  const int64_t start = static_cast<int64_t>(std::floor((cubic ? -2.0 : -1.0) / scale)) + 1;
  const int64_t n = 2 - 2 * start;
  const double A = p.cubic_a;
  AxisTaps a;
  a.taps = static_cast<int>(n);
  a.identity = false;
  a.t.resize(static_cast<size_t>(out * n));
  const int64_t pad = (n + 1) / 2;
  std::vector<double> w(static_cast<size_t>(n));
  for (int64_t o = 0; o < out; ++o) {
    const double x = to_original(p, o, in, out, scale, roi_start, roi_end);
    Tap* t = &a.t[static_cast<size_t>(o * n)];
    if (p.coord == "tf_crop_and_resize" && (x < 0 || x > in - 1)) {
      for (int64_t k = 0; k < n; ++k) t[k] = {-1, 0.f};
      continue;
    }
    const double xi = std::floor(x);
    const double ratio = x == xi ? 1.0 : x - xi;  // an integer coordinate takes the pixel on its left
    double sum = 0;
    for (int64_t k = 0; k < n; ++k) {
      const double z = std::fabs(scale * (static_cast<double>(start + k) - ratio));
      double v;
      if (cubic) v = z <= 1 ? ((A + 2) * z - (A + 3)) * z * z + 1 : z < 2 ? ((A * z - 5 * A) * z + 8 * A) * z - 4 * A : 0;
      else v = std::clamp(1.0 - z, 0.0, 1.0);
      w[static_cast<size_t>(k)] = v;
      sum += v;
    }
    // The n source pixels nearest x (ties to the smaller index).
    const double xp = x + static_cast<double>(pad), pf = std::floor(xp), frac = xp - pf;
    const int64_t offset = n % 2 == 0 ? (frac == 0 ? -(n / 2) : -(n / 2) + 1)
                                      : (frac <= 0.5 ? -((n - 1) / 2) : -((n - 1) / 2) + 1);
    const int64_t first = static_cast<int64_t>(pf) + offset - pad;
    for (int64_t k = 0; k < n; ++k) w[static_cast<size_t>(k)] /= sum;
    if (p.exclude_outside) {
      double inside = 0;
      for (int64_t k = 0; k < n; ++k) {
        const int64_t idx = first + k;
        if (idx < 0 || idx >= in) w[static_cast<size_t>(k)] = 0;
        inside += w[static_cast<size_t>(k)];
      }
      if (inside != 0)
        for (int64_t k = 0; k < n; ++k) w[static_cast<size_t>(k)] /= inside;
    }
    for (int64_t k = 0; k < n; ++k)
      t[k] = {std::clamp<int64_t>(first + k, 0, in - 1), static_cast<float>(w[static_cast<size_t>(k)])};
  }
  return a;
}

AxisTaps make_taps(const ResizeParams& p, int64_t in, int64_t out, double scale, double roi_start, double roi_end) {
  if (p.antialias && p.mode != Mode::Nearest && scale < 1.0)
    return make_antialias_taps(p, in, out, scale, roi_start, roi_end);
  AxisTaps a;
  a.taps = p.mode == Mode::Nearest ? 1 : p.mode == Mode::Linear ? 2 : 4;
  a.t.resize(static_cast<size_t>(out * a.taps));
  const bool crop = p.coord == "tf_crop_and_resize";
  for (int64_t o = 0; o < out; ++o) {
    double x = to_original(p, o, in, out, scale, roi_start, roi_end);
    Tap* t = &a.t[static_cast<size_t>(o * a.taps)];
    if (crop && (x < 0 || x > in - 1)) {
      for (int k = 0; k < a.taps; ++k) t[k] = {-1, 0.f};
      a.identity = false;
      continue;
    }
    if (p.mode == Mode::Nearest) {
      t[0] = {nearest_index(p, x, in, scale), 1.f};
    } else if (p.mode == Mode::Linear) {
      x = std::clamp(x, 0.0, static_cast<double>(in - 1));
      int64_t x0 = static_cast<int64_t>(std::floor(x));
      int64_t x1 = std::min(x0 + 1, in - 1);
      float w1 = static_cast<float>(x - x0);
      t[0] = {x0, 1.f - w1};
      t[1] = {x1, w1};
    } else {
      double x0 = std::floor(x);
      double s = x - x0;
      double A = p.cubic_a;
      double d[4] = {s + 1, s, 1 - s, 2 - s};
      double w[4];
      for (int k = 0; k < 4; ++k) {
        double z = d[k];
        w[k] = z <= 1 ? ((A + 2) * z - (A + 3)) * z * z + 1 : ((A * z - 5 * A) * z + 8 * A) * z - 4 * A;
      }
      double sum = 0;
      for (int k = 0; k < 4; ++k) {
        int64_t idx = static_cast<int64_t>(x0) - 1 + k;
        if (p.exclude_outside && (idx < 0 || idx >= in)) w[k] = 0;
        sum += w[k];
      }
      for (int k = 0; k < 4; ++k) {
        int64_t idx = std::clamp<int64_t>(static_cast<int64_t>(x0) - 1 + k, 0, in - 1);
        t[k] = {idx, static_cast<float>(p.exclude_outside && sum != 0 ? w[k] / sum : w[k])};
      }
    }
    // Identity check: the only non-zero tap is o itself with weight 1.
    for (int k = 0; k < a.taps; ++k) {
      bool self = t[k].index == o && t[k].weight == 1.f;
      if (!(self || t[k].weight == 0.f) || (k == 0 && in != out)) a.identity = false;
    }
  }
  if (a.identity) {
    a.taps = 1;
    a.t.resize(static_cast<size_t>(out));
    for (int64_t o = 0; o < out; ++o) a.t[o] = {o, 1.f};
  }
  return a;
}

/** Interpolated resize in float: y[out_shape] from x[in_shape] with per-axis taps. */
void resize_float(const float* x, float* y, const std::vector<int64_t>& in_shape, const std::vector<int64_t>& out_shape,
                  const std::vector<AxisTaps>& axes, float extrapolation) {
  const int rank = static_cast<int>(in_shape.size());
  std::vector<int64_t> xs = strides_of(in_shape);
  const int64_t row = out_shape.back(), rows = prod(out_shape) / row;
  const AxisTaps& last = axes.back();
  parallel_blocks(rows, rows_grain(row * 4), [&](int64_t b, int64_t e) {
    std::vector<std::pair<int64_t, float>> combos, next;
    for (int64_t r = b; r < e; ++r) {
      combos.assign(1, {0, 1.f});
      bool outside = false;
      int64_t rem = r;
      std::vector<int64_t> coord(static_cast<size_t>(rank), 0);
      for (int d = rank - 2; d >= 0; --d) coord[d] = rem % out_shape[d], rem /= out_shape[d];
      for (int d = 0; d < rank - 1 && !outside; ++d) {
        const AxisTaps& a = axes[d];
        next.clear();
        for (auto& c : combos)
          for (int k = 0; k < a.taps; ++k) {
            const Tap& t = a.t[static_cast<size_t>(coord[d] * a.taps + k)];
            if (t.index < 0) outside = true;
            if (t.weight != 0.f) next.push_back({c.first + t.index * xs[d], c.second * t.weight});
          }
        combos.swap(next);
      }
      float* out = y + r * row;
      if (outside) {
        std::fill(out, out + row, extrapolation);
        continue;
      }
      for (int64_t j = 0; j < row; ++j) {
        const Tap* t = &last.t[static_cast<size_t>(j * last.taps)];
        if (t[0].index < 0) {
          out[j] = extrapolation;
          continue;
        }
        float acc = 0.f;
        for (auto& c : combos) {
          const float* base = x + c.first;
          float s = 0.f;
          for (int k = 0; k < last.taps; ++k) s += t[k].weight * base[t[k].index];
          acc += c.second * s;
        }
        out[j] = acc;
      }
    }
  });
}

void resize_common(OpContext& ctx, bool upsample) {
  require_io(ctx, 1, 1);
  const TensorView& x = input(ctx, 0);
  TensorView& y = output(ctx, 0);
  require_same_dtype(ctx, x, y, "input and output");
  const Attrs& at = attrs_of(ctx);
  const int64_t rank = static_cast<int64_t>(x.shape.size());
  ACL_SIM_REQUIRE(rank >= 1 && static_cast<int64_t>(y.shape.size()) == rank, ACL_ERROR_OP_OUTPUT_NOT_MATCH,
                  ctx.op_type, ": output rank must equal input rank ", rank);
  bool opset10 = upsample || ctx.inputs.size() == 2;
  ResizeParams p;
  std::string mode = at.get_string("mode", "nearest");
  if (mode == "nearest") p.mode = Mode::Nearest;
  else if (mode == "linear" || mode == "bilinear" || mode == "trilinear") p.mode = Mode::Linear;
  else if (mode == "cubic") p.mode = Mode::Cubic;
  else fail(ACL_ERROR_OP_ATTR_NOT_MATCH, ctx.op_type, ": unknown mode '", mode, "'");
  p.coord = at.get_string("coordinate_transformation_mode", opset10 ? "asymmetric" : "half_pixel");
  static const char* kCoords[] = {"half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric",
                                  "tf_half_pixel_for_nn", "half_pixel_symmetric", "tf_crop_and_resize"};
  ACL_SIM_REQUIRE(std::find_if(std::begin(kCoords), std::end(kCoords), [&](const char* c) { return p.coord == c; }) !=
                      std::end(kCoords),
                  ACL_ERROR_OP_ATTR_NOT_MATCH, ctx.op_type, ": unknown coordinate_transformation_mode '", p.coord, "'");
  p.nearest = at.get_string("nearest_mode", opset10 ? "simple" : "round_prefer_floor");
  p.cubic_a = static_cast<float>(at.get_float("cubic_coeff_a", -0.75));
  p.exclude_outside = at.get_int("exclude_outside", 0) != 0;
  p.extrapolation = static_cast<float>(at.get_float("extrapolation_value", 0.0));
  p.antialias = at.get_int("antialias", 0) != 0;  // no effect on nearest (ONNX: linear / cubic only)

  // Scales: opset 10 / Upsample input 1 (or Upsample-7 attribute), opset 11+ input 2; sizes input 3.
  std::vector<double> scales;
  const TensorView* st = optional_input(ctx, opset10 ? 1 : 2);
  if (st && st->numel() > 0) {
    for (int64_t i = 0; i < st->numel(); ++i) scales.push_back(scalar_as_double(*st, i));
  } else if (upsample && at.has("scales")) {
    scales = at.get_floats("scales", {});
  }
  std::vector<int64_t> axes_attr = at.get_ints("axes", {});
  std::vector<int64_t> axes;
  if (axes_attr.empty())
    for (int64_t d = 0; d < rank; ++d) axes.push_back(d);
  else
    for (int64_t a : axes_attr) axes.push_back(normalize_axis(ctx, a, rank));
  std::vector<double> scale(static_cast<size_t>(rank), 1.0), roi_s(static_cast<size_t>(rank), 0.0),
      roi_e(static_cast<size_t>(rank), 1.0);
  if (!scales.empty()) {
    ACL_SIM_REQUIRE(scales.size() == axes.size(), ACL_ERROR_OP_INPUT_NOT_MATCH, ctx.op_type, ": scales has ",
                    scales.size(), " entries, expected ", axes.size());
    for (size_t i = 0; i < axes.size(); ++i) {
      ACL_SIM_REQUIRE(scales[i] > 0, ACL_ERROR_OP_INPUT_NOT_MATCH, ctx.op_type, ": scale ", scales[i], " must be > 0");
      scale[axes[i]] = scales[i];
    }
  } else {
    // Sizes given: the output shape is authoritative; keep_aspect_ratio_policy shares one scale,
    // the min (not_larger) or max (not_smaller) of the requested sizes over the input sizes.
    std::string policy = at.get_string("keep_aspect_ratio_policy", "stretch");
    const TensorView* sizes = opset10 ? nullptr : optional_input(ctx, 3);
    bool have_sizes = sizes && sizes->numel() == static_cast<int64_t>(axes.size());
    double common = policy == "not_larger" ? 1e300 : 0.0;
    for (size_t i = 0; i < axes.size(); ++i) {
      int64_t d = axes[i];
      double s = x.shape[d] ? static_cast<double>(y.shape[d]) / x.shape[d] : 1.0;
      scale[d] = s;
      double requested = have_sizes && x.shape[d] ? scalar_as_double(*sizes, static_cast<int64_t>(i)) / x.shape[d] : s;
      common = policy == "not_larger" ? std::min(common, requested) : std::max(common, requested);
    }
    if (policy != "stretch")
      for (int64_t d : axes) scale[d] = common;
  }
  if (!opset10) {
    if (const TensorView* roi = optional_input(ctx, 1); roi && roi->numel() > 0) {
      int64_t n = roi->numel() / 2;
      ACL_SIM_REQUIRE(n == static_cast<int64_t>(axes.size()), ACL_ERROR_OP_INPUT_NOT_MATCH, ctx.op_type, ": roi has ",
                      roi->numel(), " entries, expected ", 2 * axes.size());
      for (int64_t i = 0; i < n; ++i) {
        roi_s[axes[i]] = scalar_as_double(*roi, i);
        roi_e[axes[i]] = scalar_as_double(*roi, n + i);
      }
    }
  }
  if (y.numel() == 0) return;
  ACL_SIM_REQUIRE(x.numel() > 0, ACL_ERROR_OP_INPUT_NOT_MATCH, ctx.op_type, ": empty input for a non-empty output");
  std::vector<AxisTaps> taps;
  for (int64_t d = 0; d < rank; ++d) taps.push_back(make_taps(p, x.shape[d], y.shape[d], scale[d], roi_s[d], roi_e[d]));

  if (p.mode == Mode::Nearest && p.coord != "tf_crop_and_resize") {
    // Pure index gather: exact for every dtype.
    std::vector<int64_t> xs = strides_of(x.shape);
    const int64_t row = y.shape.back(), rows = y.numel() / row;
    dispatch_elem_size(ctx, dtype_size(x.dtype), [&](auto tag) {
      using U = decltype(tag);
      const U* src = static_cast<const U*>(x.data);
      U* dst = static_cast<U*>(y.data);
      const AxisTaps& last = taps.back();
      parallel_blocks(rows, rows_grain(row), [&](int64_t b, int64_t e) {
        for (int64_t r = b; r < e; ++r) {
          int64_t rem = r, off = 0;
          for (int64_t d = rank - 2; d >= 0; --d) {
            off += taps[d].t[static_cast<size_t>(rem % y.shape[d])].index * xs[d];
            rem /= y.shape[d];
          }
          U* o = dst + r * row;
          for (int64_t j = 0; j < row; ++j) o[j] = src[off + last.t[j].index];
        }
      });
    });
    return;
  }
  ACL_SIM_REQUIRE(is_float_dtype(x.dtype) || x.dtype == ACL_INT8 || x.dtype == ACL_UINT8 || x.dtype == ACL_INT32,
                  ACL_ERROR_UNSUPPORTED_DATA_TYPE, ctx.op_type, ": unsupported dtype ", dtype_name(x.dtype));
  std::vector<float> xf, yf;
  const float* xp = static_cast<const float*>(x.data);
  float* yp = static_cast<float*>(y.data);
  if (x.dtype != ACL_FLOAT) {
    xf.resize(static_cast<size_t>(x.numel()));
    yf.resize(static_cast<size_t>(y.numel()));
    cast_elements(ctx, x.data, x.dtype, xf.data(), ACL_FLOAT, x.numel());
    xp = xf.data();
    yp = yf.data();
  }
  resize_float(xp, yp, x.shape, y.shape, taps, p.extrapolation);
  if (x.dtype != ACL_FLOAT) {
    if (!is_float_dtype(y.dtype))
      for (float& v : yf) v = std::nearbyint(v);  // integer images round to nearest
    cast_elements(ctx, yf.data(), ACL_FLOAT, y.data, y.dtype, y.numel());
  }
}

void run_resize(OpContext& ctx) { resize_common(ctx, false); }
void run_upsample(OpContext& ctx) { resize_common(ctx, true); }

}  // namespace

ACL_SIM_REGISTER_OP(Resize, run_resize);
ACL_SIM_REGISTER_OP(Upsample, run_upsample);

}  // namespace acl_sim::kern
