#include "kernels/gemm_wide.h"

#include <algorithm>

#include "kernels/elementwise_common.h"

namespace acl_sim {
namespace {

template <class T>
struct RowPanel {
  // C row i (n values) += sum over k in [k0, k1) of A[i, k] * B[k, :].
  ACL_SIM_INLINE void operator()(const T* a, const T* B, int64_t ldb, T* c, int64_t n, int64_t k0, int64_t k1) const {
    for (int64_t k = k0; k < k1; ++k) {
      const T av = a[k];
      const T* b = B + k * ldb;
      for (int64_t j = 0; j < n; ++j) c[j] += av * b[j];
    }
  }
};

template <class T>
void gemm_blocked(int64_t M, int64_t N, int64_t K, const T* A, int64_t lda, const T* B, int64_t ldb, T* C,
                  int64_t ldc, bool parallel) {
  if (M <= 0 || N <= 0) return;
  constexpr int64_t kPanelK = 256, kPanelN = 1024;  // a B panel of 256 x 1024 doubles stays in L2
  auto rows = [&](int64_t i0, int64_t i1) {
    for (int64_t i = i0; i < i1; ++i) std::fill(C + i * ldc, C + i * ldc + N, T(0));
    for (int64_t j0 = 0; j0 < N; j0 += kPanelN) {
      const int64_t n = std::min(kPanelN, N - j0);
      for (int64_t k0 = 0; k0 < K; k0 += kPanelK) {
        const int64_t k1 = std::min(K, k0 + kPanelK);
        for (int64_t i = i0; i < i1; ++i)
          isa_call(RowPanel<T>{}, A + i * lda, B + j0, ldb, C + i * ldc + j0, n, k0, k1);
      }
    }
  };
  const int64_t grain = std::max<int64_t>(1, 65536 / std::max<int64_t>(1, N * std::max<int64_t>(1, K) / 64));
  if (parallel) kern::parallel_blocks(M, grain, rows);
  else rows(0, M);
}

}  // namespace

void gemm_f64(int64_t M, int64_t N, int64_t K, const double* A, int64_t lda, const double* B, int64_t ldb, double* C,
              int64_t ldc, bool parallel) {
  gemm_blocked<double>(M, N, K, A, lda, B, ldb, C, ldc, parallel);
}

void gemm_i32(int64_t M, int64_t N, int64_t K, const int32_t* A, int64_t lda, const int32_t* B, int64_t ldb,
              int32_t* C, int64_t ldc, bool parallel) {
  gemm_blocked<int32_t>(M, N, K, A, lda, B, ldb, C, ldc, parallel);
}

}  // namespace acl_sim
