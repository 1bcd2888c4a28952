// Det: the determinant of each trailing [M, M] matrix of X ([*, M, M] -> [*]).
// LU factorisation with partial pivoting in double (the row updates are unit-stride loops the
// compiler vectorises), one matrix per task, matrices spread over the pool. Float dtypes
// (fp32 / fp16 / bf16 / double); the result is rounded to the input dtype once.
#include <cmath>

#include "kernels/elementwise_common.h"

namespace acl_sim::kern {
namespace {

/** det of the n x n row-major matrix in a (overwritten by its LU factors). */
double lu_determinant(double* a, int64_t n) {
  double det = 1.0;
  for (int64_t k = 0; k < n; ++k) {
    int64_t piv = k;
    double best = std::fabs(a[k * n + k]);
    for (int64_t i = k + 1; i < n; ++i) {
      const double v = std::fabs(a[i * n + k]);
      if (v > best) best = v, piv = i;
    }
    if (best == 0.0) return 0.0;  // singular (a NaN pivot propagates through the products below)
    if (piv != k) {
      for (int64_t j = 0; j < n; ++j) std::swap(a[k * n + j], a[piv * n + j]);
      det = -det;
    }
    const double pivot = a[k * n + k];
    det *= pivot;
    const double inv = 1.0 / pivot;
    const double* prow = a + k * n;
    for (int64_t i = k + 1; i < n; ++i) {
      double* row = a + i * n;
      const double f = row[k] * inv;
      for (int64_t j = k + 1; j < n; ++j) row[j] -= f * prow[j];
    }
  }
  return det;
}

template <class T>
void det_typed(const TensorView& x, TensorView& y, int64_t batch, int64_t n) {
  const T* src = static_cast<const T*>(x.data);
  T* dst = static_cast<T*>(y.data);
  const int64_t grain = std::max<int64_t>(1, 4096 / std::max<int64_t>(1, n * n * n));
  parallel_blocks(batch, grain, [&](int64_t b0, int64_t b1) {
    std::vector<double> a(static_cast<size_t>(n * n));
    for (int64_t b = b0; b < b1; ++b) {
      const T* m = src + b * n * n;
      for (int64_t i = 0; i < n * n; ++i) a[static_cast<size_t>(i)] = load_as_double(m + i);
      store_from_double(dst + b, lu_determinant(a.data(), n));
    }
  });
}

void run_det(OpContext& ctx) {
  require_io(ctx, 1, 1);
  const TensorView& x = input(ctx, 0);
  TensorView& y = output(ctx, 0);
  const size_t rank = x.shape.size();
  ACL_SIM_REQUIRE(rank >= 2 && x.shape[rank - 1] == x.shape[rank - 2], ACL_ERROR_OP_INPUT_NOT_MATCH, ctx.op_type,
                  ": X must be [*, M, M], got ", shape_str(x.shape));
  ACL_SIM_REQUIRE(is_float_dtype(x.dtype), ACL_ERROR_UNSUPPORTED_DATA_TYPE, ctx.op_type, ": unsupported dtype ",
                  dtype_name(x.dtype), " (float types only)");
  require_same_dtype(ctx, x, y, "input and output");
  require_shape(ctx, y, std::vector<int64_t>(x.shape.begin(), x.shape.end() - 2), "output");
  const int64_t n = x.shape[rank - 1], batch = prod(x.shape, 0, rank - 2);
  dispatch_dtype(x.dtype, ctx.op_type, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, Half> ||
                  std::is_same_v<T, BFloat16>)
      det_typed<T>(x, y, batch, n);
  });
}

}  // namespace

ACL_SIM_REGISTER_OP(Det, run_det);

}  // namespace acl_sim::kern
