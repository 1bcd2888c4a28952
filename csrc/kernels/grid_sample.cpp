// GridSample (opsets 16-22: nearest / linear / cubic; zeros / border / reflection padding;
// 2-D and 3-D) and AffineGrid (opset 20), with ONNX's (and onnxruntime's) coordinate rules.
//
// GridSample is separable like Resize: for one output location we build each spatial axis'
// taps (source index, weight) from the grid coordinate -- 1 for nearest, 2 for linear, 4 for
// cubic, with the padding mode folded in (zeros: weight 0, border: clamped index, reflection:
// reflected index) -- and the outer product of the axes' taps gives a small list of (offset,
// weight) pairs. Those are shared by every channel, so the channel loop is a gather-and-FMA
// over fixed offsets. Work is split over output locations.
#include <array>
#include <cmath>

#include "kernels/elementwise_common.h"

namespace acl_sim::kern {
namespace {

enum class GsMode { Nearest, Linear, Cubic };
enum class GsPad { Zeros, Border, Reflection };

struct GsParams {
  GsMode mode = GsMode::Linear;
  GsPad pad = GsPad::Zeros;
  bool align = false;
};

GsParams gs_params(const OpContext& ctx) {
  const Attrs& a = attrs_of(ctx);
  GsParams p;
  std::string mode = a.get_string("mode", "linear");  // opset 16 spells bilinear / bicubic
  if (mode == "nearest") p.mode = GsMode::Nearest;
  else if (mode == "linear" || mode == "bilinear") p.mode = GsMode::Linear;
  else if (mode == "cubic" || mode == "bicubic") p.mode = GsMode::Cubic;
  else fail(ACL_ERROR_OP_ATTR_NOT_MATCH, ctx.op_type, ": unknown mode '", mode, "'");
  std::string pad = a.get_string("padding_mode", "zeros");
  if (pad == "zeros") p.pad = GsPad::Zeros;
  else if (pad == "border") p.pad = GsPad::Border;
  else if (pad == "reflection") p.pad = GsPad::Reflection;
  else fail(ACL_ERROR_OP_ATTR_NOT_MATCH, ctx.op_type, ": unknown padding_mode '", pad, "'");
  p.align = a.get_int("align_corners", 0) != 0;
  return p;
}

// Reflect x into [lo, hi] by bouncing off the nearer border.
double reflect(double x, double lo, double hi) {
  double range = hi - lo;
  if (range <= 0) return lo;
  if (x < lo) {
    double dx = lo - x;
    auto n = static_cast<int64_t>(dx / range);
    double r = dx - static_cast<double>(n) * range;
    return n % 2 == 0 ? lo + r : hi - r;
  }
  if (x > hi) {
    double dx = x - hi;
    auto n = static_cast<int64_t>(dx / range);
    double r = dx - static_cast<double>(n) * range;
    return n % 2 == 0 ? hi - r : lo + r;
  }
  return x;
}

void cubic_coeffs(double t, double c[4]) {
  constexpr double A = -0.75;
  double x = std::fabs(t);
  c[0] = ((A * (x + 1) - 5 * A) * (x + 1) + 8 * A) * (x + 1) - 4 * A;
  c[1] = ((A + 2) * x - (A + 3)) * x * x + 1;
  c[2] = ((A + 2) * (1 - x) - (A + 3)) * (1 - x) * (1 - x) + 1;
  c[3] = ((A * (2 - x) - 5 * A) * (2 - x) + 8 * A) * (2 - x) - 4 * A;
}

struct Tap1 {
  int64_t index;
  double weight;
};

// The taps of one axis of extent `dim` for the normalised coordinate g in [-1, 1].
int axis_taps(const GsParams& p, double g, int64_t dim, Tap1 out[4]) {
  double lo = p.align ? 0.0 : -0.5, hi = p.align ? dim - 1.0 : dim - 0.5;
  double x = p.align ? (g + 1) / 2.0 * (dim - 1) : ((g + 1) * dim - 1) / 2.0;
  if (p.mode == GsMode::Nearest) x = std::nearbyint(x);  // half to even, as PyTorch
  if (x < lo || x > hi) {
    if (p.pad == GsPad::Border) x = std::min(std::max(x, 0.0), dim - 1.0);
    else if (p.pad == GsPad::Reflection) x = reflect(x, lo, hi);
  }
  auto place = [&](int64_t i, double w) -> Tap1 {
    if (i >= 0 && i < dim) return {i, w};
    if (p.pad == GsPad::Zeros) return {0, 0.0};
    if (p.pad == GsPad::Border) return {std::min<int64_t>(std::max<int64_t>(i, 0), dim - 1), w};
    auto r = static_cast<int64_t>(reflect(static_cast<double>(i), lo, hi));
    return {std::min<int64_t>(std::max<int64_t>(r, 0), dim - 1), w};
  };
  if (p.mode == GsMode::Nearest) {
    out[0] = place(static_cast<int64_t>(x), 1.0);
    return 1;
  }
  double f = std::floor(x);
  auto i0 = static_cast<int64_t>(f);
  double t = x - f;
  if (p.mode == GsMode::Linear) {
    out[0] = place(i0, 1 - t);
    out[1] = place(i0 + 1, t);
    return 2;
  }
  double c[4];
  cubic_coeffs(t, c);
  for (int k = 0; k < 4; ++k) out[k] = place(i0 - 1 + k, c[k]);
  return 4;
}

template <class T>
void grid_sample_typed(const GsParams& p, const TensorView& x, const TensorView& grid, TensorView& y) {
  const size_t r = x.shape.size() - 2;  // spatial rank: 2 or 3
  const int64_t n_batch = x.shape[0], channels = x.shape[1];
  std::vector<int64_t> in_dims(x.shape.begin() + 2, x.shape.end());
  int64_t in_plane = prod(in_dims);
  int64_t out_plane = prod(y.shape, 2);
  std::array<int64_t, 3> in_stride{};
  {
    int64_t s = 1;
    for (size_t k = r; k-- > 0;) {
      in_stride[k] = s;
      s *= in_dims[k];
    }
  }
  const T* xp = static_cast<const T*>(x.data);
  const T* gp = static_cast<const T*>(grid.data);
  T* yp = static_cast<T*>(y.data);
  const int64_t total = n_batch * out_plane;
  parallel_blocks(total, rows_grain(channels * 16), [&](int64_t b, int64_t e) {
    std::vector<int64_t> offs;
    std::vector<double> wts;
    for (int64_t idx = b; idx < e; ++idx) {
      int64_t n = idx / out_plane, pos = idx % out_plane;
      const T* g = gp + idx * static_cast<int64_t>(r);
      // grid's last axis lists x (innermost spatial axis) first.
      Tap1 taps[3][4];
      int counts[3];
      for (size_t k = 0; k < r; ++k) {
        double gk = load_as_double(g + (r - 1 - k));
        counts[k] = axis_taps(p, gk, in_dims[k], taps[k]);
      }
      offs.assign(1, 0);
      wts.assign(1, 1.0);
      for (size_t k = 0; k < r; ++k) {
        std::vector<int64_t> no;
        std::vector<double> nw;
        for (size_t a = 0; a < offs.size(); ++a)
          for (int t = 0; t < counts[k]; ++t) {
            if (taps[k][t].weight == 0.0) continue;
            no.push_back(offs[a] + taps[k][t].index * in_stride[k]);
            nw.push_back(wts[a] * taps[k][t].weight);
          }
        offs.swap(no);
        wts.swap(nw);
      }
      const T* xn = xp + n * channels * in_plane;
      T* yn = yp + n * channels * out_plane + pos;
      for (int64_t c = 0; c < channels; ++c) {
        const T* xc = xn + c * in_plane;
        double acc = 0;
        for (size_t t = 0; t < offs.size(); ++t) acc += wts[t] * load_as_double(xc + offs[t]);
        store_from_double(yn + c * out_plane, acc);
      }
    }
  });
}

void run_grid_sample(OpContext& ctx) {
  require_io(ctx, 2, 1);
  const TensorView& x = input(ctx, 0);
  const TensorView& grid = input(ctx, 1);
  TensorView& y = output(ctx, 0);
  const size_t rank = x.shape.size();
  ACL_SIM_REQUIRE(rank == 4 || rank == 5, ACL_ERROR_OP_INPUT_NOT_MATCH, ctx.op_type,
                  ": X must be 4-D or 5-D (N, C, spatial...), got ", shape_str(x.shape));
  ACL_SIM_REQUIRE(grid.shape.size() == rank && grid.shape[0] == x.shape[0] &&
                      grid.shape[rank - 1] == static_cast<int64_t>(rank - 2),
                  ACL_ERROR_OP_INPUT_NOT_MATCH, ctx.op_type, ": grid ", shape_str(grid.shape),
                  " does not match X ", shape_str(x.shape), " (expected N, out spatial..., ", rank - 2, ")");
  ACL_SIM_REQUIRE(is_float_dtype(x.dtype) && is_float_dtype(grid.dtype), ACL_ERROR_UNSUPPORTED_DATA_TYPE,
                  ctx.op_type, ": X and grid must be float tensors (got ", dtype_name(x.dtype), ", ",
                  dtype_name(grid.dtype), ")");
  ACL_SIM_REQUIRE(grid.dtype == x.dtype, ACL_ERROR_OP_INPUT_NOT_MATCH, ctx.op_type,
                  ": grid dtype must match X");
  require_same_dtype(ctx, x, y, "input and output");
  std::vector<int64_t> expect{x.shape[0], x.shape[1]};
  expect.insert(expect.end(), grid.shape.begin() + 1, grid.shape.end() - 1);
  require_shape(ctx, y, expect, "output");
  GsParams p = gs_params(ctx);
  ACL_SIM_REQUIRE(!(p.mode == GsMode::Cubic && rank == 5), ACL_ERROR_OP_ATTR_NOT_MATCH, ctx.op_type,
                  ": cubic mode is defined for 2-D inputs only");
  for (size_t k = 2; k < rank; ++k)
    ACL_SIM_REQUIRE(x.shape[k] > 0, ACL_ERROR_OP_INPUT_NOT_MATCH, ctx.op_type, ": empty spatial axis in X ",
                    shape_str(x.shape));
  if (y.numel() == 0) return;
  dispatch_dtype(x.dtype, ctx.op_type, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_integral_v<T>) fail(ACL_ERROR_UNSUPPORTED_DATA_TYPE, ctx.op_type, ": float only");
    else grid_sample_typed<T>(p, x, grid, y);
  });
}

// AffineGrid(theta [N, r, r+1], size [N, C, spatial...]) -> grid [N, spatial..., r]: the
// normalised base coordinates of each output location, transformed by theta.
void run_affine_grid(OpContext& ctx) {
  require_io(ctx, 2, 1);
  const TensorView& theta = input(ctx, 0);
  TensorView& y = output(ctx, 0);
  std::vector<int64_t> size = tensor_as_ints(input(ctx, 1), ctx.op_type, "size");
  ACL_SIM_REQUIRE(size.size() == 4 || size.size() == 5, ACL_ERROR_OP_INPUT_NOT_MATCH, ctx.op_type,
                  ": size must have 4 or 5 entries");
  const int64_t r = static_cast<int64_t>(size.size()) - 2;
  ACL_SIM_REQUIRE(theta.shape == std::vector<int64_t>({size[0], r, r + 1}), ACL_ERROR_OP_INPUT_NOT_MATCH,
                  ctx.op_type, ": theta ", shape_str(theta.shape), " does not match size (expected [", size[0],
                  ",", r, ",", r + 1, "])");
  ACL_SIM_REQUIRE(is_float_dtype(theta.dtype), ACL_ERROR_UNSUPPORTED_DATA_TYPE, ctx.op_type,
                  ": theta must be a float tensor");
  require_same_dtype(ctx, theta, y, "theta and output");
  std::vector<int64_t> expect{size[0]};
  expect.insert(expect.end(), size.begin() + 2, size.end());
  expect.push_back(r);
  require_shape(ctx, y, expect, "output");
  bool align = attrs_of(ctx).get_int("align_corners", 0) != 0;
  // Spatial sizes innermost first: the base coordinate vector is (x, y[, z], 1).
  std::vector<int64_t> dims(size.begin() + 2, size.end());
  int64_t plane = prod(dims);
  auto base = [&](int64_t i, int64_t d) {
    if (d <= 1) return 0.0;
    double step = 2.0 / static_cast<double>(d);
    return align ? -1.0 + 2.0 * static_cast<double>(i) / static_cast<double>(d - 1)
                 : -1.0 + step / 2 + step * static_cast<double>(i);
  };
  dispatch_dtype(theta.dtype, ctx.op_type, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_integral_v<T>) {
      fail(ACL_ERROR_UNSUPPORTED_DATA_TYPE, ctx.op_type, ": float only");
    } else {
      const T* tp = static_cast<const T*>(theta.data);
      T* yp = static_cast<T*>(y.data);
      parallel_blocks(size[0] * plane, rows_grain(r * (r + 1)), [&](int64_t b, int64_t e) {
        for (int64_t idx = b; idx < e; ++idx) {
          int64_t n = idx / plane, pos = idx % plane;
          double coord[4];  // x, y, (z), 1
          int64_t rest = pos;
          for (int64_t k = r; k-- > 0;) {  // dims[k] for k = r-1 is the innermost (x)
            int64_t i = rest % dims[k];
            rest /= dims[k];
            coord[r - 1 - k] = base(i, dims[k]);
          }
          coord[r] = 1.0;
          const T* th = tp + n * r * (r + 1);
          T* out = yp + idx * r;
          for (int64_t row = 0; row < r; ++row) {
            double acc = 0;
            for (int64_t c = 0; c <= r; ++c) acc += load_as_double(th + row * (r + 1) + c) * coord[c];
            store_from_double(out + row, acc);
          }
        }
      });
    }
  });
}

}  // namespace

ACL_SIM_REGISTER_OP(GridSample, run_grid_sample);
ACL_SIM_REGISTER_OP(AffineGrid, run_affine_grid);

}  // namespace acl_sim::kern
