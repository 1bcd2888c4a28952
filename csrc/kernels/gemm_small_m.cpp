// GEMM with very few rows (M <= 4: fully connected layers at batch 1-4,
// decoder steps). The packed path would pad M up to the micro-kernel height
// and re-pack B for nothing; here B is streamed once, straight from memory,
// which is what bounds this shape.
#include "kernels/gemm_small_m.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "executor/thread_pool.h"
#include "kernels/isa_target.h"

namespace acl_sim {
namespace {

constexpr int64_t kMaxRows = 4;

// Plain loops, compiled per ISA (isa_target.h) so the compiler vectorises them for AVX-512 / AVX2.

// c[j] += a * b[j].
struct Axpy {
  __attribute__((always_inline)) void operator()(float* c, const float* b, float a, int64_t n) const {
    for (int64_t j = 0; j < n; ++j) c[j] += a * b[j];
  }
};
void axpy(float* c, const float* b, float a, int64_t n) { isa_call(Axpy{}, c, b, a, n); }

// c[j] += a0*b0[j] + a1*b1[j] + a2*b2[j] + a3*b3[j]: one load/store of c per four rows of B.
struct Axpy4 {
  __attribute__((always_inline)) void operator()(float* c, const float* b, int64_t ldb, const float* a,
                                                 int64_t n) const {
    const float a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3];
    const float *b0 = b, *b1 = b + ldb, *b2 = b + 2 * ldb, *b3 = b + 3 * ldb;
    for (int64_t j = 0; j < n; ++j) c[j] += a0 * b0[j] + a1 * b1[j] + a2 * b2[j] + a3 * b3[j];
  }
};
void axpy4(float* c, const float* b, int64_t ldb, const float* a, int64_t n) { isa_call(Axpy4{}, c, b, ldb, a, n); }

// c[j] += sum_r a[r] * b[r*ldb + j] over eight rows of B: one load/store of c per eight rows.
struct Axpy8 {
  __attribute__((always_inline)) void operator()(float* c, const float* b, int64_t ldb, const float* a,
                                                 int64_t n) const {
    const float a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3], a4 = a[4], a5 = a[5], a6 = a[6], a7 = a[7];
    const float *b0 = b, *b1 = b + ldb, *b2 = b + 2 * ldb, *b3 = b + 3 * ldb;
    const float *b4 = b + 4 * ldb, *b5 = b + 5 * ldb, *b6 = b + 6 * ldb, *b7 = b + 7 * ldb;
    for (int64_t j = 0; j < n; ++j)
      c[j] += ((a0 * b0[j] + a1 * b1[j]) + (a2 * b2[j] + a3 * b3[j])) +
              ((a4 * b4[j] + a5 * b5[j]) + (a6 * b6[j] + a7 * b7[j]));
  }
};
void axpy8(float* c, const float* b, int64_t ldb, const float* a, int64_t n) { isa_call(Axpy8{}, c, b, ldb, a, n); }

// out[c] = sum_k a[k] * b_c[k] for four columns b_c = b + c*ldb at once: a is loaded once per four
// columns, and the four 32-wide partial sums are independent FMA chains (a single chain is bound by
// FMA latency, not throughput). Vectorisable without -ffast-math.
struct Dot4 {
  __attribute__((always_inline)) void operator()(const float* a, const float* b, int64_t ldb, int64_t n,
                                                 float* out) const {
    float p0[32] = {0}, p1[32] = {0}, p2[32] = {0}, p3[32] = {0};
    const float *b0 = b, *b1 = b + ldb, *b2 = b + 2 * ldb, *b3 = b + 3 * ldb;
    int64_t k = 0;
    for (; k + 32 <= n; k += 32)
      for (int j = 0; j < 32; ++j) {
        const float av = a[k + j];
        p0[j] += av * b0[k + j];
        p1[j] += av * b1[k + j];
        p2[j] += av * b2[k + j];
        p3[j] += av * b3[k + j];
      }
    float s[4] = {0.f, 0.f, 0.f, 0.f};
    for (int j = 0; j < 32; ++j) {
      s[0] += p0[j];
      s[1] += p1[j];
      s[2] += p2[j];
      s[3] += p3[j];
    }
    for (; k < n; ++k) {
      s[0] += a[k] * b0[k];
      s[1] += a[k] * b1[k];
      s[2] += a[k] * b2[k];
      s[3] += a[k] * b3[k];
    }
    for (int c = 0; c < 4; ++c) out[c] = s[c];
  }
};
void dot4(const float* a, const float* b, int64_t ldb, int64_t n, float* out) { isa_call(Dot4{}, a, b, ldb, n, out); }

float dot(const float* a, const float* b, int64_t n) {
  float out[4];
  dot4(a, b, 0, n, out);  // ldb 0: four copies of the same column (only the first is used)
  return out[0];
}

/** C rows = alpha * acc + beta * C, then residual, bias and activation, for columns [n0, n0 + nc). */
void finish_rows(int64_t M, int64_t n0, int64_t nc, const float* acc, int64_t acc_ld, float alpha, float beta,
                 float* C, int64_t ldc, const GemmEpilogue& ep) {
  for (int64_t i = 0; i < M; ++i) {
    float* c = C + i * ldc + n0;
    const float* a = acc + i * acc_ld;
    for (int64_t j = 0; j < nc; ++j) c[j] = alpha * a[j] + (beta == 0.f ? 0.f : beta * c[j]);
    if (ep.residual) {
      const float* res = ep.residual + i * ldc + n0;
      for (int64_t j = 0; j < nc; ++j) c[j] += res[j];
    }
    const float rb = ep.row_bias ? ep.row_bias[i] : 0.f;
    if (ep.col_bias) {
      if (rb != 0.f)
        for (int64_t j = 0; j < nc; ++j) c[j] += rb;
      bias_row_activation(c, static_cast<size_t>(nc), ep.col_bias + n0, ep.act);
    } else {
      bias_activation(c, static_cast<size_t>(nc), rb, ep.act);
    }
  }
}

/** acc[i*ld + j] += sum over k in [k0, k1) of A(i, k) * B(k, n0 + j): B rows streamed front to back. */
void accumulate_rows(int64_t M, const MatrixRef& A, const MatrixRef& B, int64_t k0, int64_t k1, int64_t n0,
                     int64_t nc, float* acc, int64_t ld) {
  int64_t k = k0;
  for (; k + 8 <= k1; k += 8) {
    const float* brow = B.data + k * B.rs + n0;
    for (int64_t i = 0; i < M; ++i) axpy8(acc + i * ld, brow, B.rs, A.data + i * A.rs + k, nc);
  }
  for (; k + 4 <= k1; k += 4) {
    const float* brow = B.data + k * B.rs + n0;
    for (int64_t i = 0; i < M; ++i) axpy4(acc + i * ld, brow, B.rs, A.data + i * A.rs + k, nc);
  }
  for (; k < k1; ++k) {
    const float* brow = B.data + k * B.rs + n0;
    for (int64_t i = 0; i < M; ++i) axpy(acc + i * ld, brow, A.data[i * A.rs + k], nc);
  }
}

/** Per-thread grow-only scratch for the K-split partial sums. */
thread_local std::vector<float> t_partials;

}  // namespace

bool gemm_small_m_applies(int64_t M, int64_t K, const MatrixRef& A, const MatrixRef& B) {
  const bool b_rows = B.cs == 1, b_cols = B.rs == 1 && B.cs != 1;
  return M <= kMaxRows && K != 0 && (b_rows || b_cols) && A.cs == 1;
}

bool gemm_small_m(int64_t M, int64_t N, int64_t K, float alpha, const MatrixRef& A, const MatrixRef& B, float beta,
                  float* C, int64_t ldc, const GemmEpilogue& ep, bool parallel) {
  if (!gemm_small_m_applies(M, K, A, B)) return false;
  const bool b_rows = B.cs == 1;
  ThreadPool& pool = ThreadPool::instance();
  const int64_t threads = parallel ? static_cast<int64_t>(pool.concurrency()) : 1;

  if (b_rows) {
    // Long column chunks (the partial sums of M rows stay in L1) read each row of B as one long
    // run: 512-column chunks measured 15-45% slower than whole 1000-4096-column rows. With few
    // chunks, K is split too, so every thread streams its own contiguous band of B rows into its
    // own partial sums, which the caller adds up at the end.
    const int64_t chunk = std::min<int64_t>(N, 2048 / M);
    const int64_t n_tasks = (N + chunk - 1) / chunk;
    const int64_t k_split = std::max<int64_t>(1, std::min<int64_t>((threads + n_tasks - 1) / n_tasks, K / 256));
    std::vector<float>& partials = t_partials;
    if (partials.size() < static_cast<size_t>(k_split * M * N)) partials.resize(static_cast<size_t>(k_split * M * N));
    float* acc = partials.data();
    auto run = [&](size_t t) {
      const int64_t kt = static_cast<int64_t>(t) % k_split, nt = static_cast<int64_t>(t) / k_split;
      const int64_t n0 = nt * chunk, nc = std::min(chunk, N - n0);
      const int64_t k0 = K * kt / k_split / 8 * 8, k1 = kt + 1 == k_split ? K : K * (kt + 1) / k_split / 8 * 8;
      float* a = acc + kt * M * N + n0;
      for (int64_t i = 0; i < M; ++i) std::memset(a + i * N, 0, nc * sizeof(float));
      accumulate_rows(M, A, B, k0, k1, n0, nc, a, N);
      if (k_split == 1) finish_rows(M, n0, nc, a, N, alpha, beta, C, ldc, ep);
    };
    const int64_t tasks = n_tasks * k_split;
    if (tasks == 1 || threads == 1) {
      for (int64_t t = 0; t < tasks; ++t) run(static_cast<size_t>(t));
    } else {
      pool.parallel_for(static_cast<size_t>(tasks), run);
    }
    if (k_split > 1) {
      for (int64_t kt = 1; kt < k_split; ++kt)
        for (int64_t j = 0; j < M * N; ++j) acc[j] += acc[kt * M * N + j];
      finish_rows(M, 0, N, acc, N, alpha, beta, C, ldc, ep);
    }
    return true;
  }

  // Column-contiguous B (transB): four dot products at a time, 64 columns per task.
  const int64_t chunk = 64;
  const int64_t tasks = (N + chunk - 1) / chunk;
  auto run = [&](size_t t) {
    const int64_t n0 = static_cast<int64_t>(t) * chunk, nc = std::min(chunk, N - n0);
    float acc[kMaxRows][chunk];
    int64_t j = 0;
    for (; j + 4 <= nc; j += 4) {
      const float* bcol = B.data + (n0 + j) * B.cs;
      for (int64_t i = 0; i < M; ++i) dot4(A.data + i * A.rs, bcol, B.cs, K, &acc[i][j]);
    }
    for (; j < nc; ++j) {
      const float* bcol = B.data + (n0 + j) * B.cs;
      for (int64_t i = 0; i < M; ++i) acc[i][j] = dot(A.data + i * A.rs, bcol, K);
    }
    finish_rows(M, n0, nc, &acc[0][0], chunk, alpha, beta, C, ldc, ep);
  };
  if (tasks == 1 || threads == 1) {
    for (int64_t t = 0; t < tasks; ++t) run(static_cast<size_t>(t));
  } else {
    pool.parallel_for(static_cast<size_t>(tasks), run);
  }
  return true;
}

}  // namespace acl_sim
