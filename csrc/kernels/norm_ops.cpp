// Normalisation ops: LayerNormalization, BatchNormalization (inference),
// InstanceNormalization, GroupNormalization, LpNormalization,
// MeanVarianceNormalization, LRN.
//
// All compute in float: float16/bfloat16/double tensors are converted to float
// around the kernel (statistics in float32, as onnxruntime does for fp16).
// Statistics use two passes (mean, then centred variance) for accuracy.
#include <algorithm>
#include <cmath>

#include "kernels/broadcast.h"
#include "kernels/channel_affine_half.h"
#include "kernels/elementwise_cast.h"
#include "kernels/elementwise_math.h"
#include "kernels/epilogue.h"
#include "kernels/gemm_tensor_io.h"
#include "kernels/isa_target.h"
#include "kernels/thread_scratch.h"

namespace acl_sim::kern {
namespace {

/** Mean and 1/sqrt(var + eps) of a contiguous row. */
struct RowStats {
  ACL_SIM_INLINE void operator()(const float* x, int64_t n, float eps, float* mean_out, float* inv_out) const {
    constexpr int kLanes = 16;
    float acc[kLanes] = {};
    int64_t i = 0;
    for (; i + kLanes <= n; i += kLanes)
      for (int j = 0; j < kLanes; ++j) acc[j] += x[i + j];
    float s = 0;
    for (int j = 0; j < kLanes; ++j) s += acc[j];
    for (; i < n; ++i) s += x[i];
    float mean = s / static_cast<float>(n);
    float sq[kLanes] = {};
    for (i = 0; i + kLanes <= n; i += kLanes)
      for (int j = 0; j < kLanes; ++j) {
        float d = x[i + j] - mean;
        sq[j] += d * d;
      }
    float v = 0;
    for (int j = 0; j < kLanes; ++j) v += sq[j];
    for (; i < n; ++i) v += (x[i] - mean) * (x[i] - mean);
    *mean_out = mean;
    *inv_out = 1.f / std::sqrt(v / static_cast<float>(n) + eps);
  }
};

/** y = (x - mean) * inv * scale[j] + bias[j] (bias may be null). */
struct RowNormalize {
  ACL_SIM_INLINE void operator()(const float* x, float* y, int64_t n, float mean, float inv, const float* scale,
                                 const float* bias) const {
    if (bias) {
      for (int64_t j = 0; j < n; ++j) y[j] = (x[j] - mean) * inv * scale[j] + bias[j];
    } else {
      for (int64_t j = 0; j < n; ++j) y[j] = (x[j] - mean) * inv * scale[j];
    }
  }
};

/** y = x * a + b. */
struct RowAffine {
  ACL_SIM_INLINE void operator()(const float* x, float* y, int64_t n, float a, float b) const {
    for (int64_t j = 0; j < n; ++j) y[j] = x[j] * a + b;
  }
};

/** y = max(x * a + b, 0): BatchNormalization with its Relu fused (pre-activation BN-ReLU-Conv). */
struct RowAffineRelu {
  ACL_SIM_INLINE void operator()(const float* x, float* y, int64_t n, float a, float b) const {
    for (int64_t j = 0; j < n; ++j) {
      float v = x[j] * a + b;
      y[j] = v > 0.f ? v : 0.f;
    }
  }
};

/** y = (x - mean) * a + b (centring first avoids cancellation when var ~ 0). */
struct RowCenterAffine {
  ACL_SIM_INLINE void operator()(const float* x, float* y, int64_t n, float mean, float a, float b) const {
    for (int64_t j = 0; j < n; ++j) y[j] = (x[j] - mean) * a + b;
  }
};

// This thread's grow-only staging (a steady-state model run allocates nothing): one buffer for X, one for Y,
// one for a parameter widened on its way into a vector.
thread_local Scratch<float> t_x_stage, t_y_stage, t_param_stage;

/** A tensor as float: the original buffer for float32, else a converted copy in `stage`. */
struct FloatBuf {
  const float* ptr = nullptr;
  FloatBuf(const OpContext& ctx, const TensorView& t, Scratch<float>& stage) {
    if (t.dtype == ACL_FLOAT) {
      ptr = static_cast<const float*>(t.data);
    } else {
      ACL_SIM_REQUIRE(is_float_dtype(t.dtype), ACL_ERROR_UNSUPPORTED_DATA_TYPE, ctx.op_type, ": unsupported dtype ",
                      dtype_name(t.dtype));
      float* dst = stage.get(static_cast<size_t>(t.numel()));
      cast_elements(ctx, t.data, t.dtype, dst, ACL_FLOAT, t.numel());
      ptr = dst;
    }
  }
};

/** Output written as float: direct for float32, else through this thread's Y staging, narrowed by finish(). */
struct FloatOut {
  TensorView* view;
  float* ptr;
  FloatOut(const OpContext& ctx, TensorView& t) : view(&t) {
    ACL_SIM_REQUIRE(is_float_dtype(t.dtype), ACL_ERROR_UNSUPPORTED_DATA_TYPE, ctx.op_type, ": unsupported dtype ",
                    dtype_name(t.dtype));
    ptr = t.dtype == ACL_FLOAT ? static_cast<float*>(t.data) : t_y_stage.get(static_cast<size_t>(t.numel()));
  }
  void finish(const OpContext& ctx) {
    if (view->dtype != ACL_FLOAT) cast_elements(ctx, ptr, ACL_FLOAT, view->data, view->dtype, view->numel());
  }
};

/** A per-feature parameter expanded to `n` floats: exact size, or broadcast to `shape` (LayerNorm). */
std::vector<float> param_as_floats(const OpContext& ctx, const TensorView& p, const std::vector<int64_t>& shape,
                                   const char* what) {
  FloatBuf f(ctx, p, t_param_stage);
  int64_t n = prod(shape);
  if (p.numel() == n) return std::vector<float>(f.ptr, f.ptr + n);
  std::vector<float> out(static_cast<size_t>(n));
  TensorView src{const_cast<float*>(f.ptr), ACL_FLOAT, p.shape};
  TensorView dst{out.data(), ACL_FLOAT, shape};
  broadcast_copy(ctx, src, dst);
  return out;
}

void run_layer_norm(OpContext& ctx) {
  require_io(ctx, 2, 1);
  const TensorView& x = input(ctx, 0);
  TensorView& y = output(ctx, 0);
  require_shape(ctx, y, x.shape, "output Y");
  const Attrs& at = attrs_of(ctx);
  const int64_t rank = static_cast<int64_t>(x.shape.size());
  int64_t axis = normalize_axis(ctx, at.get_int("axis", -1), rank);
  float eps = static_cast<float>(at.get_float("epsilon", 1e-5));
  std::vector<int64_t> norm_shape(x.shape.begin() + axis, x.shape.end());
  int64_t rows = prod(x.shape, 0, static_cast<size_t>(axis)), d = prod(norm_shape);
  std::vector<float> scale = param_as_floats(ctx, input(ctx, 1), norm_shape, "Scale");
  const TensorView* b = optional_input(ctx, 2);
  std::vector<float> bias = b ? param_as_floats(ctx, *b, norm_shape, "B") : std::vector<float>();
  FloatBuf xf(ctx, x, t_x_stage);
  FloatOut yf(ctx, y);
  // Optional Mean / InvStdDev outputs (shape X.shape[:axis] + [1]*).
  std::vector<float> means(static_cast<size_t>(rows)), invs(static_cast<size_t>(rows));
  if (d > 0) {
    parallel_blocks(rows, rows_grain(d), [&](int64_t r0, int64_t r1) {
      for (int64_t r = r0; r < r1; ++r) {
        const float* xr = xf.ptr + r * d;
        isa_call(RowStats{}, xr, d, eps, &means[r], &invs[r]);
        isa_call(RowNormalize{}, xr, yf.ptr + r * d, d, means[r], invs[r], scale.data(),
                 bias.empty() ? static_cast<const float*>(nullptr) : bias.data());
      }
    });
  }
  yf.finish(ctx);
  for (size_t k = 1; k <= 2 && k < ctx.outputs.size(); ++k) {
    TensorView& o = ctx.outputs[k];
    if (!o.present()) continue;
    ACL_SIM_REQUIRE(o.numel() == rows, ACL_ERROR_OP_OUTPUT_NOT_MATCH, "LayerNormalization: output ", k, " has ",
                    o.numel(), " elements, expected ", rows);
    std::vector<float>& src = k == 1 ? means : invs;
    cast_elements(ctx, src.data(), ACL_FLOAT, o.data, o.dtype, rows);
  }
}

/** channel_affine over planes [first, last), x and y pointing at plane first's values. */
void channel_affine_planes(const float* x, float* y, int64_t first, int64_t last, int64_t c, int64_t s,
                           const std::vector<float>& a, const std::vector<float>& b, const Activation& act) {
  for (int64_t p = first; p < last; ++p) {
    const size_t ch = static_cast<size_t>(p % c);
    const float* xp = x + (p - first) * s;
    float* yp = y + (p - first) * s;
    if (act.plain_relu()) {
      isa_call(RowAffineRelu{}, xp, yp, s, a[ch], b[ch]);
      continue;
    }
    isa_call(RowAffine{}, xp, yp, s, a[ch], b[ch]);
    if (!act.none()) bias_activation(yp, static_cast<size_t>(s), 0.f, act);
  }
}

/** Applies y = act(x * a[c] + b[c]) over [N, C, S] planes; a fused activation (ATC's fuse_activation)
 *  runs on each plane while it is in cache, Relu inside the affine loop itself. */
void channel_affine(const float* x, float* y, int64_t n, int64_t c, int64_t s, const std::vector<float>& a,
                    const std::vector<float>& b, const Activation& act) {
  parallel_blocks(n * c, rows_grain(s), [&](int64_t p0, int64_t p1) {
    channel_affine_planes(x + p0 * s, y + p0 * s, p0, p1, c, s, a, b, act);
  });
}

void nc_dims(const OpContext& ctx, const TensorView& x, int64_t* n, int64_t* c, int64_t* s) {
  ACL_SIM_REQUIRE(x.shape.size() >= 2, ACL_ERROR_OP_INPUT_NOT_MATCH, ctx.op_type, ": input must be [N, C, ...], got ",
                  shape_str(x.shape));
  *n = x.shape[0];
  *c = x.shape[1];
  *s = prod(x.shape, 2);
}

std::vector<float> channel_param(const OpContext& ctx, size_t i, int64_t c, const char* what) {
  const TensorView& t = input(ctx, i);
  ACL_SIM_REQUIRE(t.numel() == c, ACL_ERROR_OP_INPUT_NOT_MATCH, ctx.op_type, ": ", what, " has ", t.numel(),
                  " elements, expected ", c);
  FloatBuf f(ctx, t, t_param_stage);
  return std::vector<float>(f.ptr, f.ptr + c);
}

void run_batch_norm(OpContext& ctx) {
  require_io(ctx, 5, 1);
  const Attrs& at = attrs_of(ctx);
  ACL_SIM_REQUIRE(at.get_int("training_mode", 0) == 0, ACL_ERROR_OP_ATTR_NOT_MATCH,
                  "BatchNormalization: training_mode=1 is not supported (inference only)");
  const TensorView& x = input(ctx, 0);
  TensorView& y = output(ctx, 0);
  require_shape(ctx, y, x.shape, "output Y");
  int64_t n, c, s;
  nc_dims(ctx, x, &n, &c, &s);
  float eps = static_cast<float>(at.get_float("epsilon", 1e-5));
  std::vector<float> scale = channel_param(ctx, 1, c, "scale"), bias = channel_param(ctx, 2, c, "B");
  std::vector<float> mean = channel_param(ctx, 3, c, "input_mean"), var = channel_param(ctx, 4, c, "input_var");
  std::vector<float> a(static_cast<size_t>(c)), b(static_cast<size_t>(c));
  for (size_t i = 0; i < a.size(); ++i) {
    a[i] = scale[i] / std::sqrt(var[i] + eps);
    b[i] = bias[i] - mean[i] * a[i];
  }
  const Activation act = activation_from_attrs(at);
  if (x.dtype == ACL_FLOAT16 && y.dtype == x.dtype && (act.none() || act.plain_relu()) &&
      channel_affine_half_available()) {
    const auto* xh = static_cast<const uint16_t*>(x.data);
    auto* yh = static_cast<uint16_t*>(y.data);
    for_each_plane_task(n * c, rows_grain(s), [&](int64_t first, int64_t last) {
      for (int64_t p = first; p < last; ++p) {
        const size_t ch = static_cast<size_t>(p % c);
        channel_affine_half(xh + p * s, yh + p * s, s, a[ch], b[ch], act.plain_relu());
      }
    });
    return;
  }
  if (x.dtype != ACL_FLOAT && is_staged_float_dtype(x.dtype) && y.dtype == x.dtype) {
    // fp16 / bf16 planes widened and narrowed a few at a time by the tasks themselves: an fp16 model's BN
    // (force_fp16, densenet's pre-activation BN-ReLU) took 11x its fp32 time through whole-tensor copies.
    for_each_plane_range(ctx, n * c, rows_grain(s), s, s, [&](const float* xs, float* ys, int64_t first, int64_t last) {
      channel_affine_planes(xs, ys, first, last, c, s, a, b, act);
    });
    return;
  }
  FloatBuf xf(ctx, x, t_x_stage);
  FloatOut yf(ctx, y);
  channel_affine(xf.ptr, yf.ptr, n, c, s, a, b, act);
  yf.finish(ctx);
}

// Instance and group normalisation: statistics per (n, group) over `group_channels * S` contiguous values,
// then a per-channel affine (scale/bias per channel, or per group for GroupNormalization-18 style params).
void group_norm(OpContext& ctx, int64_t groups, const std::vector<float>& scale, const std::vector<float>& bias,
                bool per_group_params, float eps) {
  const TensorView& x = input(ctx, 0);
  TensorView& y = output(ctx, 0);
  require_shape(ctx, y, x.shape, "output Y");
  int64_t n, c, s;
  nc_dims(ctx, x, &n, &c, &s);
  ACL_SIM_REQUIRE(groups > 0 && c % groups == 0, ACL_ERROR_OP_ATTR_NOT_MATCH, ctx.op_type, ": ", c,
                  " channels do not split into ", groups, " groups");
  int64_t cg = c / groups, len = cg * s;
  FloatBuf xf(ctx, x, t_x_stage);
  FloatOut yf(ctx, y);
  if (len > 0) {
    parallel_blocks(n * groups, rows_grain(len), [&](int64_t g0, int64_t g1) {
      for (int64_t g = g0; g < g1; ++g) {
        const float* xg = xf.ptr + g * len;
        float mean, inv;
        isa_call(RowStats{}, xg, len, eps, &mean, &inv);
        int64_t grp = g % groups;
        for (int64_t k = 0; k < cg; ++k) {
          size_t p = static_cast<size_t>(per_group_params ? grp : grp * cg + k);
          isa_call(RowCenterAffine{}, xg + k * s, yf.ptr + g * len + k * s, s, mean, scale[p] * inv, bias[p]);
        }
      }
    });
  }
  yf.finish(ctx);
}

void run_instance_norm(OpContext& ctx) {
  require_io(ctx, 3, 1);
  int64_t n, c, s;
  nc_dims(ctx, input(ctx, 0), &n, &c, &s);
  float eps = static_cast<float>(attrs_of(ctx).get_float("epsilon", 1e-5));
  group_norm(ctx, c, channel_param(ctx, 1, c, "scale"), channel_param(ctx, 2, c, "B"), false, eps);
}

void run_group_norm(OpContext& ctx) {
  require_io(ctx, 3, 1);
  int64_t n, c, s;
  nc_dims(ctx, input(ctx, 0), &n, &c, &s);
  const Attrs& at = attrs_of(ctx);
  int64_t groups = at.get_int("num_groups", 0);
  float eps = static_cast<float>(at.get_float("epsilon", 1e-5));
  // Opset 21 takes per-channel scale/bias; opset 18 took per-group ones.
  int64_t pn = input(ctx, 1).numel();
  bool per_group = pn == groups && pn != c;
  int64_t want = per_group ? groups : c;
  group_norm(ctx, groups, channel_param(ctx, 1, want, "scale"), channel_param(ctx, 2, want, "bias"), per_group, eps);
}

// MeanVarianceNormalization: (x - mean) / sqrt(var) over `axes` (default [0, 2, 3]), eps 1e-9 as onnxruntime.
void run_mvn(OpContext& ctx) {
  require_io(ctx, 1, 1);
  const TensorView& x = input(ctx, 0);
  TensorView& y = output(ctx, 0);
  require_shape(ctx, y, x.shape, "output Y");
  const int64_t rank = static_cast<int64_t>(x.shape.size());
  std::vector<int64_t> axes = attrs_of(ctx).get_ints("axes", {0, 2, 3});
  std::vector<bool> red(static_cast<size_t>(rank), false);
  for (int64_t a : axes) red[static_cast<size_t>(normalize_axis(ctx, a, rank))] = true;
  // Transpose-free gather: visit every element, grouping by the kept coordinates.
  std::vector<int64_t> strides(static_cast<size_t>(rank), 1);
  for (int64_t d = rank - 2; d >= 0; --d) strides[d] = strides[d + 1] * x.shape[d + 1];
  int64_t total = x.numel(), groups = 1;
  for (int64_t d = 0; d < rank; ++d)
    if (!red[d]) groups *= x.shape[d];
  if (total == 0) return;
  FloatBuf xf(ctx, x, t_x_stage);
  FloatOut yf(ctx, y);
  std::vector<int64_t> group_of(static_cast<size_t>(total));
  for (int64_t i = 0; i < total; ++i) {
    int64_t g = 0;
    for (int64_t d = 0; d < rank; ++d)
      if (!red[d]) g = g * x.shape[d] + (i / strides[d]) % x.shape[d];
    group_of[i] = g;
  }
  std::vector<double> sum(static_cast<size_t>(groups)), sq(static_cast<size_t>(groups));
  std::vector<int64_t> cnt(static_cast<size_t>(groups));
  for (int64_t i = 0; i < total; ++i) sum[group_of[i]] += xf.ptr[i], cnt[group_of[i]]++;
  for (int64_t g = 0; g < groups; ++g) sum[g] /= static_cast<double>(cnt[g]);
  for (int64_t i = 0; i < total; ++i) {
    double dlt = xf.ptr[i] - sum[group_of[i]];
    sq[group_of[i]] += dlt * dlt;
  }
  for (int64_t i = 0; i < total; ++i) {
    int64_t g = group_of[i];
    yf.ptr[i] = static_cast<float>((xf.ptr[i] - sum[g]) / (std::sqrt(sq[g] / static_cast<double>(cnt[g])) + 1e-9));
  }
  yf.finish(ctx);
}

// LpNormalization: x / ||x||_p along axis (p = 1 or 2).
void run_lp_norm(OpContext& ctx) {
  require_io(ctx, 1, 1);
  const TensorView& x = input(ctx, 0);
  TensorView& y = output(ctx, 0);
  require_shape(ctx, y, x.shape, "output");
  const Attrs& at = attrs_of(ctx);
  const int64_t rank = static_cast<int64_t>(x.shape.size());
  int64_t axis = normalize_axis(ctx, at.get_int("axis", -1), rank);
  int64_t p = at.get_int("p", 2);
  ACL_SIM_REQUIRE(p == 1 || p == 2, ACL_ERROR_OP_ATTR_NOT_MATCH, "LpNormalization: p must be 1 or 2, got ", p);
  int64_t outer = prod(x.shape, 0, axis), k = x.shape.empty() ? 1 : x.shape[axis], inner = prod(x.shape, axis + 1);
  FloatBuf xf(ctx, x, t_x_stage);
  FloatOut yf(ctx, y);
  parallel_blocks(outer * inner, rows_grain(k), [&](int64_t b, int64_t e) {
    for (int64_t u = b; u < e; ++u) {
      int64_t o = u / inner, j = u % inner;
      const float* xs = xf.ptr + o * k * inner + j;
      float* ys = yf.ptr + o * k * inner + j;
      double norm = 0;
      for (int64_t i = 0; i < k; ++i) norm += p == 1 ? std::fabs(xs[i * inner]) : xs[i * inner] * xs[i * inner];
      if (p == 2) norm = std::sqrt(norm);
      for (int64_t i = 0; i < k; ++i) ys[i * inner] = norm == 0 ? 0.f : static_cast<float>(xs[i * inner] / norm);
    }
  });
  yf.finish(ctx);
}

// LRN (AlexNet / GoogLeNet): y = x / (bias + alpha / size * sum of x^2 over a window of `size`
// channels centred on c: [c - floor((size-1)/2), c + ceil((size-1)/2)])^beta.

/** How an LRN row raises its denominator to beta (vectorisable forms; kPow is libm's pow, per element). */
enum class LrnPower { kThreeQuarters, kHalf, kOne, kExpLog, kPow };

/**
 * One channel of an LRN tile: y[j] = x[j] / (bias + alpha * sq[j])^beta, sq[j] being the window's sum of squares
 * (rows `s` floats apart from xw). t^0.75 is sqrt(t) * sqrt(sqrt(t)) and a general beta exp(beta * log t), so the
 * loop vectorises; libm's pow per element made the LRN of inception_v1 19% of its time (4.9 ms for two nodes).
 */
template <LrnPower kPower>
struct LrnRow {
  ACL_SIM_INLINE void operator()(const float* xw, int64_t rows, int64_t s, const float* x, float* y, int64_t m,
                                 float alpha, float bias, float beta, float* sq) const {
    for (int64_t j = 0; j < m; ++j) sq[j] = 0.f;
    for (int64_t k = 0; k < rows; ++k)
      for (int64_t j = 0; j < m; ++j) sq[j] += xw[k * s + j] * xw[k * s + j];
    for (int64_t j = 0; j < m; ++j) {
      const float t = bias + alpha * sq[j];
      // The builtin, not std::sqrt: GCC keeps std::sqrt(float) out of line in these target("avx2") bodies.
      if constexpr (kPower == LrnPower::kThreeQuarters) {
        const float r = __builtin_sqrtf(t);
        y[j] = x[j] / (r * __builtin_sqrtf(r));
      } else if constexpr (kPower == LrnPower::kHalf) {
        y[j] = x[j] / __builtin_sqrtf(t);
      } else if constexpr (kPower == LrnPower::kOne) {
        y[j] = x[j] / t;
      } else if constexpr (kPower == LrnPower::kExpLog) {
        y[j] = x[j] * vexp(-beta * vlog(t));
      } else {
        y[j] = x[j] / std::pow(t, beta);
      }
    }
  }
};

void run_lrn(OpContext& ctx) {
  require_io(ctx, 1, 1);
  const TensorView& x = input(ctx, 0);
  TensorView& y = output(ctx, 0);
  require_shape(ctx, y, x.shape, "output");
  int64_t n, c, s;
  nc_dims(ctx, x, &n, &c, &s);
  const Attrs& at = attrs_of(ctx);
  int64_t size = at.get_int("size", 0);
  ACL_SIM_REQUIRE(size > 0, ACL_ERROR_OP_ATTR_NOT_MATCH, "LRN: size must be > 0, got ", size);
  float alpha = static_cast<float>(at.get_float("alpha", 1e-4)) / static_cast<float>(size);
  float beta = static_cast<float>(at.get_float("beta", 0.75));
  float bias = static_cast<float>(at.get_float("bias", 1.0));
  const int64_t before = (size - 1) / 2, after = size - 1 - before;
  // The closed forms need t = bias + alpha * sq > 0, which bias > 0 and alpha >= 0 guarantee (an overflowing
  // sum gives t = inf and y = 0, as pow does); any other attributes keep libm's pow.
  const bool positive = bias > 0.f && alpha >= 0.f;
  const LrnPower power = !positive     ? LrnPower::kPow
                         : beta == 0.75f ? LrnPower::kThreeQuarters
                         : beta == 0.5f  ? LrnPower::kHalf
                         : beta == 1.f   ? LrnPower::kOne
                                         : LrnPower::kExpLog;
  FloatBuf xf(ctx, x, t_x_stage);
  FloatOut yf(ctx, y);
  if (xf.ptr == yf.ptr) {
    // In place: each output channel reads its neighbours, so keep a copy of the input.
    float* copy = t_x_stage.get(static_cast<size_t>(x.numel()));
    std::copy(xf.ptr, xf.ptr + x.numel(), copy);
    xf.ptr = copy;
  }
  // One (n, spatial tile) per block; per channel the window's sum of squares over the tile's positions.
  constexpr int64_t kTile = 256;
  const int64_t tiles = (s + kTile - 1) / kTile;
  parallel_blocks(n * tiles, std::max<int64_t>(1, kBlockElems / std::max<int64_t>(c * kTile, 1)), [&](int64_t b, int64_t e) {
    float sq[kTile];
    for (int64_t u = b; u < e; ++u) {
      int64_t img = u / tiles, s0 = (u % tiles) * kTile, m = std::min(kTile, s - s0);
      const float* xi = xf.ptr + img * c * s + s0;
      float* yi = yf.ptr + img * c * s + s0;
      for (int64_t ch = 0; ch < c; ++ch) {
        int64_t lo = std::max<int64_t>(0, ch - before), hi = std::min<int64_t>(c - 1, ch + after);
        const float* xw = xi + lo * s;
        const int64_t rows = hi - lo + 1;
        const float* xc = xi + ch * s;
        float* yc = yi + ch * s;
        auto row = [&](auto kernel) { isa_call(kernel, xw, rows, s, xc, yc, m, alpha, bias, beta, sq); };
        switch (power) {
          case LrnPower::kThreeQuarters: row(LrnRow<LrnPower::kThreeQuarters>{}); break;
          case LrnPower::kHalf: row(LrnRow<LrnPower::kHalf>{}); break;
          case LrnPower::kOne: row(LrnRow<LrnPower::kOne>{}); break;
          case LrnPower::kExpLog: row(LrnRow<LrnPower::kExpLog>{}); break;
          case LrnPower::kPow: row(LrnRow<LrnPower::kPow>{}); break;
        }
      }
    }
  });
  yf.finish(ctx);
}

}  // namespace

ACL_SIM_REGISTER_OP(LRN, run_lrn);
ACL_SIM_REGISTER_OP(LayerNormalization, run_layer_norm);
ACL_SIM_REGISTER_OP(BatchNormalization, run_batch_norm);
ACL_SIM_REGISTER_OP(InstanceNormalization, run_instance_norm);
ACL_SIM_REGISTER_OP(GroupNormalization, run_group_norm);
ACL_SIM_REGISTER_OP(MeanVarianceNormalization, run_mvn);
ACL_SIM_REGISTER_OP(LpNormalization, run_lp_norm);

}  // namespace acl_sim::kern
