// The binary16 per-plane affine: see channel_affine_half.h.
#include "kernels/channel_affine_half.h"

#include "kernels/cpu_features.h"
#include "kernels/gemm_simd.h"

namespace acl_sim {
namespace {

#if defined(__x86_64__)
template <class V, bool kRelu>
__attribute__((always_inline)) inline void affine_half(const uint16_t* x, uint16_t* y, int64_t n, float a, float b) {
  using T = typename V::T;
  const T va = V::set1(a), vb = V::set1(b), zero = V::zero();
  int64_t i = 0;
  for (; i + V::W <= n; i += V::W) {
    T v = V::fma(V::load_half(x + i), va, vb);
    if constexpr (kRelu) v = V::max(v, zero);
    V::store_half(y + i, v);
  }
  if (i < n) {
    const int m = static_cast<int>(n - i);
    T v = V::fma(V::load_half_n(x + i, m), va, vb);
    if constexpr (kRelu) v = V::max(v, zero);
    V::store_half_n(y + i, v, m);
  }
}

ACL_SIM_TARGET_AVX512 void affine_half_avx512(const uint16_t* x, uint16_t* y, int64_t n, float a, float b, bool relu) {
  if (relu) affine_half<simd::V16, true>(x, y, n, a, b);
  else affine_half<simd::V16, false>(x, y, n, a, b);
}

ACL_SIM_TARGET_AVX2 void affine_half_avx2(const uint16_t* x, uint16_t* y, int64_t n, float a, float b, bool relu) {
  if (relu) affine_half<simd::V8, true>(x, y, n, a, b);
  else affine_half<simd::V8, false>(x, y, n, a, b);
}
#endif

}  // namespace

bool channel_affine_half_available() { return cpu_features().vector_isa(); }

void channel_affine_half(const uint16_t* x, uint16_t* y, int64_t n, float a, float b, bool relu) {
#if defined(__x86_64__)
  if (cpu_features().isa == KernelIsa::kAvx512) affine_half_avx512(x, y, n, a, b, relu);
  else affine_half_avx2(x, y, n, a, b, relu);
#else
  (void)x, (void)y, (void)n, (void)a, (void)b, (void)relu;
#endif
}

}  // namespace acl_sim
