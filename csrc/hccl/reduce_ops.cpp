#include "hccl/reduce_ops.h"

#include <algorithm>
#include <cstring>
#include <type_traits>

#include "common/error.h"
#include "common/fp16.h"

namespace acl_sim::hccl {
namespace {

// Work in blocks that stay in L1: each source block is folded into an
// accumulator that is written to dst only at the end, which makes in-place
// (dst == one of the sources) safe.
constexpr size_t kBlockBytes = 8192;

// Integer arithmetic wraps like the device's: compute in a wide unsigned type
// (no signed-overflow UB, no int promotion surprises for 16-bit products).
template <class T>
using Wide = std::conditional_t<(sizeof(T) > 8), unsigned __int128, uint64_t>;

template <class T>
struct Sum {
  static T apply(T a, T b) {
    if constexpr (std::is_integral_v<T> || std::is_same_v<T, __int128>) {
      return static_cast<T>(static_cast<Wide<T>>(a) + static_cast<Wide<T>>(b));
    } else {
      return a + b;
    }
  }
};
template <class T>
struct Prod {
  static T apply(T a, T b) {
    if constexpr (std::is_integral_v<T> || std::is_same_v<T, __int128>) {
      return static_cast<T>(static_cast<Wide<T>>(a) * static_cast<Wide<T>>(b));
    } else {
      return a * b;
    }
  }
};
template <class T>
struct Max {
  static T apply(T a, T b) { return a < b ? b : a; }
};
template <class T>
struct Min {
  static T apply(T a, T b) { return b < a ? b : a; }
};

template <class T, template <class> class Op>
void fold(T* __restrict acc, const T* __restrict src, size_t m) {
  for (size_t i = 0; i < m; ++i) acc[i] = Op<T>::apply(acc[i], src[i]);
}

template <class T, template <class> class Op>
void reduce_typed(void* dst_v, const void* const* srcs, size_t nsrc, size_t count) {
  constexpr size_t kBlock = kBlockBytes / sizeof(T);
  alignas(64) T acc[kBlock];
  T* dst = static_cast<T*>(dst_v);
  for (size_t base = 0; base < count; base += kBlock) {
    const size_t m = std::min(kBlock, count - base);
    std::memcpy(acc, static_cast<const T*>(srcs[0]) + base, m * sizeof(T));
    for (size_t k = 1; k < nsrc; ++k) fold<T, Op>(acc, static_cast<const T*>(srcs[k]) + base, m);
    std::memcpy(dst + base, acc, m * sizeof(T));
  }
}

// fp16 / bf16: widen each source block to fp32, fold in fp32, narrow once.
template <template <class> class Op, bool kBf16>
void reduce_half(void* dst_v, const void* const* srcs, size_t nsrc, size_t count) {
  constexpr size_t kBlock = kBlockBytes / sizeof(float);
  alignas(64) float acc[kBlock];
  alignas(64) float tmp[kBlock];
  auto widen = [](const uint16_t* s, float* d, size_t m) {
    if constexpr (kBf16) bf16_to_float_n(s, d, m); else half_to_float_n(s, d, m);
  };
  uint16_t* dst = static_cast<uint16_t*>(dst_v);
  for (size_t base = 0; base < count; base += kBlock) {
    const size_t m = std::min(kBlock, count - base);
    widen(static_cast<const uint16_t*>(srcs[0]) + base, acc, m);
    for (size_t k = 1; k < nsrc; ++k) {
      widen(static_cast<const uint16_t*>(srcs[k]) + base, tmp, m);
      fold<float, Op>(acc, tmp, m);
    }
    if constexpr (kBf16) float_to_bf16_n(acc, dst + base, m); else float_to_half_n(acc, dst + base, m);
  }
}

using ReduceFn = void (*)(void*, const void* const*, size_t, size_t);

template <template <class> class Op>
ReduceFn pick(HcclDataType dt) {
  switch (dt) {
    case HCCL_DATA_TYPE_INT8: return reduce_typed<int8_t, Op>;
    case HCCL_DATA_TYPE_INT16: return reduce_typed<int16_t, Op>;
    case HCCL_DATA_TYPE_INT32: return reduce_typed<int32_t, Op>;
    case HCCL_DATA_TYPE_INT64: return reduce_typed<int64_t, Op>;
    case HCCL_DATA_TYPE_UINT8: return reduce_typed<uint8_t, Op>;
    case HCCL_DATA_TYPE_UINT16: return reduce_typed<uint16_t, Op>;
    case HCCL_DATA_TYPE_UINT32: return reduce_typed<uint32_t, Op>;
    case HCCL_DATA_TYPE_UINT64: return reduce_typed<uint64_t, Op>;
    case HCCL_DATA_TYPE_INT128: return reduce_typed<__int128, Op>;
    case HCCL_DATA_TYPE_FP32: return reduce_typed<float, Op>;
    case HCCL_DATA_TYPE_FP64: return reduce_typed<double, Op>;
    case HCCL_DATA_TYPE_FP16: return reduce_half<Op, false>;
    case HCCL_DATA_TYPE_BFP16: return reduce_half<Op, true>;
    default: return nullptr;
  }
}

}  // namespace

size_t dtype_size(HcclDataType dt) {
  switch (dt) {
    case HCCL_DATA_TYPE_INT8: case HCCL_DATA_TYPE_UINT8: case HCCL_DATA_TYPE_HIF8:
    case HCCL_DATA_TYPE_FP8E4M3: case HCCL_DATA_TYPE_FP8E5M2: case HCCL_DATA_TYPE_FP8E8M0:
      return 1;
    case HCCL_DATA_TYPE_INT16: case HCCL_DATA_TYPE_UINT16: case HCCL_DATA_TYPE_FP16: case HCCL_DATA_TYPE_BFP16:
      return 2;
    case HCCL_DATA_TYPE_INT32: case HCCL_DATA_TYPE_UINT32: case HCCL_DATA_TYPE_FP32:
      return 4;
    case HCCL_DATA_TYPE_INT64: case HCCL_DATA_TYPE_UINT64: case HCCL_DATA_TYPE_FP64:
      return 8;
    case HCCL_DATA_TYPE_INT128:
      return 16;
    default:
      fail(HCCL_E_PARA, "data type ", static_cast<int>(dt), " is not an HcclDataType (0-12, 14-17)");
  }
}

const char* dtype_name(HcclDataType dt) {
  switch (dt) {
    case HCCL_DATA_TYPE_INT8: return "int8";
    case HCCL_DATA_TYPE_INT16: return "int16";
    case HCCL_DATA_TYPE_INT32: return "int32";
    case HCCL_DATA_TYPE_FP16: return "fp16";
    case HCCL_DATA_TYPE_FP32: return "fp32";
    case HCCL_DATA_TYPE_INT64: return "int64";
    case HCCL_DATA_TYPE_UINT64: return "uint64";
    case HCCL_DATA_TYPE_UINT8: return "uint8";
    case HCCL_DATA_TYPE_UINT16: return "uint16";
    case HCCL_DATA_TYPE_UINT32: return "uint32";
    case HCCL_DATA_TYPE_FP64: return "fp64";
    case HCCL_DATA_TYPE_BFP16: return "bfp16";
    case HCCL_DATA_TYPE_INT128: return "int128";
    case HCCL_DATA_TYPE_HIF8: return "hif8";
    case HCCL_DATA_TYPE_FP8E4M3: return "fp8e4m3";
    case HCCL_DATA_TYPE_FP8E5M2: return "fp8e5m2";
    case HCCL_DATA_TYPE_FP8E8M0: return "fp8e8m0";
    default: return "unknown";
  }
}

const char* op_name(HcclReduceOp op) {
  switch (op) {
    case HCCL_REDUCE_SUM: return "sum";
    case HCCL_REDUCE_PROD: return "prod";
    case HCCL_REDUCE_MAX: return "max";
    case HCCL_REDUCE_MIN: return "min";
    default: return "unknown";
  }
}

void widen_half(const void* src, float* dst, size_t count, HcclDataType dt) {
  half_or_bf16_to_float_n(dt == HCCL_DATA_TYPE_BFP16, static_cast<const uint16_t*>(src), dst, count);
}

void narrow_half(const float* src, void* dst, size_t count, HcclDataType dt) {
  float_to_half_or_bf16_n(dt == HCCL_DATA_TYPE_BFP16, src, static_cast<uint16_t*>(dst), count);
}

bool dtype_reducible(HcclDataType dt) { return pick<Sum>(dt) != nullptr; }

void check_reduction(HcclDataType dt, HcclReduceOp op) {
  dtype_size(dt);
  ACL_SIM_REQUIRE(op >= HCCL_REDUCE_SUM && op <= HCCL_REDUCE_MIN, HCCL_E_PARA, "reduce op ",
                  static_cast<int>(op), " is not an HcclReduceOp (SUM 0, PROD 1, MAX 2, MIN 3)");
  ACL_SIM_REQUIRE(dtype_reducible(dt), HCCL_E_NOT_SUPPORT, "reductions are not supported for data type ",
                  dtype_name(dt), " (only data movement: broadcast, allgather, alltoall, send/recv)");
}

void reduce_sources(void* dst, const void* const* srcs, size_t nsrc, size_t count, HcclDataType dt,
                    HcclReduceOp op) {
  ReduceFn fn = nullptr;
  switch (op) {
    case HCCL_REDUCE_SUM: fn = pick<Sum>(dt); break;
    case HCCL_REDUCE_PROD: fn = pick<Prod>(dt); break;
    case HCCL_REDUCE_MAX: fn = pick<Max>(dt); break;
    case HCCL_REDUCE_MIN: fn = pick<Min>(dt); break;
    default: break;
  }
  if (!fn) check_reduction(dt, op);  // throws the precise error
  if (count == 0) return;
  fn(dst, srcs, nsrc, count);
}

}  // namespace acl_sim::hccl
