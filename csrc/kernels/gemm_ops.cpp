// ONNX MatMul (N-D, broadcast batch) and Gemm on the packed GEMM, with the
// fused `activation` epilogue; fp32, fp16 and bf16 (fp32 accumulate).
#include <algorithm>
#include <vector>

#include "executor/thread_pool.h"
#include "kernels/epilogue.h"
#include "kernels/gemm.h"
#include "kernels/gemm_tensor_io.h"
#include "kernels/op_registry.h"

namespace acl_sim {
namespace {

void require_output_shape(const OpContext& ctx, const std::vector<int64_t>& expect) {
  ACL_SIM_REQUIRE(ctx.outputs[0].shape == expect, ACL_ERROR_OP_OUTPUT_NOT_MATCH, ctx.op_type, ": output shape ",
                  shape_str(ctx.outputs[0].shape), " does not match the inferred ", shape_str(expect));
}

void run_matmul(OpContext& ctx) {
  require_float_io(ctx, 2, 1);
  const TensorView& ta = ctx.inputs[0];
  const TensorView& tb = ctx.inputs[1];
  ACL_SIM_REQUIRE(!ta.shape.empty() && !tb.shape.empty(), ACL_ERROR_OP_INPUT_NOT_MATCH,
                  "MatMul: inputs must have rank >= 1, got ", shape_str(ta.shape), " and ", shape_str(tb.shape));
  std::vector<int64_t> as = ta.shape, bs = tb.shape;
  const bool a1 = as.size() == 1, b1 = bs.size() == 1;
  if (a1) as.insert(as.begin(), 1);
  if (b1) bs.push_back(1);
  const int64_t M = as[as.size() - 2], K = as.back(), N = bs.back();
  ACL_SIM_REQUIRE(bs[bs.size() - 2] == K, ACL_ERROR_OP_INPUT_NOT_MATCH, "MatMul: inner dimensions differ: ",
                  shape_str(ta.shape), " x ", shape_str(tb.shape));
  // Broadcast the batch dimensions (right-aligned).
  const size_t ra = as.size() - 2, rb = bs.size() - 2, rank = std::max(ra, rb);
  std::vector<int64_t> batch(rank), a_bdim(rank, 1), b_bdim(rank, 1);
  for (size_t i = 0; i < ra; ++i) a_bdim[rank - ra + i] = as[i];
  for (size_t i = 0; i < rb; ++i) b_bdim[rank - rb + i] = bs[i];
  for (size_t i = 0; i < rank; ++i) {
    ACL_SIM_REQUIRE(a_bdim[i] == b_bdim[i] || a_bdim[i] == 1 || b_bdim[i] == 1, ACL_ERROR_OP_INPUT_NOT_MATCH,
                    "MatMul: batch dimensions do not broadcast: ", shape_str(ta.shape), " x ", shape_str(tb.shape));
    batch[i] = (a_bdim[i] == 1) ? b_bdim[i] : a_bdim[i];
  }
  std::vector<int64_t> out_shape = batch;
  if (!a1) out_shape.push_back(M);
  if (!b1) out_shape.push_back(N);
  require_output_shape(ctx, out_shape);
  const Activation act = activation_from_attrs(*ctx.attrs);

  int64_t batch_count = 1, a_count = 1, b_count = 1;
  for (size_t i = 0; i < rank; ++i) {
    batch_count *= batch[i];
    a_count *= a_bdim[i];
    b_count *= b_bdim[i];
  }
  if (batch_count * M * N == 0) return;
  F32Input A(ta), B(tb);
  F32Output Y(ctx.outputs[0]);
  GemmEpilogue ep;
  ep.act = act;

  if (b_count == 1 && a_count == batch_count) {
    // One weight matrix for every batch: fold the batch into M (one big GEMM).
    gemm_f32(batch_count * M, N, K, 1.f, MatrixRef{A.data(), K, 1}, MatrixRef{B.data(), N, 1}, 0.f, Y.data(), N, ep);
    Y.commit();
    return;
  }
  // Element offsets of each output batch in A and B (broadcast dims step 0).
  std::vector<int64_t> a_off(batch_count), b_off(batch_count);
  for (int64_t bi = 0; bi < batch_count; ++bi) {
    int64_t rem = bi, ao = 0, bo = 0, astride = M * K, bstride = K * N;
    for (size_t d = rank; d-- > 0;) {
      const int64_t idx = rem % batch[d];
      rem /= batch[d];
      if (a_bdim[d] != 1) ao += idx * astride;
      if (b_bdim[d] != 1) bo += idx * bstride;
      astride *= a_bdim[d];
      bstride *= b_bdim[d];
    }
    a_off[bi] = ao;
    b_off[bi] = bo;
  }
  const float* a = A.data();
  const float* b = B.data();
  float* y = Y.data();
  auto one = [&](int64_t bi, bool parallel) {
    gemm_f32(M, N, K, 1.f, MatrixRef{a + a_off[bi], K, 1}, MatrixRef{b + b_off[bi], N, 1}, 0.f, y + bi * M * N, N,
             ep, parallel);
  };
  // Many small products (attention heads): one GEMM per pool index; big ones: each GEMM uses the pool.
  if (2.0 * M * N * K < 4e6) {
    ThreadPool::instance().parallel_for(static_cast<size_t>(batch_count),
                                        [&](size_t bi) { one(static_cast<int64_t>(bi), false); });
  } else {
    for (int64_t bi = 0; bi < batch_count; ++bi) one(bi, true);
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

  F32Input A(ta), B(tb);
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
    F32Input C(tc);
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
  gemm_f32(M, N, K, alpha, a, b, gemm_beta, Y.data(), N, ep);
  Y.commit();
}

}  // namespace

ACL_SIM_REGISTER_OP(MatMul, run_matmul);
ACL_SIM_REGISTER_OP(Gemm, run_gemm);

}  // namespace acl_sim
