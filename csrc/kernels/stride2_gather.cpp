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
  if (j < n) gather_scalar(src + 2 * j, n - j, dst + j);
}

ACL_SIM_TARGET_AVX2 void gather_avx2(const float* src, int64_t n, float* dst) {
  int64_t j = 0;
  for (; j + 8 <= n; j += 8) {
    const float* p = src + 2 * j;
    const __m256i last7 = _mm256_setr_epi32(-1, -1, -1, -1, -1, -1, -1, 0);  // p[15] is not read
    const __m256 a = _mm256_loadu_ps(p), b = j + 8 < n ? _mm256_loadu_ps(p + 8) : _mm256_maskload_ps(p + 8, last7);
    _mm256_storeu_ps(dst + j, simd::V8::evens(a, b));
  }
  if (j < n) gather_scalar(src + 2 * j, n - j, dst + j);
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
