// Shared plumbing for the elementwise / data-movement / reduction kernels:
// dtype tags and dispatch, input validation helpers, block tiling over the
// host ThreadPool, and per-ISA multiversioning of hot loops.
//
// Multiversioning: a hot loop is written once as an always-inline functor;
// isa_call() instantiates it inside an AVX-512, an AVX2+FMA and a portable
// wrapper (GCC inlines the default-target functor into each, so the same
// source is auto-vectorised three times) and picks one per CPU at run time
// (kernels/isa_target.h).
#pragma once

// Without this, GCC keeps the selects in the float math (clamps, NaN checks) as
// branches under -ftrapping-math and the AVX2 / SSE loops stay scalar; only the
// FP-exception flags change, never a result. Applies to the kernel files that
// include this header (all of them are elementwise-style kernels).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("no-trapping-math")
#endif

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "acl/acl_base.h"
#include "common/error.h"
#include "executor/thread_pool.h"
#include "common/fp16.h"
#include "kernels/isa_target.h"
#include "kernels/op_registry.h"

#define ACL_SIM_INLINE __attribute__((always_inline)) inline

namespace acl_sim::kern {

// ---------------------------------------------------------------- dtypes

/** Storage tags for the 16-bit float types (computed in float). */
struct Half { uint16_t bits; };
struct BFloat16 { uint16_t bits; };

/** Calls f(T{}) with T the C type of dtype (Half/BFloat16 for the 16-bit floats, bool for ACL_BOOL).
 *  Throws ACL_ERROR_UNSUPPORTED_DATA_TYPE for anything else. */
template <class F>
decltype(auto) dispatch_dtype(int dt, const char* op, F&& f) {
  switch (dt) {
    case ACL_FLOAT: return f(float{});
    case ACL_FLOAT16: return f(Half{});
    case ACL_BF16: return f(BFloat16{});
    case ACL_DOUBLE: return f(double{});
    case ACL_INT8: return f(int8_t{});
    case ACL_UINT8: return f(uint8_t{});
    case ACL_INT16: return f(int16_t{});
    case ACL_UINT16: return f(uint16_t{});
    case ACL_INT32: return f(int32_t{});
    case ACL_UINT32: return f(uint32_t{});
    case ACL_INT64: return f(int64_t{});
    case ACL_UINT64: return f(uint64_t{});
    case ACL_BOOL: return f(bool{});
    default: fail(ACL_ERROR_UNSUPPORTED_DATA_TYPE, op, ": unsupported dtype ", dtype_name(dt));
  }
}

/** Scalar load/store of any storage type through double (for slow paths, scalars and attributes). */
template <class T>
ACL_SIM_INLINE double load_as_double(const T* p) {
  if constexpr (std::is_same_v<T, Half>) return half_to_float(p->bits);
  else if constexpr (std::is_same_v<T, BFloat16>) return bf16_to_float(p->bits);
  else return static_cast<double>(*p);
}
template <class T>
ACL_SIM_INLINE void store_from_double(T* p, double v) {
  if constexpr (std::is_same_v<T, Half>) p->bits = float_to_half(static_cast<float>(v));
  else if constexpr (std::is_same_v<T, BFloat16>) p->bits = float_to_bf16(static_cast<float>(v));
  else if constexpr (std::is_same_v<T, bool>) *p = v != 0;
  else *p = static_cast<T>(v);
}

/** Reads element i of a tensor of any numeric dtype as double / int64 (scalar inputs such as axes, k, pads). */
double scalar_as_double(const TensorView& t, int64_t i = 0);
int64_t scalar_as_int(const TensorView& t, int64_t i = 0);
/** All elements of an integer tensor (int32/int64) as int64. */
std::vector<int64_t> tensor_as_ints(const TensorView& t, const char* op, const char* what);

/** Widen n values of a 16-bit float tensor to float, and narrow back. */
inline void widen(const Half* s, float* d, size_t n) { half_to_float_n(&s->bits, d, n); }
inline void widen(const BFloat16* s, float* d, size_t n) { bf16_to_float_n(&s->bits, d, n); }
inline void narrow(const float* s, Half* d, size_t n) { float_to_half_n(s, &d->bits, n); }
inline void narrow(const float* s, BFloat16* d, size_t n) { float_to_bf16_n(s, &d->bits, n); }

// ---------------------------------------------------------------- validation

/** Throws ACL_ERROR_OP_INPUT_NOT_MATCH unless the op has at least `min_in` inputs present
 *  (input 0..min_in-1) and `min_out` outputs. */
void require_io(const OpContext& ctx, size_t min_in, size_t min_out);
/** Input i, present, or throws ACL_ERROR_OP_INPUT_NOT_MATCH. */
const TensorView& input(const OpContext& ctx, size_t i);
/** Input i if given and present, else nullptr. */
const TensorView* optional_input(const OpContext& ctx, size_t i);
TensorView& output(OpContext& ctx, size_t i);
/** Throws ACL_ERROR_OP_OUTPUT_NOT_MATCH unless out.shape == shape (names the op). */
void require_shape(const OpContext& ctx, const TensorView& t, const std::vector<int64_t>& shape, const char* what);
void require_same_dtype(const OpContext& ctx, const TensorView& a, const TensorView& b, const char* what);
/** Normalise a possibly negative axis into [0, rank) (rank 0 accepts -1/0 when allow_scalar). */
int64_t normalize_axis(const OpContext& ctx, int64_t axis, int64_t rank);
std::string shape_str(const std::vector<int64_t>& s);
const Attrs& attrs_of(const OpContext& ctx);

inline int64_t prod(const std::vector<int64_t>& v, size_t from = 0, size_t to = SIZE_MAX) {
  int64_t n = 1;
  const size_t end = std::min(to, v.size());
  for (size_t i = from; i < end; ++i) n *= v[i];
  return n;
}

// ---------------------------------------------------------------- tiling

/** Elements per block for memory-bound kernels: big enough to amortise the pool, small enough to balance. */
constexpr int64_t kBlockElems = 32768;

/** Runs f(begin, end) over [0, n) in blocks of about `grain` indices on the ThreadPool.
 *  Small ranges run inline on the caller. */
template <class F>
void parallel_blocks(int64_t n, int64_t grain, F&& f) {
  if (n <= 0) return;
  grain = std::max<int64_t>(grain, 1);
  int64_t blocks = (n + grain - 1) / grain;
  if (blocks <= 1) return f(int64_t{0}, n);
  // Spread evenly so the last block is not a sliver.
  int64_t per = (n + blocks - 1) / blocks;
  ThreadPool::instance().parallel_for(static_cast<size_t>(blocks), [&](size_t b) {
    int64_t begin = static_cast<int64_t>(b) * per;
    int64_t end = std::min(n, begin + per);
    if (begin < end) f(begin, end);
  });
}

/** Grain (in rows) so that a block holds about kBlockElems elements of `row` elements each. */
inline int64_t rows_grain(int64_t row) { return std::max<int64_t>(1, kBlockElems / std::max<int64_t>(row, 1)); }

/** Copy bytes in parallel blocks (no-op when src == dst). */
void parallel_copy(void* dst, const void* src, size_t bytes);

}  // namespace acl_sim::kern
