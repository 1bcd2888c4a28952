// Thin SIMD traits (AVX-512: 16 lanes, AVX2: 8 lanes) so one templated body
// serves both instruction sets. Every member carries its target attribute, and
// callers are instantiated inside functions with the same target, so this
// header is safe to include from files compiled for plain x86-64.
#pragma once

#if defined(__x86_64__)
#include <immintrin.h>

#include <cstdint>

#include "kernels/isa_target.h"

// GCC 12 warns spuriously about _mm512_undefined_ps and about the vector ABI
// of always-inline helpers used inside target("...") functions.
#pragma GCC diagnostic ignored "-Wpsabi"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

// Members are plain inline (not always_inline): GCC refuses to force a target-specific
// body into the generic templates that call it, but inlines it once those templates
// are themselves inlined into a function with the same target.
#define ACL_SIM_INLINE inline

namespace acl_sim::simd {

struct V16 {
  using T = __m512;
  static constexpr int W = 16;
  ACL_SIM_TARGET_AVX512 static ACL_SIM_INLINE T zero() { return _mm512_setzero_ps(); }
  ACL_SIM_TARGET_AVX512 static ACL_SIM_INLINE T set1(float v) { return _mm512_set1_ps(v); }
  ACL_SIM_TARGET_AVX512 static ACL_SIM_INLINE T load(const float* p) { return _mm512_loadu_ps(p); }
  ACL_SIM_TARGET_AVX512 static ACL_SIM_INLINE T load_half(const uint16_t* p) {
    return _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
  }
  /** The binary16 p[0, n) widened; the other lanes read as 0. */
  ACL_SIM_TARGET_AVX512 static ACL_SIM_INLINE T load_half_n(const uint16_t* p, int n) {
    return _mm512_cvtph_ps(_mm256_maskz_loadu_epi16(static_cast<__mmask16>((1u << n) - 1u), p));
  }
  /** p[0] in the low half of the lanes, p[1] in the high half. */
  ACL_SIM_TARGET_AVX512 static ACL_SIM_INLINE T halves(const float* p) {
    return _mm512_mask_broadcastss_ps(_mm512_set1_ps(p[0]), 0xff00, _mm_load_ss(p + 1));
  }
  ACL_SIM_TARGET_AVX512 static ACL_SIM_INLINE void store(float* p, T v) { _mm512_storeu_ps(p, v); }
  /** Lanes [0, n) of p; the rest read as 0. */
  ACL_SIM_TARGET_AVX512 static ACL_SIM_INLINE T load_n(const float* p, int n) {
    return _mm512_maskz_loadu_ps(static_cast<__mmask16>((1u << n) - 1u), p);
  }
  ACL_SIM_TARGET_AVX512 static ACL_SIM_INLINE void store_n(float* p, T v, int n) {
    _mm512_mask_storeu_ps(p, static_cast<__mmask16>((1u << n) - 1u), v);
  }
  /** All lanes as binary16 (round to nearest even). */
  ACL_SIM_TARGET_AVX512 static ACL_SIM_INLINE void store_half(uint16_t* p, T v) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(p),
                        _mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
  }
  /** The first n lanes as binary16 (round to nearest even). */
  ACL_SIM_TARGET_AVX512 static ACL_SIM_INLINE void store_half_n(uint16_t* p, T v, int n) {
    _mm256_mask_storeu_epi16(p, static_cast<__mmask16>((1u << n) - 1u),
                             _mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
  }
  ACL_SIM_TARGET_AVX512 static ACL_SIM_INLINE T add(T a, T b) { return _mm512_add_ps(a, b); }
  ACL_SIM_TARGET_AVX512 static ACL_SIM_INLINE T sub(T a, T b) { return _mm512_sub_ps(a, b); }
  ACL_SIM_TARGET_AVX512 static ACL_SIM_INLINE T mul(T a, T b) { return _mm512_mul_ps(a, b); }
  ACL_SIM_TARGET_AVX512 static ACL_SIM_INLINE T div(T a, T b) { return _mm512_div_ps(a, b); }
  ACL_SIM_TARGET_AVX512 static ACL_SIM_INLINE T fma(T a, T b, T c) { return _mm512_fmadd_ps(a, b, c); }
  ACL_SIM_TARGET_AVX512 static ACL_SIM_INLINE T max(T a, T b) { return _mm512_max_ps(a, b); }
  ACL_SIM_TARGET_AVX512 static ACL_SIM_INLINE T min(T a, T b) { return _mm512_min_ps(a, b); }
  ACL_SIM_TARGET_AVX512 static ACL_SIM_INLINE T abs(T a) { return _mm512_abs_ps(a); }
  ACL_SIM_TARGET_AVX512 static ACL_SIM_INLINE T copysign(T mag, T sgn) {
    return _mm512_castsi512_ps(_mm512_or_si512(_mm512_castps_si512(_mm512_abs_ps(mag)),
                                               _mm512_and_si512(_mm512_castps_si512(sgn), _mm512_set1_epi32(INT32_MIN))));
  }
  /** a in the lanes whose bits m sets (m's lanes all ones or all zeros), b in the others. */
  ACL_SIM_TARGET_AVX512 static ACL_SIM_INLINE T select(T m, T a, T b) {
    const __m512i bits = _mm512_castps_si512(m);
    return _mm512_mask_blend_ps(_mm512_test_epi32_mask(bits, bits), b, a);
  }
  /** x >= 0 ? a : b */
  ACL_SIM_TARGET_AVX512 static ACL_SIM_INLINE T select_ge0(T x, T a, T b) {
    return _mm512_mask_blend_ps(_mm512_cmp_ps_mask(x, _mm512_setzero_ps(), _CMP_GE_OQ), b, a);
  }
  ACL_SIM_TARGET_AVX512 static ACL_SIM_INLINE T round(T a) { return _mm512_roundscale_ps(a, _MM_FROUND_TO_NEAREST_INT); }
  /** p * 2^n for integral n in [-127, 127]. */
  ACL_SIM_TARGET_AVX512 static ACL_SIM_INLINE T ldexp(T p, T n) { return _mm512_scalef_ps(p, n); }
  /** The even elements of the 32 floats a, b (a[0], a[2], ..., b[14]). */
  ACL_SIM_TARGET_AVX512 static ACL_SIM_INLINE T evens(T a, T b) {
    return _mm512_permutex2var_ps(a, _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30), b);
  }
  /** The odd elements of the 32 floats a, b (a[1], a[3], ..., b[15]). */
  ACL_SIM_TARGET_AVX512 static ACL_SIM_INLINE T odds(T a, T b) {
    return _mm512_permutex2var_ps(a, _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31), b);
  }
  /** Lanes K .. K + 15 of the 32-lane run a, b (K in [0, 16]). */
  template <int K>
  ACL_SIM_TARGET_AVX512 static ACL_SIM_INLINE T shift_in(T a, T b) {
    return _mm512_castsi512_ps(_mm512_alignr_epi32(_mm512_castps_si512(b), _mm512_castps_si512(a), K));
  }
  ACL_SIM_TARGET_AVX512 static ACL_SIM_INLINE float hsum(T v) { return _mm512_reduce_add_ps(v); }
  ACL_SIM_TARGET_AVX512 static ACL_SIM_INLINE float hmax(T v) { return _mm512_reduce_max_ps(v); }
};

struct V8 {
  using T = __m256;
  static constexpr int W = 8;
  ACL_SIM_TARGET_AVX2 static ACL_SIM_INLINE __m256i mask(int n) {
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  }
  ACL_SIM_TARGET_AVX2 static ACL_SIM_INLINE T zero() { return _mm256_setzero_ps(); }
  ACL_SIM_TARGET_AVX2 static ACL_SIM_INLINE T set1(float v) { return _mm256_set1_ps(v); }
  ACL_SIM_TARGET_AVX2 static ACL_SIM_INLINE T load(const float* p) { return _mm256_loadu_ps(p); }
  ACL_SIM_TARGET_AVX2 static ACL_SIM_INLINE T load_half(const uint16_t* p) {
    return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
  }
  /** The binary16 p[0, n) widened; the other lanes read as 0 (AVX2 has no 16-bit masked load). */
  ACL_SIM_TARGET_AVX2 static ACL_SIM_INLINE T load_half_n(const uint16_t* p, int n) {
    alignas(16) uint16_t h[W] = {};
    for (int i = 0; i < n; ++i) h[i] = p[i];
    return _mm256_cvtph_ps(_mm_load_si128(reinterpret_cast<const __m128i*>(h)));
  }
  /** p[0] in the low half of the lanes, p[1] in the high half. */
  ACL_SIM_TARGET_AVX2 static ACL_SIM_INLINE T halves(const float* p) {
    return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_broadcast_ss(p)), _mm_broadcast_ss(p + 1), 1);
  }
  ACL_SIM_TARGET_AVX2 static ACL_SIM_INLINE void store(float* p, T v) { _mm256_storeu_ps(p, v); }
  ACL_SIM_TARGET_AVX2 static ACL_SIM_INLINE T load_n(const float* p, int n) { return _mm256_maskload_ps(p, mask(n)); }
  ACL_SIM_TARGET_AVX2 static ACL_SIM_INLINE void store_n(float* p, T v, int n) { _mm256_maskstore_ps(p, mask(n), v); }
  /** All lanes as binary16 (round to nearest even). */
  ACL_SIM_TARGET_AVX2 static ACL_SIM_INLINE void store_half(uint16_t* p, T v) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(p), _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT));
  }
  /** The first n lanes as binary16 (round to nearest even). */
  ACL_SIM_TARGET_AVX2 static ACL_SIM_INLINE void store_half_n(uint16_t* p, T v, int n) {
    alignas(16) uint16_t h[W];
    _mm_store_si128(reinterpret_cast<__m128i*>(h), _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT));
    for (int i = 0; i < n; ++i) p[i] = h[i];
  }
  ACL_SIM_TARGET_AVX2 static ACL_SIM_INLINE T add(T a, T b) { return _mm256_add_ps(a, b); }
  ACL_SIM_TARGET_AVX2 static ACL_SIM_INLINE T sub(T a, T b) { return _mm256_sub_ps(a, b); }
  ACL_SIM_TARGET_AVX2 static ACL_SIM_INLINE T mul(T a, T b) { return _mm256_mul_ps(a, b); }
  ACL_SIM_TARGET_AVX2 static ACL_SIM_INLINE T div(T a, T b) { return _mm256_div_ps(a, b); }
  ACL_SIM_TARGET_AVX2 static ACL_SIM_INLINE T fma(T a, T b, T c) { return _mm256_fmadd_ps(a, b, c); }
  ACL_SIM_TARGET_AVX2 static ACL_SIM_INLINE T max(T a, T b) { return _mm256_max_ps(a, b); }
  ACL_SIM_TARGET_AVX2 static ACL_SIM_INLINE T min(T a, T b) { return _mm256_min_ps(a, b); }
  ACL_SIM_TARGET_AVX2 static ACL_SIM_INLINE T abs(T a) { return _mm256_andnot_ps(_mm256_set1_ps(-0.f), a); }
  ACL_SIM_TARGET_AVX2 static ACL_SIM_INLINE T copysign(T mag, T sgn) {
    T sign = _mm256_set1_ps(-0.f);
    return _mm256_or_ps(_mm256_andnot_ps(sign, mag), _mm256_and_ps(sign, sgn));
  }
  /** a in the lanes whose bits m sets (m's lanes all ones or all zeros), b in the others. */
  ACL_SIM_TARGET_AVX2 static ACL_SIM_INLINE T select(T m, T a, T b) { return _mm256_blendv_ps(b, a, m); }
  ACL_SIM_TARGET_AVX2 static ACL_SIM_INLINE T select_ge0(T x, T a, T b) {
    return _mm256_blendv_ps(b, a, _mm256_cmp_ps(x, _mm256_setzero_ps(), _CMP_GE_OQ));
  }
  ACL_SIM_TARGET_AVX2 static ACL_SIM_INLINE T round(T a) {
    return _mm256_round_ps(a, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  }
  ACL_SIM_TARGET_AVX2 static ACL_SIM_INLINE T ldexp(T p, T n) {
    __m256i e = _mm256_slli_epi32(_mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(127)), 23);
    return _mm256_mul_ps(p, _mm256_castsi256_ps(e));
  }
  /** The even elements of the 16 floats a, b (a[0], a[2], ..., b[6]). */
  ACL_SIM_TARGET_AVX2 static ACL_SIM_INLINE T evens(T a, T b) {
    const __m256 sh = _mm256_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0));
    return _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(sh), _MM_SHUFFLE(3, 1, 2, 0)));
  }
  /** The odd elements of the 16 floats a, b (a[1], a[3], ..., b[7]). */
  ACL_SIM_TARGET_AVX2 static ACL_SIM_INLINE T odds(T a, T b) {
    const __m256 sh = _mm256_shuffle_ps(a, b, _MM_SHUFFLE(3, 1, 3, 1));
    return _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(sh), _MM_SHUFFLE(3, 1, 2, 0)));
  }
  /** Lanes K .. K + 7 of the 16-lane run a, b (K in [0, 8]): (a.hi, b.lo), then a byte shift per 128-bit half. */
  template <int K>
  ACL_SIM_TARGET_AVX2 static ACL_SIM_INLINE T shift_in(T a, T b) {
    const __m256i mid = _mm256_castps_si256(_mm256_permute2f128_ps(a, b, 0x21));
    if constexpr (K == 0) return a;
    else if constexpr (K == 4) return _mm256_castsi256_ps(mid);
    else if constexpr (K == 8) return b;
    else if constexpr (K < 4) return _mm256_castsi256_ps(_mm256_alignr_epi8(mid, _mm256_castps_si256(a), 4 * K));
    else return _mm256_castsi256_ps(_mm256_alignr_epi8(_mm256_castps_si256(b), mid, 4 * (K - 4)));
  }
  ACL_SIM_TARGET_AVX2 static ACL_SIM_INLINE float hsum(T v) {
    __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    s = _mm_add_ss(s, _mm_movehdup_ps(s));
    return _mm_cvtss_f32(s);
  }
  ACL_SIM_TARGET_AVX2 static ACL_SIM_INLINE float hmax(T v) {
    __m128 s = _mm_max_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    s = _mm_max_ps(s, _mm_movehl_ps(s, s));
    s = _mm_max_ss(s, _mm_movehdup_ps(s));
    return _mm_cvtss_f32(s);
  }
};

// A kernel's elements through V: float, or binary16 widened as loaded and rounded (nearest even) as stored, so one
// templated body serves fp32 and fp16 tensors with the fp32 body's results, rounded once.
template <class V>
__attribute__((always_inline)) inline typename V::T load_elems(const float* p) { return V::load(p); }
template <class V>
__attribute__((always_inline)) inline typename V::T load_elems(const uint16_t* p) { return V::load_half(p); }
template <class V>
__attribute__((always_inline)) inline typename V::T load_elems_n(const float* p, int n) { return V::load_n(p, n); }
template <class V>
__attribute__((always_inline)) inline typename V::T load_elems_n(const uint16_t* p, int n) {
  return V::load_half_n(p, n);
}
template <class V>
__attribute__((always_inline)) inline void store_elems(float* p, typename V::T v) { V::store(p, v); }
template <class V>
__attribute__((always_inline)) inline void store_elems(uint16_t* p, typename V::T v) { V::store_half(p, v); }
template <class V>
__attribute__((always_inline)) inline void store_elems_n(float* p, typename V::T v, int n) { V::store_n(p, v, n); }
template <class V>
__attribute__((always_inline)) inline void store_elems_n(uint16_t* p, typename V::T v, int n) {
  V::store_half_n(p, v, n);
}

}  // namespace acl_sim::simd
#endif
