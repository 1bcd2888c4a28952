// Element type conversion between every supported aclDataType (the Cast op and
// internal dtype normalisation, e.g. Pow's exponent).
#pragma once

#include "kernels/elementwise_common.h"

namespace acl_sim::kern {

namespace cast_detail {
template <class T>
constexpr bool is_f16ish_v = std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>;
}  // namespace cast_detail

/** Converts n contiguous elements from S to D on the calling thread (the per-block step of cast_elements,
 *  same rounding rules), for callers that already run inside a parallel block. */
template <class S, class D>
inline void cast_block(const S* s, D* d, int64_t n) {
  if constexpr (std::is_same_v<S, D>) {
    std::memcpy(d, s, static_cast<size_t>(n) * sizeof(S));
  } else if constexpr (cast_detail::is_f16ish_v<S> && std::is_same_v<D, float>) {
    widen(s, d, static_cast<size_t>(n));  // a model's fp16 boundary casts: no staging tile
  } else if constexpr (std::is_same_v<S, float> && cast_detail::is_f16ish_v<D>) {
    narrow(s, d, static_cast<size_t>(n));
  } else if constexpr (cast_detail::is_f16ish_v<S>) {
    constexpr int64_t kTile = 1024;
    float buf[kTile];
    for (int64_t i = 0; i < n; i += kTile) {
      int64_t m = std::min(kTile, n - i);
      widen(s + i, buf, static_cast<size_t>(m));
      cast_block(buf, d + i, m);
    }
  } else if constexpr (cast_detail::is_f16ish_v<D>) {
    constexpr int64_t kTile = 1024;
    float buf[kTile];
    for (int64_t i = 0; i < n; i += kTile) {
      int64_t m = std::min(kTile, n - i);
      cast_block(s + i, buf, m);
      narrow(buf, d + i, static_cast<size_t>(m));
    }
  } else if constexpr (std::is_same_v<D, bool>) {
    for (int64_t i = 0; i < n; ++i) d[i] = s[i] != S(0);
  } else if constexpr (std::is_floating_point_v<S> && std::is_integral_v<D>) {
    // NaN and out-of-range values have no defined integer; give 0 / saturate instead of UB.
    for (int64_t i = 0; i < n; ++i) {
      S v = s[i];
      D r;
      if (!(v == v)) r = 0;
      else if (v <= static_cast<S>(std::numeric_limits<D>::lowest())) r = std::numeric_limits<D>::lowest();
      else if (v >= static_cast<S>(std::numeric_limits<D>::max())) r = std::numeric_limits<D>::max();
      else r = static_cast<D>(v);
      d[i] = r;
    }
  } else {
    for (int64_t i = 0; i < n; ++i) d[i] = static_cast<D>(s[i]);
  }
}

/** Converts n elements from src (dtype sdt) to dst (dtype ddt), tiled over the pool. Floats to integers
 *  truncate toward zero; anything to bool is `!= 0`; float16/bfloat16 round to nearest even.
 *  Throws ACL_ERROR_UNSUPPORTED_DATA_TYPE (naming ctx.op_type) for other dtypes. */
void cast_elements(const OpContext& ctx, const void* src, int sdt, void* dst, int ddt, int64_t n);

}  // namespace acl_sim::kern
