// GEMM driver: blocking, packing and threading around the micro-kernels.
//
// The output is cut into MC x NC tiles; each tile is one thread-pool index
// (work-stealing balances uneven tiles). A tile walks K in KC slices: it packs
// its KC x NC slice of B (L2-resident) and, per MR-row micro-panel of A
// (packed just in time, L1-resident), sweeps the B strips with the micro-kernel. Packing is per
// tile, so there is no barrier between threads; tiles are shaped so B is
// packed as few times as possible (convolution's B is the costly im2col).
#include "kernels/gemm.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "executor/thread_pool.h"
#include "kernels/cpu_features.h"
#include "kernels/gemm_microkernel.h"
#include "kernels/gemm_simd.h"
#include "kernels/gemm_small_m.h"

namespace acl_sim {
namespace {

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }
int64_t round_up(int64_t a, int64_t b) { return ceil_div(a, b) * b; }

/** A grow-only 64-byte-aligned scratch buffer per thread and purpose. */
struct Scratch {
  float* data = nullptr;
  size_t capacity = 0;
  ~Scratch() { std::free(data); }
  float* get(size_t n) {
    if (n > capacity) {
      std::free(data);
      capacity = std::max(n, capacity * 2);
      data = static_cast<float*>(std::aligned_alloc(64, round_up(static_cast<int64_t>(capacity * sizeof(float)), 64)));
      if (!data) throw std::bad_alloc();
    }
    return data;
  }
};
thread_local Scratch t_pack_a, t_pack_b;

/** Env-tunable block sizes (ACL_SIM_GEMM_KC / _MC / _NC) for benchmarking; 0 = default. */
int64_t env_int(const char* name, int64_t def) {
  const char* v = std::getenv(name);
  if (!v) return def;
  int64_t x = std::atoll(v);
  return x > 0 ? x : def;
}

/** ACL_SIM_GEMM_PACK_A=1 packs A even where the kernels could read it in place (for benchmarking both). */
bool direct_a_disabled() {
  static const bool off = env_int("ACL_SIM_GEMM_PACK_A", 0) == 1;
  return off;
}

struct Blocking {
  int64_t kc, mc, nc;
};

Blocking choose_blocking(int64_t M, int64_t N, int64_t K, const MicroKernelSet& mk, bool parallel, bool costly_b) {
  static const int64_t kc_max = env_int("ACL_SIM_GEMM_KC", 256);
  static const int64_t mc_max = env_int("ACL_SIM_GEMM_MC", 512);
  static const int64_t nc_max = env_int("ACL_SIM_GEMM_NC", 480);
  const int64_t threads = static_cast<int64_t>(ThreadPool::instance().concurrency());
  const int64_t nr_unit = mk.lanes;  // strips may be narrower than the widest kernel
  const int64_t widest = mk.max_nv * mk.lanes;
  Blocking b;
  b.kc = K == 0 ? 1 : ceil_div(K, ceil_div(K, kc_max));
  int64_t mb = ceil_div(M, mc_max), nb = ceil_div(N, nc_max);
  // Enough tiles to feed every thread several times when the work is worth it
  // (a pool thread descheduled by a busy host then costs one small tile, not a
  // half). Split N first (re-packs only A), then M.
  const double flops = 2.0 * M * N * std::max<int64_t>(K, 1);
  int64_t want = 1;
  if (parallel && threads > 1 && flops >= 1e6) want = flops < 1e7 ? threads : (flops < 5e7 ? 2 : 4) * threads;
  // Splitting M re-packs all of B once per M block: at most once per thread
  // for matrices, and only until the threads are busy for im2col.
  const int64_t min_n_block = costly_b ? widest : 2 * widest;
  const int64_t m_limit = std::max(ceil_div(M, mc_max), threads);
  while (mb * nb < want) {
    if (N / (nb + 1) >= min_n_block) {
      ++nb;
    } else if (M / (mb + 1) >= 4 * mk.mr && mb < m_limit && (!costly_b || mb * nb < threads)) {
      ++mb;
    } else {
      break;
    }
  }
  b.mc = round_up(ceil_div(M, mb), mk.mr);
  b.nc = round_up(ceil_div(N, nb), nr_unit);
  // Whole widest strips per tile where that keeps the tile count, so only the last tile has a ragged edge.
  const int64_t nc_whole = round_up(b.nc, widest);
  if (ceil_div(N, nc_whole) == nb) b.nc = nc_whole;
  return b;
}

#if defined(__x86_64__)
/**
 * dst[k*8 + i] = alpha * src[i*ld + k] for i < 8, k < kc: eight contiguous rows
 * transposed 8x8 at a time (the k-major layout the micro-kernels read).
 */
ACL_SIM_TARGET_AVX2 void transpose_pack8(const float* src, int64_t ld, int64_t kc, float alpha, float* dst) {
  const __m256 va = _mm256_set1_ps(alpha);
  int64_t k = 0;
  for (; k + 8 <= kc; k += 8) {
    __m256 r0 = _mm256_loadu_ps(src + 0 * ld + k), r1 = _mm256_loadu_ps(src + 1 * ld + k);
    __m256 r2 = _mm256_loadu_ps(src + 2 * ld + k), r3 = _mm256_loadu_ps(src + 3 * ld + k);
    __m256 r4 = _mm256_loadu_ps(src + 4 * ld + k), r5 = _mm256_loadu_ps(src + 5 * ld + k);
    __m256 r6 = _mm256_loadu_ps(src + 6 * ld + k), r7 = _mm256_loadu_ps(src + 7 * ld + k);
    __m256 t0 = _mm256_unpacklo_ps(r0, r1), t1 = _mm256_unpackhi_ps(r0, r1);
    __m256 t2 = _mm256_unpacklo_ps(r2, r3), t3 = _mm256_unpackhi_ps(r2, r3);
    __m256 t4 = _mm256_unpacklo_ps(r4, r5), t5 = _mm256_unpackhi_ps(r4, r5);
    __m256 t6 = _mm256_unpacklo_ps(r6, r7), t7 = _mm256_unpackhi_ps(r6, r7);
    __m256 u0 = _mm256_shuffle_ps(t0, t2, 0x44), u1 = _mm256_shuffle_ps(t0, t2, 0xEE);
    __m256 u2 = _mm256_shuffle_ps(t1, t3, 0x44), u3 = _mm256_shuffle_ps(t1, t3, 0xEE);
    __m256 u4 = _mm256_shuffle_ps(t4, t6, 0x44), u5 = _mm256_shuffle_ps(t4, t6, 0xEE);
    __m256 u6 = _mm256_shuffle_ps(t5, t7, 0x44), u7 = _mm256_shuffle_ps(t5, t7, 0xEE);
    float* d = dst + k * 8;
    _mm256_storeu_ps(d + 0, _mm256_mul_ps(va, _mm256_permute2f128_ps(u0, u4, 0x20)));
    _mm256_storeu_ps(d + 8, _mm256_mul_ps(va, _mm256_permute2f128_ps(u1, u5, 0x20)));
    _mm256_storeu_ps(d + 16, _mm256_mul_ps(va, _mm256_permute2f128_ps(u2, u6, 0x20)));
    _mm256_storeu_ps(d + 24, _mm256_mul_ps(va, _mm256_permute2f128_ps(u3, u7, 0x20)));
    _mm256_storeu_ps(d + 32, _mm256_mul_ps(va, _mm256_permute2f128_ps(u0, u4, 0x31)));
    _mm256_storeu_ps(d + 40, _mm256_mul_ps(va, _mm256_permute2f128_ps(u1, u5, 0x31)));
    _mm256_storeu_ps(d + 48, _mm256_mul_ps(va, _mm256_permute2f128_ps(u2, u6, 0x31)));
    _mm256_storeu_ps(d + 56, _mm256_mul_ps(va, _mm256_permute2f128_ps(u3, u7, 0x31)));
  }
  for (; k < kc; ++k)
    for (int i = 0; i < 8; ++i) dst[k * 8 + i] = alpha * src[i * ld + k];
}
#endif

bool have_avx2() {
#if defined(__x86_64__)
  static const bool yes = cpu_features().isa != KernelIsa::kScalar;
  return yes;
#else
  return false;
#endif
}

/** Pack rows [m0, m0+mc) x cols [k0, k0+kc) of alpha*A into MR-row micro-panels (zero-padded rows). */
void pack_a(const MatrixRef& A, float alpha, int64_t m0, int64_t mc, int64_t k0, int64_t kc, int mr, float* dst) {
  for (int64_t p = 0; p < mc; p += mr) {
    const int64_t rows = std::min<int64_t>(mr, mc - p);
    float* panel = dst + p * kc;
    if (A.rs == 1 && rows == mr) {  // columns contiguous: copy MR floats per k
      for (int64_t k = 0; k < kc; ++k) {
        const float* src = A.data + (k0 + k) * A.cs + (m0 + p);
        for (int i = 0; i < mr; ++i) panel[k * mr + i] = alpha * src[i];
      }
      continue;
    }
#if defined(__x86_64__)
    if (A.cs == 1 && rows == 8 && mr == 8 && have_avx2()) {
      transpose_pack8(A.data + (m0 + p) * A.rs + k0, A.rs, kc, alpha, panel);
      continue;
    }
#endif
    for (int64_t i = 0; i < rows; ++i) {
      const float* src = A.data + (m0 + p + i) * A.rs + k0 * A.cs;
      if (A.cs == 1) {
        for (int64_t k = 0; k < kc; ++k) panel[k * mr + i] = alpha * src[k];
      } else {
        for (int64_t k = 0; k < kc; ++k) panel[k * mr + i] = alpha * src[k * A.cs];
      }
    }
    for (int64_t i = rows; i < mr; ++i)
      for (int64_t k = 0; k < kc; ++k) panel[k * mr + i] = 0.f;
  }
}

struct GemmJob {
  int64_t M, N, K;
  float alpha, beta;
  const MatrixRef* A;
  const BPanelSource* B;
  float* C;
  int64_t ldc;
  const GemmEpilogue* ep;
  const MicroKernelSet* mk;
  Blocking blk;
  int64_t n_tiles_n;
  bool direct_a;  // the micro-kernels read A in place (row-major, alpha 1): no packing pass
};

/**
 * Width of the strip starting at column offset j of an nc-wide tile: the widest kernel, narrowed at the
 * edge (to the half-width tail kernel when that covers the rest, so 49 columns cost 56, not 64).
 */
int64_t strip_width(int64_t remaining, const MicroKernelSet& mk) {
  const int64_t widest = mk.max_nv * mk.lanes;
  if (remaining >= widest) return widest;
  if (mk.half_width && remaining <= mk.half_width) return mk.half_width;
  return round_up(remaining, mk.lanes);
}

MicroKernelFn kernel_for(int64_t width, const MicroKernelSet& mk) {
  return width == mk.half_width ? mk.half : mk.fn[width / mk.lanes - 1];
}

void run_tile(const GemmJob& job, size_t index) {
  const MicroKernelSet& mk = *job.mk;
  const int64_t tm = static_cast<int64_t>(index) / job.n_tiles_n, tn = static_cast<int64_t>(index) % job.n_tiles_n;
  const int64_t m0 = tm * job.blk.mc, n0 = tn * job.blk.nc;
  const int64_t mc = std::min(job.blk.mc, job.M - m0), nc = std::min(job.blk.nc, job.N - n0);
  if (mc <= 0 || nc <= 0) return;
  float* C = job.C;
  const int64_t ldc = job.ldc;

  if (job.beta != 0.f && job.beta != 1.f) {
    for (int64_t i = 0; i < mc; ++i) {
      float* row = C + (m0 + i) * ldc + n0;
      for (int64_t j = 0; j < nc; ++j) row[j] *= job.beta;
    }
  }
  if (job.K == 0 && job.beta == 0.f) {
    for (int64_t i = 0; i < mc; ++i) std::memset(C + (m0 + i) * ldc + n0, 0, nc * sizeof(float));
  }

  const int64_t kc_max = job.blk.kc;
  const int64_t nc_pad = round_up(nc, mk.lanes);
  float* a_pack = t_pack_a.get(static_cast<size_t>(mk.mr * kc_max));
  float* b_pack = t_pack_b.get(static_cast<size_t>(nc_pad * kc_max));

  for (int64_t k0 = 0; k0 < job.K; k0 += kc_max) {
    const int64_t kc = std::min(kc_max, job.K - k0);
    const bool accumulate = k0 > 0 || job.beta != 0.f;
    // Pack this tile's B slice as strips (each kc x width, contiguous): whole widest strips, then the edge.
    const int64_t widest = mk.max_nv * mk.lanes;
    const int64_t rem = nc % widest;
    job.B->pack_strips(k0, kc, n0, nc, widest, rem ? strip_width(rem, mk) : widest, b_pack);
    for (int64_t i = 0; i < mc; i += mk.mr) {
      const int m_valid = static_cast<int>(std::min<int64_t>(mk.mr, mc - i));
      const float* a_panel;
      int64_t lda = 0;
      if (job.direct_a) {
        a_panel = job.A->data + (m0 + i) * job.A->rs + k0;
        lda = job.A->rs;
      } else {
        // Each A micro-panel is used once per K slice, so it is packed just in
        // time into an L1-sized buffer instead of packing the whole A block
        // (which would evict the B slice from L2).
        pack_a(*job.A, job.alpha, m0 + i, m_valid, k0, kc, mk.mr, a_pack);
        a_panel = a_pack;
      }
      float* c_row = C + (m0 + i) * ldc + n0;
      for (int64_t j = 0; j < nc;) {
        const int64_t width = strip_width(nc - j, mk);
        const int n_valid = static_cast<int>(std::min(width, nc - j));
        kernel_for(width, mk)(kc, a_panel, lda, b_pack + j * kc, c_row + j, ldc, m_valid, n_valid, accumulate);
        j += width;
      }
    }
  }

  const GemmEpilogue& ep = *job.ep;
  if (ep.row_bias || ep.col_bias || ep.residual || !ep.act.none()) {
    for (int64_t i = 0; i < mc; ++i) {
      float* row = C + (m0 + i) * ldc + n0;
      if (ep.residual) {
        const float* res = ep.residual + (m0 + i) * ldc + n0;
        for (int64_t j = 0; j < nc; ++j) row[j] += res[j];
      }
      const float rb = ep.row_bias ? ep.row_bias[m0 + i] : 0.f;
      if (ep.col_bias) {
        if (rb != 0.f)
          for (int64_t j = 0; j < nc; ++j) row[j] += rb;
        bias_row_activation(row, static_cast<size_t>(nc), ep.col_bias + n0, ep.act);
      } else {
        bias_activation(row, static_cast<size_t>(nc), rb, ep.act);
      }
    }
  }
}

}  // namespace

void BPanelSource::pack_strips(int64_t k0, int64_t kc, int64_t n0, int64_t n_valid, int64_t strip,
                               int64_t last_width, float* dst) const {
  for (int64_t j = 0; j < n_valid; j += strip) {
    const int64_t width = n_valid - j >= strip ? strip : last_width;
    pack(k0, kc, n0 + j, std::min(width, n_valid - j), width, dst + j * kc);
  }
}

void MatrixPanelSource::pack(int64_t k0, int64_t kc, int64_t n0, int64_t n_valid, int64_t width, float* dst) const {
  const MatrixRef& B = m_;
  if (B.cs == 1) {  // rows contiguous: one copy per k
    for (int64_t k = 0; k < kc; ++k) {
      float* d = dst + k * width;
      std::memcpy(d, B.data + (k0 + k) * B.rs + n0, n_valid * sizeof(float));
      for (int64_t j = n_valid; j < width; ++j) d[j] = 0.f;
    }
    return;
  }
  int64_t j0 = 0;
#if defined(__x86_64__)
  if (B.rs == 1 && have_avx2()) {
    // Column-contiguous B (transB): transpose 8 columns at a time into a k-major scratch, then scatter rows.
    alignas(32) float block[8 * 256];
    for (; j0 + 8 <= n_valid; j0 += 8) {
      for (int64_t kb = 0; kb < kc; kb += 256) {
        const int64_t kn = std::min<int64_t>(256, kc - kb);
        transpose_pack8(B.data + (n0 + j0) * B.cs + k0 + kb, B.cs, kn, 1.f, block);
        for (int64_t k = 0; k < kn; ++k) std::memcpy(dst + (kb + k) * width + j0, block + k * 8, 8 * sizeof(float));
      }
    }
  }
#endif
  for (int64_t j = j0; j < n_valid; ++j) {
    const float* src = B.data + (n0 + j) * B.cs + k0 * B.rs;
    if (B.rs == 1) {
      for (int64_t k = 0; k < kc; ++k) dst[k * width + j] = src[k];
    } else {
      for (int64_t k = 0; k < kc; ++k) dst[k * width + j] = src[k * B.rs];
    }
  }
  if (n_valid < width)
    for (int64_t k = 0; k < kc; ++k)
      for (int64_t j = n_valid; j < width; ++j) dst[k * width + j] = 0.f;
}

void gemm_f32(int64_t M, int64_t N, int64_t K, float alpha, const MatrixRef& A, const BPanelSource& B, float beta,
              float* C, int64_t ldc, const GemmEpilogue& ep, bool parallel) {
  if (M <= 0 || N <= 0) return;
  const MicroKernelSet& mk = micro_kernels();
  const bool direct_a = mk.direct_a && A.cs == 1 && A.rs >= K && alpha == 1.f && !direct_a_disabled();
  GemmJob job{M,   N,  K,   alpha, beta, &A, &B, C, ldc, &ep, &mk, choose_blocking(M, N, K, mk, parallel, B.costly()),
              0,   direct_a};
  job.n_tiles_n = ceil_div(N, job.blk.nc);
  const size_t tiles = static_cast<size_t>(ceil_div(M, job.blk.mc) * job.n_tiles_n);
  if (tiles == 1 || !parallel) {
    for (size_t i = 0; i < tiles; ++i) run_tile(job, i);
    return;
  }
  ThreadPool::instance().parallel_for(tiles, [&job](size_t i) { run_tile(job, i); });
}

void gemm_f32(int64_t M, int64_t N, int64_t K, float alpha, const MatrixRef& A, const MatrixRef& B, float beta,
              float* C, int64_t ldc, const GemmEpilogue& ep, bool parallel) {
  if (M <= 0 || N <= 0) return;
  if (gemm_small_m(M, N, K, alpha, A, B, beta, C, ldc, ep, parallel)) return;
  MatrixPanelSource source(B);
  gemm_f32(M, N, K, alpha, A, source, beta, C, ldc, ep, parallel);
}

const char* gemm_kernel_name() { return micro_kernels().name; }

}  // namespace acl_sim
