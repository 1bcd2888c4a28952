// IEEE binary16 (aclFloat16 / ACL_FLOAT16) and bfloat16 (ACL_BF16) <-> float32.
//
// Scalar conversions are bit-exact (round to nearest even, NaN stays NaN,
// subnormals kept) and portable. The *_n bulk conversions use F16C (8 values
// per instruction) when the CPU has it, and the scalar path otherwise; kernels
// use them to widen fp16 tiles to fp32 for computation and narrow results back.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define ACL_SIM_X86 1
#endif

namespace acl_sim {

inline uint32_t float_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
inline float bits_float(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

/** binary16 bits -> float (exact). */
inline float half_to_float(uint16_t h) {
  uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1fu;
  uint32_t man = h & 0x3ffu;
  if (exp == 0x1f) return bits_float(sign | 0x7f800000u | (man << 13));  // inf / nan
  if (exp == 0) {
    if (man == 0) return bits_float(sign);
    // Subnormal: value = man * 2^-24, exact in float.
    float v = static_cast<float>(man) * 5.9604644775390625e-8f;
    return sign ? -v : v;
  }
  return bits_float(sign | ((exp + 112) << 23) | (man << 13));
}

/** float -> binary16 bits, round to nearest even; overflow -> inf; NaN -> quiet NaN. */
inline uint16_t float_to_half(float f) {
  uint32_t u = float_bits(f);
  uint16_t sign = static_cast<uint16_t>((u >> 16) & 0x8000u);
  uint32_t abs = u & 0x7fffffffu;
  if (abs >= 0x7f800000u) return sign | (abs > 0x7f800000u ? 0x7e00u | ((abs >> 13) & 0x3ffu) : 0x7c00u);
  if (abs >= 0x477ff000u) return sign | 0x7c00u;  // rounds to >= 65520 -> inf
  if (abs < 0x38800000u) {
    // Result is subnormal (or zero): let float addition do the rounding, since
    // adding 0.5 (2^-1) aligns the binary16 subnormal LSB (2^-24) to float's LSB.
    float a = bits_float(abs) + 0.5f;
    return sign | static_cast<uint16_t>(float_bits(a) - 0x3f000000u);
  }
  uint32_t odd = (abs >> 13) & 1u;
  abs += 0xc8000fffu + odd;  // rebias exponent (-112 << 23) and round to nearest even
  return sign | static_cast<uint16_t>(abs >> 13);
}

/** bfloat16 bits -> float (exact). */
inline float bf16_to_float(uint16_t b) { return bits_float(static_cast<uint32_t>(b) << 16); }

/** float -> bfloat16 bits, round to nearest even; NaN stays a quiet NaN. */
inline uint16_t float_to_bf16(float f) {
  uint32_t u = float_bits(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((u >> 16) | 0x40u);
  u += 0x7fffu + ((u >> 16) & 1u);
  return static_cast<uint16_t>(u >> 16);
}

namespace fp16_detail {
inline bool has_f16c() {
#if defined(ACL_SIM_X86)
  static const bool yes = __builtin_cpu_supports("f16c") && __builtin_cpu_supports("avx");
  return yes;
#else
  return false;
#endif
}
#if defined(ACL_SIM_X86)
__attribute__((target("avx,f16c"))) inline void half_to_float_f16c(const uint16_t* src, float* dst, size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm256_storeu_ps(dst + i, _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i))));
  for (; i < n; ++i) dst[i] = half_to_float(src[i]);
}
__attribute__((target("avx,f16c"))) inline void float_to_half_f16c(const float* src, uint16_t* dst, size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + i),
                     _mm256_cvtps_ph(_mm256_loadu_ps(src + i), _MM_FROUND_TO_NEAREST_INT));
  for (; i < n; ++i) dst[i] = float_to_half(src[i]);
}
#endif
}  // namespace fp16_detail

/** Widen n binary16 values to float (F16C when available). src/dst may be unaligned. */
inline void half_to_float_n(const uint16_t* src, float* dst, size_t n) {
#if defined(ACL_SIM_X86)
  if (fp16_detail::has_f16c()) return fp16_detail::half_to_float_f16c(src, dst, n);
#endif
  for (size_t i = 0; i < n; ++i) dst[i] = half_to_float(src[i]);
}

/** Narrow n floats to binary16 with round-to-nearest-even (F16C when available). */
inline void float_to_half_n(const float* src, uint16_t* dst, size_t n) {
#if defined(ACL_SIM_X86)
  if (fp16_detail::has_f16c()) return fp16_detail::float_to_half_f16c(src, dst, n);
#endif
  for (size_t i = 0; i < n; ++i) dst[i] = float_to_half(src[i]);
}

/** Widen n bfloat16 values to float. */
inline void bf16_to_float_n(const uint16_t* src, float* dst, size_t n) {
  for (size_t i = 0; i < n; ++i) dst[i] = bf16_to_float(src[i]);
}

/** Narrow n floats to bfloat16 (round to nearest even). */
inline void float_to_bf16_n(const float* src, uint16_t* dst, size_t n) {
  for (size_t i = 0; i < n; ++i) dst[i] = float_to_bf16(src[i]);
}

/** Widen n 16-bit floats: bfloat16 when bf16, else binary16. */
inline void half_or_bf16_to_float_n(bool bf16, const uint16_t* src, float* dst, size_t n) {
  if (bf16) bf16_to_float_n(src, dst, n);
  else half_to_float_n(src, dst, n);
}

/** Narrow n floats to bfloat16 when bf16, else to binary16 (round to nearest even). */
inline void float_to_half_or_bf16_n(bool bf16, const float* src, uint16_t* dst, size_t n) {
  if (bf16) float_to_bf16_n(src, dst, n);
  else float_to_half_n(src, dst, n);
}

}  // namespace acl_sim
