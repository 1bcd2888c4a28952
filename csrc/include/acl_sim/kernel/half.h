/**
 * @file half.h
 * `half`: IEEE 754 binary16 storage with float arithmetic, as kernels use it.
 *
 * Arithmetic goes through float and rounds back to half (round to nearest,
 * ties to even). For + - * / on two halves this equals a native fp16
 * operation, because float carries more than 2*11+2 significand bits.
 */
#ifndef ACL_SIM_KERNEL_HALF_H_
#define ACL_SIM_KERNEL_HALF_H_

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace acl_sim {
namespace kernel {

/** float -> binary16 bits, round to nearest even; overflow gives inf, NaN stays NaN. */
inline uint16_t float_to_half_bits(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  const uint32_t sign = (x >> 16) & 0x8000u;
  const uint32_t absx = x & 0x7fffffffu;
  if (absx >= 0x7f800000u) {  // inf or NaN
    return static_cast<uint16_t>(sign | 0x7c00u | (absx > 0x7f800000u ? 0x200u | ((absx >> 13) & 0x3ffu) : 0u));
  }
  if (absx >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // rounds past 65504
  if (absx < 0x38800000u) {  // result is subnormal or zero
    if (absx < 0x33000000u) return static_cast<uint16_t>(sign);  // below half of the smallest subnormal
    const uint32_t exp = absx >> 23;
    const uint32_t mant = (absx & 0x7fffffu) | 0x800000u;
    const uint32_t shift = 126u - exp;  // 14..24 for exp in [102,112]
    uint32_t h = mant >> shift;
    const uint32_t rem = mant & ((1u << shift) - 1u);
    const uint32_t halfway = 1u << (shift - 1u);
    if (rem > halfway || (rem == halfway && (h & 1u))) ++h;
    return static_cast<uint16_t>(sign | h);
  }
  uint32_t h = ((absx - 0x38000000u) >> 13);  // rebias exponent 127 -> 15
  const uint32_t rem = absx & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) ++h;
  return static_cast<uint16_t>(sign | h);
}

/** binary16 bits -> float (exact). */
inline float half_bits_to_float(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1fu;
  uint32_t mant = h & 0x3ffu;
  uint32_t x;
  if (exp == 0x1fu) {
    x = sign | 0x7f800000u | (mant << 13);
  } else if (exp == 0) {
    if (mant == 0) {
      x = sign;
    } else {  // subnormal: normalise
      int e = -1;
      do {
        mant <<= 1;
        ++e;
      } while ((mant & 0x400u) == 0);
      x = sign | ((112u - e) << 23) | ((mant & 0x3ffu) << 13);
    }
  } else {
    x = sign | ((exp + 112u) << 23) | (mant << 13);
  }
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

}  // namespace kernel
}  // namespace acl_sim

/** The kernel-side fp16 type (Ascend C's `half`). 2 bytes, trivially copyable. */
struct half {
  uint16_t bits;

  half() = default;
  /** From any arithmetic value, rounded to nearest even (implicit, like the NPU type). */
  template <class A, class = std::enable_if_t<std::is_arithmetic_v<A>>>
  half(A v) : bits(acl_sim::kernel::float_to_half_bits(static_cast<float>(v))) {}  // NOLINT
  operator float() const { return acl_sim::kernel::half_bits_to_float(bits); }  // NOLINT

  static half from_bits(uint16_t b) {
    half h;
    h.bits = b;
    return h;
  }
  half& operator+=(half o) { return *this = half(float(*this) + float(o)); }
  half& operator-=(half o) { return *this = half(float(*this) - float(o)); }
  half& operator*=(half o) { return *this = half(float(*this) * float(o)); }
  half& operator/=(half o) { return *this = half(float(*this) / float(o)); }
};

inline half operator+(half a, half b) { return half(float(a) + float(b)); }
inline half operator-(half a, half b) { return half(float(a) - float(b)); }
inline half operator*(half a, half b) { return half(float(a) * float(b)); }
inline half operator/(half a, half b) { return half(float(a) / float(b)); }
inline half operator-(half a) { return half::from_bits(static_cast<uint16_t>(a.bits ^ 0x8000u)); }

static_assert(sizeof(half) == 2, "half must be 2 bytes");

#endif  // ACL_SIM_KERNEL_HALF_H_
