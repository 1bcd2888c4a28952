#include "kernels/triangular_solve.h"

#include <vector>

#include "kernels/elementwise_common.h"

namespace acl_sim::kern {

void triangular_solve(const float* A, const float* B, float* X, int64_t batch, int64_t n, int64_t k, bool upper,
                      bool transpose, bool unit) {
  // op(A) is lower triangular when (upper xor transpose) is false: solve rows top-down, else bottom-up.
  const bool lower_op = upper == transpose;
  parallel_blocks(batch * k, 1, [&](int64_t c0, int64_t c1) {
    std::vector<double> x(static_cast<size_t>(n));
    for (int64_t c = c0; c < c1; ++c) {
      const int64_t b = c / k, col = c % k;
      const float* a = A + b * n * n;
      auto op_a = [&](int64_t i, int64_t j) { return static_cast<double>(transpose ? a[j * n + i] : a[i * n + j]); };
      for (int64_t s = 0; s < n; ++s) {
        const int64_t i = lower_op ? s : n - 1 - s;
        double v = B[(b * n + i) * k + col];
        if (lower_op) {
          for (int64_t j = 0; j < i; ++j) v -= op_a(i, j) * x[j];
        } else {
          for (int64_t j = i + 1; j < n; ++j) v -= op_a(i, j) * x[j];
        }
        x[i] = unit ? v : v / op_a(i, i);
      }
      for (int64_t i = 0; i < n; ++i) X[(b * n + i) * k + col] = static_cast<float>(x[i]);
    }
  });
}

}  // namespace acl_sim::kern
