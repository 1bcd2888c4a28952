// Packing for the GEMM driver: A micro-panels, B strips from a strided matrix.
#include "kernels/gemm_pack.h"

#include <algorithm>
#include <cstring>

#include "common/fp16.h"
#include "kernels/cpu_features.h"
#include "kernels/gemm_simd.h"
#include "kernels/transpose8x8.h"

namespace acl_sim {
namespace {

#if defined(__x86_64__)
/**
 * dst[k*8 + i] = alpha * src[i*ld + k] for i < 8, k < kc: eight contiguous rows
 * transposed 8x8 at a time (the k-major layout the micro-kernels read).
 */
ACL_SIM_TARGET_AVX2 void transpose_pack8(const float* src, int64_t ld, int64_t kc, float alpha, float* dst) {
  const __m256 va = _mm256_set1_ps(alpha);
  int64_t k = 0;
  for (; k + 8 <= kc; k += 8) {
    __m256 r[8];
#pragma GCC unroll 8
    for (int i = 0; i < 8; ++i) r[i] = _mm256_loadu_ps(src + i * ld + k);
    transpose8x8(r);
#pragma GCC unroll 8
    for (int i = 0; i < 8; ++i) _mm256_storeu_ps(dst + k * 8 + i * 8, _mm256_mul_ps(va, r[i]));
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

/** Row k of src (pitch rs) into row k of each of `full` W-wide strips (strip s at dst + s*W*kc). */
template <int W>
void deal_rows(const float* src, int64_t rs, int64_t kc, int64_t full, float* dst) {
  // Eight rows at a time: each strip then receives 8*W contiguous floats per visit (whole lines,
  // few write streams), while the eight source rows are still read front to back.
  constexpr int64_t R = 8;
  int64_t k = 0;
  for (; k + R <= kc; k += R, src += R * rs, dst += R * W)
    for (int64_t s = 0; s < full; ++s)
      for (int64_t r = 0; r < R; ++r) std::memcpy(dst + s * W * kc + r * W, src + r * rs + s * W, W * sizeof(float));
  for (; k < kc; ++k, src += rs, dst += W)
    for (int64_t s = 0; s < full; ++s) std::memcpy(dst + s * W * kc, src + s * W, W * sizeof(float));
}

}  // namespace

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

void BPanelSource::pack_strips(int64_t k0, int64_t kc, int64_t n0, int64_t n_valid, int64_t strip,
                               int64_t last_width, float* dst) const {
  for (int64_t j = 0; j < n_valid; j += strip) {
    const int64_t width = n_valid - j >= strip ? strip : last_width;
    pack(k0, kc, n0 + j, std::min(width, n_valid - j), width, dst + j * kc);
  }
}

void MatrixPanelSource::pack_strips(int64_t k0, int64_t kc, int64_t n0, int64_t n_valid, int64_t strip,
                                    int64_t last_width, float* dst) const {
  const MatrixRef& B = m_;
  if (B.cs != 1) {
    BPanelSource::pack_strips(k0, kc, n0, n_valid, strip, last_width, dst);
    return;
  }
  // Rows contiguous: walk B row by row (one long sequential read per k, which the prefetchers
  // follow) and deal each row out to the strips, instead of strip by strip (kc short reads
  // a row pitch apart per strip, which measured 2-3x slower from DRAM).
  const int64_t full = n_valid / strip;  // whole strips
  const int64_t tail = n_valid - full * strip;
  const float* src = B.data + k0 * B.rs + n0;
  switch (strip) {  // the micro-kernels' strip widths: fixed-size copies the compiler unrolls
    case 16: deal_rows<16>(src, B.rs, kc, full, dst); break;
    case 24: deal_rows<24>(src, B.rs, kc, full, dst); break;
    case 48: deal_rows<48>(src, B.rs, kc, full, dst); break;
    case 1:  // one-column strips (a product's last 1-4 columns): a call per float would cost more than the copy
      for (int64_t k = 0; k < kc; ++k)
        for (int64_t s = 0; s < full; ++s) dst[s * kc + k] = src[k * B.rs + s];
      break;
    default:
      for (int64_t k = 0; k < kc; ++k)
        for (int64_t s = 0; s < full; ++s)
          std::memcpy(dst + s * strip * kc + k * strip, src + k * B.rs + s * strip, strip * sizeof(float));
  }
  if (tail) {
    // A few floats per row (49 = 2 x 24 + 1 columns): copied in place, not by a memcpy call per row.
    float* t = dst + full * strip * kc;
    const float* row = src + full * strip;
    for (int64_t k = 0; k < kc; ++k, t += last_width, row += B.rs) {
      for (int64_t j = 0; j < tail; ++j) t[j] = row[j];
      for (int64_t j = tail; j < last_width; ++j) t[j] = 0.f;
    }
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

void HalfRowsPanelSource::pack(int64_t k0, int64_t kc, int64_t n0, int64_t n_valid, int64_t width, float* dst) const {
  for (int64_t k = 0; k < kc; ++k) {
    float* d = dst + k * width;
    half_or_bf16_to_float_n(bf16_, data_ + (k0 + k) * ld_ + n0, d, static_cast<size_t>(n_valid));
    std::fill(d + n_valid, d + width, 0.f);
  }
}

void HalfRowsPanelSource::pack_strips(int64_t k0, int64_t kc, int64_t n0, int64_t n_valid, int64_t strip,
                                      int64_t last_width, float* dst) const {
  // Row by row, as MatrixPanelSource: one sequential read of each row, widened straight into its strips.
  const int64_t full = n_valid / strip, tail = n_valid - full * strip;
  for (int64_t k = 0; k < kc; ++k) {
    const uint16_t* row = data_ + (k0 + k) * ld_ + n0;
    for (int64_t s = 0; s < full; ++s)
      half_or_bf16_to_float_n(bf16_, row + s * strip, dst + s * strip * kc + k * strip, static_cast<size_t>(strip));
    if (tail) {
      float* t = dst + full * strip * kc + k * last_width;
      half_or_bf16_to_float_n(bf16_, row + full * strip, t, static_cast<size_t>(tail));
      std::fill(t + tail, t + last_width, 0.f);
    }
  }
}

}  // namespace acl_sim
