// ONNX MatMul (N-D, broadcast batch) and Gemm on the packed GEMM, with the
// fused `activation` epilogue; fp32, fp16 and bf16 (fp32 accumulate). float64 MatMul runs the
// double-precision blocked GEMM (gemm_wide.h).
#include <algorithm>
#include <vector>

#include "executor/thread_pool.h"
#include "kernels/epilogue.h"
#include "kernels/gemm.h"
#include "kernels/gemm_batch.h"
#include "kernels/gemm_wide.h"
#include "kernels/gemm_tensor_io.h"
#include "kernels/op_registry.h"
#include "kernels/packed_weights.h"

namespace acl_sim {
namespace {

void require_output_shape(const OpContext& ctx, const std::vector<int64_t>& expect) {
  ACL_SIM_REQUIRE(ctx.outputs[0].shape == expect, ACL_ERROR_OP_OUTPUT_NOT_MATCH, ctx.op_type, ": output shape ",
                  shape_str(ctx.outputs[0].shape), " does not match the inferred ", shape_str(expect));
}

/** MatMul on float64: the blocked double GEMM, one product per pool index when they are small. */
void run_matmul_f64(OpContext& ctx) {
  ACL_SIM_REQUIRE(ctx.inputs.size() >= 2 && ctx.inputs[1].present() && !ctx.outputs.empty(),
                  ACL_ERROR_OP_INPUT_NOT_MATCH, "MatMul expects 2 inputs and 1 output");
  const TensorView& ta = ctx.inputs[0];
  const TensorView& tb = ctx.inputs[1];
  ACL_SIM_REQUIRE(tb.dtype == ACL_DOUBLE && ctx.outputs[0].dtype == ACL_DOUBLE, ACL_ERROR_OP_INPUT_NOT_MATCH,
                  "MatMul: input 0 is float64, so input 1 and the output must be too");
  ACL_SIM_REQUIRE(activation_from_attrs(*ctx.attrs).none(), ACL_ERROR_OP_ATTR_NOT_MATCH,
                  "MatMul: a fused activation is not supported on float64");
  const MatMulBatch p = plan_matmul("MatMul", ta.shape, tb.shape);
  require_output_shape(ctx, p.out_shape);
  const auto* a = static_cast<const double*>(ta.data);
  const auto* b = static_cast<const double*>(tb.data);
  auto* y = static_cast<double*>(ctx.outputs[0].data);
  const int64_t M = p.M, N = p.N, K = p.K;
  if (p.batch_count * M * N == 0) return;
  if (p.folds_into_m()) return gemm_f64(p.batch_count * M, N, K, a, K, b, N, y, N);
  if (2.0 * M * N * K < 4e6) {
    ThreadPool::instance().parallel_for(static_cast<size_t>(p.batch_count), [&](size_t bi) {
      gemm_f64(M, N, K, a + p.a_off[bi], K, b + p.b_off[bi], N, y + static_cast<int64_t>(bi) * M * N, N, false);
    });
  } else {
    for (int64_t bi = 0; bi < p.batch_count; ++bi)
      gemm_f64(M, N, K, a + p.a_off[bi], K, b + p.b_off[bi], N, y + bi * M * N, N);
  }
}

/**
 * B packed once per loaded model when it is the node's constant weight and the product takes the packed path
 * (gemm.h: pack_b_panels, which says what it gains), else null.
 */
const float* constant_b_panels(OpContext& ctx, const MatrixRef& a, const MatrixRef& b, int64_t M, int64_t N,
                               int64_t K) {
  if (!ctx.cache || !ctx.input_is_weight(1) || !gemm_uses_packed_b(M, K, a, b)) return nullptr;
  return packed_once(*ctx.cache, static_cast<size_t>(packed_b_floats(N, K)),
                     [&](float* dst) { pack_b_panels(b, N, K, dst); });
}

void run_matmul(OpContext& ctx) {
  if (!ctx.inputs.empty() && ctx.inputs[0].dtype == ACL_DOUBLE) return run_matmul_f64(ctx);
  require_float_io(ctx, 2, 1);
  const TensorView& ta = ctx.inputs[0];
  const TensorView& tb = ctx.inputs[1];
  const MatMulBatch p = plan_matmul("MatMul", ta.shape, tb.shape);
  require_output_shape(ctx, p.out_shape);
  const Activation act = activation_from_attrs(*ctx.attrs);
  const int64_t M = p.M, N = p.N, K = p.K;
  if (p.batch_count * M * N == 0) return;
  F32Input A(ctx, 0), B(ctx, 1);
  F32Output Y(ctx.outputs[0]);
  GemmEpilogue ep;
  ep.act = act;

  // One B for every batch always folds into M (plan_matmul), so only this path can have a constant B to pack.
  if (p.folds_into_m()) {
    const MatrixRef a_ref{A.data(), K, 1}, b_ref{B.data(), N, 1};
    gemm_f32_packed_b(p.batch_count * M, N, K, 1.f, a_ref, b_ref,
                      constant_b_panels(ctx, a_ref, b_ref, p.batch_count * M, N, K), 0.f, Y.data(), N, ep);
    Y.commit();
    return;
  }
  const float* a = A.data();
  const float* b = B.data();
  float* y = Y.data();
  auto one = [&](int64_t bi, bool parallel) {
    gemm_f32(M, N, K, 1.f, MatrixRef{a + p.a_off[bi], K, 1}, MatrixRef{b + p.b_off[bi], N, 1}, 0.f,
             y + bi * M * N, N, ep, parallel);
  };
  // Many small products (attention heads): one GEMM per pool index; big ones: each GEMM uses the pool.
  if (2.0 * M * N * K < 4e6) {
    ThreadPool::instance().parallel_for(static_cast<size_t>(p.batch_count),
                                        [&](size_t bi) { one(static_cast<int64_t>(bi), false); });
  } else {
    for (int64_t bi = 0; bi < p.batch_count; ++bi) one(bi, true);
  }
  Y.commit();
}

void run_gemm(OpContext& ctx) {
  require_float_io(ctx, 2, 1);
  const TensorView& ta = ctx.inputs[0];
  const TensorView& tb = ctx.inputs[1];
  const Attrs& at = *ctx.attrs;
  const float alpha = static_cast<float>(at.get_float("alpha", 1.0));
  const float beta = static_cast<float>(at.get_float("beta", 1.0));
  const bool trans_a = at.get_int("transA", 0) != 0, trans_b = at.get_int("transB", 0) != 0;
  ACL_SIM_REQUIRE(ta.shape.size() == 2 && tb.shape.size() == 2, ACL_ERROR_OP_INPUT_NOT_MATCH,
                  "Gemm: A and B must be 2-D, got ", shape_str(ta.shape), " and ", shape_str(tb.shape));
  const int64_t M = trans_a ? ta.shape[1] : ta.shape[0], K = trans_a ? ta.shape[0] : ta.shape[1];
  const int64_t Kb = trans_b ? tb.shape[1] : tb.shape[0], N = trans_b ? tb.shape[0] : tb.shape[1];
  ACL_SIM_REQUIRE(K == Kb, ACL_ERROR_OP_INPUT_NOT_MATCH, "Gemm: inner dimensions differ: A ", shape_str(ta.shape),
                  trans_a ? " (transA)" : "", ", B ", shape_str(tb.shape), trans_b ? " (transB)" : "");
  require_output_shape(ctx, {M, N});
  const Activation act = activation_from_attrs(at);
  if (M * N == 0) return;

  F32Input A(ctx, 0), B(ctx, 1);
  F32Output Y(ctx.outputs[0]);
  const MatrixRef a = trans_a ? MatrixRef{A.data(), 1, M} : MatrixRef{A.data(), K, 1};
  const MatrixRef b = trans_b ? MatrixRef{B.data(), 1, K} : MatrixRef{B.data(), N, 1};

  GemmEpilogue ep;
  ep.act = act;
  float gemm_beta = 0.f;
  std::vector<float> bias;
  const bool has_c = ctx.inputs.size() > 2 && ctx.inputs[2].present() && beta != 0.f;
  if (has_c) {
    const TensorView& tc = ctx.inputs[2];
    F32Input C(ctx, 2);
    std::vector<int64_t> cs = tc.shape;
    while (cs.size() < 2) cs.insert(cs.begin(), 1);
    ACL_SIM_REQUIRE(cs.size() == 2 && (cs[0] == 1 || cs[0] == M) && (cs[1] == 1 || cs[1] == N),
                    ACL_ERROR_OP_INPUT_NOT_MATCH, "Gemm: C of shape ", shape_str(tc.shape),
                    " does not broadcast to [", M, ",", N, "]");
    if (cs[0] == 1) {  // a row (or scalar): per-column bias
      bias.resize(N);
      for (int64_t j = 0; j < N; ++j) bias[j] = beta * C.data()[cs[1] == 1 ? 0 : j];
      ep.col_bias = bias.data();
    } else if (cs[1] == 1) {  // a column: per-row bias
      bias.resize(M);
      for (int64_t i = 0; i < M; ++i) bias[i] = beta * C.data()[i];
      ep.row_bias = bias.data();
    } else {  // full matrix: start from C and accumulate onto it
      std::copy(C.data(), C.data() + M * N, Y.data());
      gemm_beta = beta;
    }
  }
  gemm_f32_packed_b(M, N, K, alpha, a, b, constant_b_panels(ctx, a, b, M, N, K), gemm_beta, Y.data(), N, ep);
  Y.commit();
}

}  // namespace

ACL_SIM_REGISTER_OP(MatMul, run_matmul);
ACL_SIM_REGISTER_OP(Gemm, run_gemm);

}  // namespace acl_sim
