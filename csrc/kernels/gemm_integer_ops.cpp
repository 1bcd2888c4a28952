// MatMulInteger and ConvInteger (opset 10): 8-bit operands (int8 / uint8) minus their zero
// points, multiplied with exact int32 accumulation into an int32 output.
//  - MatMulInteger(A, B, a_zero_point, b_zero_point): MatMul's N-D broadcasting; a_zero_point is
//    a scalar or one value per row of A, b_zero_point a scalar or one per column of B.
//  - ConvInteger(x, w, x_zero_point, w_zero_point): Conv's attributes (1-3 spatial axes, group,
//    strides, dilations, pads / auto_pad); padding reads the zero point (contributes 0);
//    w_zero_point is a scalar or one value per output channel.
// The shifted operands are widened to int32 once; the products run on the blocked int32 GEMM
// (gemm_wide.h); ConvInteger builds an explicit column matrix per (image, group).
#include <vector>

#include "kernels/conv_geometry.h"
#include "kernels/elementwise_common.h"
#include "kernels/gemm_batch.h"
#include "kernels/gemm_wide.h"

namespace acl_sim::kern {
namespace {

bool is_8bit(int dt) { return dt == ACL_INT8 || dt == ACL_UINT8; }

/** t - zero_point as int32; zero_point is a scalar (group = numel) or one value per `group` consecutive elements. */
std::vector<int32_t> shifted(const OpContext& ctx, const TensorView& t, const TensorView* zp, const char* what,
                             int64_t per, bool per_column, int64_t cols) {
  ACL_SIM_REQUIRE(is_8bit(t.dtype), ACL_ERROR_UNSUPPORTED_DATA_TYPE, ctx.op_type, ": ", what,
                  " must be int8 or uint8, got ", dtype_name(t.dtype));
  std::vector<int32_t> z{0};
  if (zp) {
    ACL_SIM_REQUIRE(zp->dtype == t.dtype, ACL_ERROR_OP_INPUT_NOT_MATCH, ctx.op_type, ": the zero point of ", what,
                    " must have its dtype ", dtype_name(t.dtype));
    z.resize(static_cast<size_t>(zp->numel()));
    for (size_t i = 0; i < z.size(); ++i) z[i] = static_cast<int32_t>(scalar_as_int(*zp, static_cast<int64_t>(i)));
  }
  const int64_t n = t.numel();
  const int64_t groups = per > 0 ? n / per : 0;
  ACL_SIM_REQUIRE(z.size() == 1 || static_cast<int64_t>(z.size()) == groups, ACL_ERROR_OP_INPUT_NOT_MATCH,
                  ctx.op_type, ": the zero point of ", what, " has ", z.size(), " values, expected 1 or ", groups);
  std::vector<int32_t> out(static_cast<size_t>(n));
  dispatch_dtype(t.dtype, ctx.op_type, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t>) {
      const T* s = static_cast<const T*>(t.data);
      parallel_blocks(n, kBlockElems, [&](int64_t b, int64_t e) {
        if (z.size() == 1) {
          const int32_t z0 = z[0];
          for (int64_t i = b; i < e; ++i) out[static_cast<size_t>(i)] = static_cast<int32_t>(s[i]) - z0;
        } else if (per_column) {  // one zero point per column of each [K, cols] matrix
          for (int64_t i = b; i < e; ++i) {
            const int64_t zi = (i / (per * cols)) * cols + i % cols;
            out[static_cast<size_t>(i)] = static_cast<int32_t>(s[i]) - z[static_cast<size_t>(zi)];
          }
        } else {
          for (int64_t i = b; i < e; ++i)
            out[static_cast<size_t>(i)] = static_cast<int32_t>(s[i]) - z[static_cast<size_t>(i / per)];
        }
      });
    }
  });
  return out;
}

void run_matmul_integer(OpContext& ctx) {
  require_io(ctx, 2, 1);
  const TensorView& ta = input(ctx, 0);
  const TensorView& tb = input(ctx, 1);
  TensorView& y = output(ctx, 0);
  ACL_SIM_REQUIRE(y.dtype == ACL_INT32, ACL_ERROR_OP_OUTPUT_NOT_MATCH, ctx.op_type, ": Y must be int32");
  const MatMulBatch p = plan_matmul(ctx.op_type, ta.shape, tb.shape);
  require_shape(ctx, y, p.out_shape, "Y");
  // a_zero_point: one per row of A (groups of K elements); b_zero_point: one per column of B.
  const std::vector<int32_t> a = shifted(ctx, ta, optional_input(ctx, 2), "A", p.K, false, 0);
  const std::vector<int32_t> b = shifted(ctx, tb, optional_input(ctx, 3), "B", p.K, true, p.N);
  auto* out = static_cast<int32_t*>(y.data);
  const int64_t M = p.M, N = p.N, K = p.K;
  if (p.batch_count * M * N == 0) return;
  if (p.folds_into_m()) return gemm_i32(p.batch_count * M, N, K, a.data(), K, b.data(), N, out, N);
  ThreadPool::instance().parallel_for(static_cast<size_t>(p.batch_count), [&](size_t bi) {
    gemm_i32(M, N, K, a.data() + p.a_off[bi], K, b.data() + p.b_off[bi], N, out + static_cast<int64_t>(bi) * M * N,
             N, false);
  });
}

void run_conv_integer(OpContext& ctx) {
  require_io(ctx, 2, 1);
  const TensorView& tx = input(ctx, 0);
  const TensorView& tw = input(ctx, 1);
  TensorView& ty = output(ctx, 0);
  const Attrs& at = attrs_of(ctx);
  ACL_SIM_REQUIRE(ty.dtype == ACL_INT32, ACL_ERROR_OP_OUTPUT_NOT_MATCH, ctx.op_type, ": y must be int32");
  ACL_SIM_REQUIRE(tx.shape.size() >= 3 && tx.shape.size() <= 5 && tw.shape.size() == tx.shape.size(),
                  ACL_ERROR_OP_INPUT_NOT_MATCH, ctx.op_type,
                  ": x must be [N, C, spatial...] with 1-3 spatial axes and w of the same rank, got ",
                  shape_str(tx.shape), " and ", shape_str(tw.shape));
  const int64_t N = tx.shape[0], C = tx.shape[1], M = tw.shape[0], group = at.get_int("group", 1);
  ACL_SIM_REQUIRE(group >= 1 && C % group == 0 && M % group == 0 && tw.shape[1] * group == C,
                  ACL_ERROR_OP_INPUT_NOT_MATCH, ctx.op_type, ": x ", shape_str(tx.shape), ", w ", shape_str(tw.shape),
                  " and group ", group, " are inconsistent");
  SpatialGeometry g;
  g.nsp = static_cast<int>(tx.shape.size()) - 2;
  g.in.assign(tx.shape.begin() + 2, tx.shape.end());
  g.kernel.assign(tw.shape.begin() + 2, tw.shape.end());
  if (at.has("kernel_shape"))
    ACL_SIM_REQUIRE(at.get_ints("kernel_shape") == g.kernel, ACL_ERROR_OP_ATTR_NOT_MATCH, ctx.op_type,
                    ": kernel_shape differs from w's ", shape_str(g.kernel));
  resolve_window_attrs(g, at, ctx.op_type);
  g.out = window_output_dims(g, false);
  std::vector<int64_t> expect = {N, M};
  expect.insert(expect.end(), g.out.begin(), g.out.end());
  require_shape(ctx, ty, expect, "y");
  const int64_t kk = g.kernel_size(), in_size = g.in_size(), out_size = g.out_size();
  const TensorView* xz = optional_input(ctx, 2);
  ACL_SIM_REQUIRE(!xz || xz->numel() == 1, ACL_ERROR_OP_INPUT_NOT_MATCH, ctx.op_type,
                  ": x_zero_point must be a scalar, has ", xz ? xz->numel() : 0, " values");
  const std::vector<int32_t> x = shifted(ctx, tx, xz, "x", tx.numel(), false, 0);
  const std::vector<int32_t> w = shifted(ctx, tw, optional_input(ctx, 3), "w", tw.numel() / M, false, 0);
  if (ty.numel() == 0) return;
  const Geometry3 g3(g);
  const int64_t *in = g3.in, *out = g3.out, *k = g3.k, *s = g3.s, *d = g3.d, *pb = g3.p;
  const int64_t cg = C / group, mg = M / group, rows = cg * kk;
  std::vector<int32_t> cols(static_cast<size_t>(rows * out_size));
  auto* y = static_cast<int32_t*>(ty.data);
  for (int64_t n = 0; n < N; ++n) {
    for (int64_t gi = 0; gi < group; ++gi) {
      const int32_t* xg = x.data() + (n * C + gi * cg) * in_size;
      // cols row (c, tap): the shifted input under that tap for every output position (0 in padding).
      parallel_blocks(rows, std::max<int64_t>(1, kBlockElems / std::max<int64_t>(1, out_size)), [&](int64_t r0,
                                                                                                  int64_t r1) {
        for (int64_t r = r0; r < r1; ++r) {
          const int64_t c = r / kk, t = r % kk;
          const int64_t t2 = t % k[2], t1 = (t / k[2]) % k[1], t0 = t / (k[2] * k[1]);
          const int32_t* xp = xg + c * in_size;
          int32_t* row = cols.data() + r * out_size;
          for (int64_t o0 = 0; o0 < out[0]; ++o0) {
            const int64_t i0 = o0 * s[0] - pb[0] + t0 * d[0];
            for (int64_t o1 = 0; o1 < out[1]; ++o1) {
              const int64_t i1 = o1 * s[1] - pb[1] + t1 * d[1];
              int32_t* dst = row + (o0 * out[1] + o1) * out[2];
              if (i0 < 0 || i0 >= in[0] || i1 < 0 || i1 >= in[1]) {
                std::fill(dst, dst + out[2], 0);
                continue;
              }
              const int32_t* src = xp + (i0 * in[1] + i1) * in[2];
              for (int64_t o2 = 0; o2 < out[2]; ++o2) {
                const int64_t i2 = o2 * s[2] - pb[2] + t2 * d[2];
                dst[o2] = (i2 >= 0 && i2 < in[2]) ? src[i2] : 0;
              }
            }
          }
        }
      });
      gemm_i32(mg, out_size, rows, w.data() + gi * mg * rows, rows, cols.data(), out_size,
               y + (n * M + gi * mg) * out_size, out_size);
    }
  }
}

}  // namespace

ACL_SIM_REGISTER_OP(MatMulInteger, run_matmul_integer);
ACL_SIM_REGISTER_OP(ConvInteger, run_conv_integer);

}  // namespace acl_sim::kern
