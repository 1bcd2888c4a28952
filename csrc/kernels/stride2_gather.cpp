// gather_stride2_f32: see stride2_gather.h.
#include "kernels/stride2_gather.h"

#include <algorithm>

#include "kernels/cpu_features.h"
#include "kernels/gemm_simd.h"

namespace acl_sim {
namespace {

void gather_scalar(const float* src, int64_t n, float* dst) {
  for (int64_t j = 0; j < n; ++j) dst[j] = src[2 * j];
}

#if defined(__x86_64__)
ACL_SIM_TARGET_AVX512 void gather_avx512(const float* src, int64_t n, float* dst) {
  int64_t j = 0;
  for (; j + 16 <= n; j += 16) {
    const float* p = src + 2 * j;
    // The last even element is p[30]: the last vector's second load stops there rather than reading p[31]
    // (masked only there: AMD's masked loads are slow).
    const __m512 hi = j + 16 < n ? _mm512_loadu_ps(p + 16) : _mm512_maskz_loadu_ps(0x7fff, p + 16);
    _mm512_storeu_ps(dst + j, simd::V16::evens(_mm512_loadu_ps(p), hi));
  }
  if (j == n) return;
  // The last 1..15 outputs read p[0 .. 2r - 2]: masked loads of those lanes only, one masked store. (Rows of
  // im2col's stride-2 runs are 7..28 outputs long, half of them in this tail.)
  const int64_t r = n - j, span = 2 * r - 1;
  const float* p = src + 2 * j;
  const __mmask16 lo_mask = static_cast<__mmask16>(span >= 16 ? 0xffff : (1u << span) - 1u);
  const __mmask16 hi_mask = static_cast<__mmask16>(span > 16 ? (1u << (span - 16)) - 1u : 0u);
  const __m512 v = simd::V16::evens(_mm512_maskz_loadu_ps(lo_mask, p), _mm512_maskz_loadu_ps(hi_mask, p + 16));
  _mm512_mask_storeu_ps(dst + j, static_cast<__mmask16>((1u << r) - 1u), v);
}

ACL_SIM_TARGET_AVX2 void gather_avx2(const float* src, int64_t n, float* dst) {
  int64_t j = 0;
  for (; j + 8 <= n; j += 8) {
    const float* p = src + 2 * j;
    const __m256i last7 = _mm256_setr_epi32(-1, -1, -1, -1, -1, -1, -1, 0);  // p[15] is not read
    const __m256 a = _mm256_loadu_ps(p), b = j + 8 < n ? _mm256_loadu_ps(p + 8) : _mm256_maskload_ps(p + 8, last7);
    _mm256_storeu_ps(dst + j, simd::V8::evens(a, b));
  }
  if (j < n) gather_scalar(src + 2 * j, n - j, dst + j);  // masked AVX2 moves measured slower (im2col's 7, 14)
}
#endif

using GatherFn = void (*)(const float*, int64_t, float*);

GatherFn pick_gather() {
#if defined(__x86_64__)
  switch (cpu_features().isa) {
    case KernelIsa::kAvx512: return gather_avx512;
    case KernelIsa::kAvx2: return gather_avx2;
    default: break;
  }
#endif
  return gather_scalar;
}

}  // namespace

// Chosen once: it is called per row of every phase plane.
void gather_stride2_f32(const float* src, int64_t n, float* dst) {
  static const GatherFn fn = pick_gather();
  fn(src, n, dst);
}

}  // namespace acl_sim
