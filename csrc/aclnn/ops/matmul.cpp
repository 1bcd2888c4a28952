#include "aclnn/ops/matmul.h"

#include <algorithm>

#include "executor/thread_pool.h"
#include "kernels/gemm.h"
#include "kernels/weight_dequant.h"
#include "op/tensor_desc.h"

namespace acl_sim::aclnn {
namespace {

/** A batch of matrices in fp32: the operand's own memory when it is float32, else a widened dense copy. */
struct F32Matrices {
  Dense hold;                                   // the widened copy (empty when reading in place)
  const float* base = nullptr;                  // element 0
  std::vector<int64_t> batch_shape, batch_str;  // leading dims
  int64_t rows = 0, cols = 0, rs = 0, cs = 0;   // the last two dims

  F32Matrices(const TensorArg& t, bool as_row, bool as_col) {
    std::vector<int64_t> shape = t.shape, str = t.strides;
    if (t.dtype != ACL_FLOAT) {
      hold = read_dense(t, ACL_FLOAT);
      str = kern::dense_strides(shape);
      base = static_cast<const float*>(hold.data());
    } else {
      base = static_cast<const float*>(t.origin());
    }
    if (as_row) {  // a vector read as a [1, K] matrix
      shape.insert(shape.begin(), 1);
      str.insert(str.begin(), 0);
    } else if (as_col) {  // a vector read as a [K, 1] matrix
      shape.push_back(1);
      str.push_back(0);
    }
    const size_t r = shape.size();
    rows = shape[r - 2];
    cols = shape[r - 1];
    rs = str[r - 2];
    cs = str[r - 1];
    batch_shape.assign(shape.begin(), shape.end() - 2);
    batch_str.assign(str.begin(), str.end() - 2);
  }
};

/** Element offset of batch index `bi` of `batch` (row-major) in an operand whose batch dims broadcast to it. */
int64_t batch_offset(int64_t bi, const std::vector<int64_t>& batch, const std::vector<int64_t>& shape,
                     const std::vector<int64_t>& str) {
  int64_t off = 0;
  for (size_t d = batch.size(); d-- > 0;) {
    const int64_t idx = bi % batch[d];
    bi /= batch[d];
    const size_t back = batch.size() - d;
    if (back <= shape.size()) {
      const size_t k = shape.size() - back;
      if (shape[k] != 1) off += idx * str[k];
    }
  }
  return off;
}

void check_float_operand(const char* op, const TensorArg& t, const char* what) {
  require_dtype(op, t, what, kFloatTypes);
  ACLNN_REQUIRE(t.format == ACL_FORMAT_ND || t.format == ACL_FORMAT_NCHW || t.format == ACL_FORMAT_FRACTAL_NZ, op,
                ": ", what, " format ", static_cast<int>(t.format), " is not supported (ND or FRACTAL_NZ)");
}

}  // namespace

Plan plan_matmul(const char* op, MatmulKind kind, TensorArg self, TensorArg mat2, TensorArg out, int8_t cube_math) {
  check_float_operand(op, self, "self");
  check_float_operand(op, mat2, kind == MatmulKind::Mv ? "vec" : "mat2");
  require_dtype(op, out, "out", kFloatTypes);
  ACLNN_REQUIRE(cube_math >= 0 && cube_math <= 3, op, ": cubeMathType ", static_cast<int>(cube_math),
                " is not one of 0 (KEEP_DTYPE), 1 (ALLOW_FP32_DOWN_PRECISION), 2 (USE_FP16), 3 (USE_HF32)");
  const size_t ra = self.rank(), rb = mat2.rank();
  switch (kind) {
    case MatmulKind::Mm:
      ACLNN_REQUIRE(ra == 2 && rb == 2, op, ": self and mat2 must be 2-D, got ", dims_to_string(self.shape), " and ",
                    dims_to_string(mat2.shape));
      break;
    case MatmulKind::BatchMatMul:
      ACLNN_REQUIRE(ra == 3 && rb == 3, op, ": self and mat2 must be 3-D, got ", dims_to_string(self.shape), " and ",
                    dims_to_string(mat2.shape));
      break;
    case MatmulKind::Mv:
      ACLNN_REQUIRE(ra == 2 && rb == 1, op, ": self must be 2-D and vec 1-D, got ", dims_to_string(self.shape),
                    " and ", dims_to_string(mat2.shape));
      break;
    case MatmulKind::Matmul:
      ACLNN_REQUIRE(ra >= 1 && rb >= 1, op, ": operands must have rank >= 1");
      break;
  }
  const bool a_vec = ra == 1, b_vec = rb == 1;
  const int64_t K = self.shape.back();
  const int64_t Kb = b_vec ? mat2.shape[0] : mat2.shape[rb - 2];
  ACLNN_REQUIRE(K == Kb, op, ": inner dimensions differ: ", dims_to_string(self.shape), " x ",
                dims_to_string(mat2.shape));
  const int64_t M = a_vec ? 1 : self.shape[ra - 2];
  const int64_t N = b_vec ? 1 : mat2.shape.back();
  std::vector<int64_t> abatch(self.shape.begin(), self.shape.end() - (a_vec ? 1 : 2));
  std::vector<int64_t> bbatch(mat2.shape.begin(), mat2.shape.end() - (b_vec ? 1 : 2));
  std::vector<int64_t> batch = broadcast_shapes(op, abatch, bbatch);
  std::vector<int64_t> expect = batch;
  if (!a_vec) expect.push_back(M);
  if (!b_vec) expect.push_back(N);
  require_shape(op, out, expect, "out");

  return plan_of([a_vec, b_vec, M, N, K, batch, self = std::move(self), mat2 = std::move(mat2), out = std::move(out)] {
    const int64_t nb = element_count(batch);
    if (nb * M * N == 0) return;
    F32Matrices A(self, a_vec, false), B(mat2, false, b_vec);
    // The output as [batch..., M, N] with its strides (inserting stride 0 for a vector operand's unit dim).
    std::vector<int64_t> oshape = out.shape, ostr = out.strides;
    if (a_vec) {
      oshape.insert(oshape.end() - (b_vec ? 0 : 1), 1);
      ostr.insert(ostr.end() - (b_vec ? 0 : 1), 0);
    }
    if (b_vec) {
      oshape.push_back(1);
      ostr.push_back(0);
    }
    const size_t orank = oshape.size();
    const int64_t ors = ostr[orank - 2], ocs = ostr[orank - 1];
    const bool direct = out.dtype == ACL_FLOAT && (ocs == 1 || N == 1);
    Dense tmp;
    float* cbase;
    std::vector<int64_t> cbatch_str;
    int64_t ldc;
    if (direct) {
      cbase = static_cast<float*>(out.origin());
      cbatch_str.assign(ostr.begin(), ostr.end() - 2);
      ldc = ors;
    } else {
      tmp = Dense(ACL_FLOAT, {nb, M, N});
      cbase = static_cast<float*>(tmp.data());
      cbatch_str = kern::dense_strides(batch);
      for (int64_t& s : cbatch_str) s *= M * N;
      ldc = N;
    }
    auto one = [&](int64_t bi, bool parallel) {
      const float* a = A.base + batch_offset(bi, batch, A.batch_shape, A.batch_str);
      const float* b = B.base + batch_offset(bi, batch, B.batch_shape, B.batch_str);
      float* c = cbase + batch_offset(bi, batch, batch, cbatch_str);
      gemm_f32(M, N, K, 1.f, MatrixRef{a, A.rs, A.cs}, MatrixRef{b, B.rs, B.cs}, 0.f, c, ldc, {}, parallel);
    };
    if (nb > 1 && 2.0 * M * N * K < 4e6) {
      ThreadPool::instance().parallel_for(static_cast<size_t>(nb), [&](size_t bi) { one(static_cast<int64_t>(bi), false); });
    } else {
      for (int64_t bi = 0; bi < nb; ++bi) one(bi, true);
    }
    if (!direct) commit(tmp.reshaped(out.shape), out);
  });
}

Plan plan_weight_quant_matmul(const char* op, TensorArg x, TensorArg weight, TensorArg scale, TensorArg offset,
                              TensorArg bias, int64_t group_size, TensorArg y) {
  require_dtype(op, x, "x", {ACL_FLOAT16, ACL_BF16});
  require_dtype(op, weight, "weight", {ACL_INT8, ACL_INT4});
  require_dtype(op, scale, "antiquantScale", {ACL_FLOAT16, ACL_BF16, ACL_FLOAT});
  require_dtype(op, y, "y", {ACL_FLOAT16, ACL_BF16});
  ACLNN_REQUIRE(x.rank() == 2 && weight.rank() == 2, op, ": x and weight must be 2-D, got ", dims_to_string(x.shape),
                " and ", dims_to_string(weight.shape));
  ACLNN_REQUIRE(weight.format == ACL_FORMAT_ND || weight.format == ACL_FORMAT_FRACTAL_NZ, op,
                ": weight format must be ND or FRACTAL_NZ");
  const int64_t M = x.shape[0], K = x.shape[1], N = weight.shape[1];
  ACLNN_REQUIRE(weight.shape[0] == K, op, ": x ", dims_to_string(x.shape), " and weight ",
                dims_to_string(weight.shape), " differ in K");
  require_shape(op, y, {M, N}, "y");
  ACLNN_REQUIRE(group_size >= 0 && (group_size == 0 || K % group_size == 0), op, ": antiquantGroupSize ", group_size,
                " must be 0 or divide K = ", K);
  const int64_t groups = group_size > 0 ? K / group_size : 1;
  const bool per_tensor = scale.numel() == 1;
  const std::vector<int64_t> per_channel{N}, per_channel2{1, N}, per_group{groups, N};
  ACLNN_REQUIRE(per_tensor || scale.shape == per_channel || scale.shape == per_group ||
                    (group_size == 0 && scale.shape == per_channel2),
                op, ": antiquantScale has shape ", dims_to_string(scale.shape), "; expected [", N, "], [1, ", N,
                "] or [", groups, ", ", N, "] (group size ", group_size, ")");
  if (offset.present()) {
    ACLNN_REQUIRE(offset.shape == scale.shape, op, ": antiquantOffset shape ", dims_to_string(offset.shape),
                  " differs from antiquantScale ", dims_to_string(scale.shape));
    require_dtype(op, offset, "antiquantOffset", {ACL_FLOAT16, ACL_BF16, ACL_FLOAT});
  }
  if (bias.present()) {
    ACLNN_REQUIRE(bias.numel() == N, op, ": bias has ", bias.numel(), " elements, expected ", N);
    require_dtype(op, bias, "bias", {ACL_FLOAT16, ACL_BF16, ACL_FLOAT});
  }
  return plan_of([M, N, K, group_size, x = std::move(x), weight = std::move(weight), scale = std::move(scale),
                  offset = std::move(offset), bias = std::move(bias), y = std::move(y)] {
    if (M * N == 0) return;
    // Dequantised weight [K, N] in fp32, then a plain GEMM.
    Dense sc = read_dense(scale, ACL_FLOAT);
    Dense of = offset.present() ? read_dense(offset, ACL_FLOAT) : Dense();
    Dense w(ACL_FLOAT, {K, N});
    kern::QuantWeight q{weight.data, weight.dtype == ACL_INT4, weight.offset, weight.strides[0], weight.strides[1]};
    const int64_t scale_rows = scale.numel() == 1 ? 0 : (scale.numel() == N ? 1 : scale.numel() / N);
    kern::dequantize_weight(q, K, N, static_cast<const float*>(sc.data()),
                            of.data() ? static_cast<const float*>(of.data()) : nullptr, scale_rows,
                            group_size > 0 ? group_size : K, static_cast<float*>(w.data()));
    Dense xf = read_dense(x, ACL_FLOAT);
    Dense yf(ACL_FLOAT, {M, N});
    GemmEpilogue ep;
    Dense bf;
    if (bias.present()) {
      bf = read_dense(bias, ACL_FLOAT);
      ep.col_bias = static_cast<const float*>(bf.data());
    }
    gemm_f32(M, N, K, 1.f, MatrixRef{static_cast<const float*>(xf.data()), K, 1},
             MatrixRef{static_cast<const float*>(w.data()), N, 1}, 0.f, static_cast<float*>(yf.data()), N, ep);
    commit(yf, y);
  });
}

}  // namespace acl_sim::aclnn
