// Element types and reductions for HCCL collectives. Every HcclDataType the
// CPU can hold moves as bytes; the reduce ops (SUM/PROD/MAX/MIN) are defined
// for the integer types (wrapping, as on the device), fp32/fp64, and
// fp16/bf16, which are widened to fp32, combined, and rounded once.
#pragma once

#include <cstddef>
#include <cstdint>

#include "hccl/hccl_types.h"

namespace acl_sim::hccl {

/** Bytes per element of @p dt; throws Error(HCCL_E_PARA) for a value outside the enum. */
size_t dtype_size(HcclDataType dt);
/** CANN's name of @p dt ("fp32", ...) for messages; "unknown" outside the enum. */
const char* dtype_name(HcclDataType dt);
/** True when reductions are defined for @p dt (false for the fp8/hif8 formats). */
bool dtype_reducible(HcclDataType dt);
/** Throws Error(HCCL_E_PARA) unless @p op is SUM/PROD/MAX/MIN, Error(HCCL_E_NOT_SUPPORT) unless
 *  @p dt is reducible. */
void check_reduction(HcclDataType dt, HcclReduceOp op);
const char* op_name(HcclReduceOp op);

/**
 * dst[i] = op(srcs[0][i], ..., srcs[nsrc-1][i]) for i < count.
 * @p dst may alias any source (only same-index aliasing: each block is read fully before it is
 * written). fp16/bf16 accumulate in fp32 and round once, so the result does not depend on how many
 * sources are combined per call. Thread-safe (no shared state); nsrc >= 1.
 */
void reduce_sources(void* dst, const void* const* srcs, size_t nsrc, size_t count, HcclDataType dt, HcclReduceOp op);

/** fp16/bf16 (@p dt) <-> fp32 conversion of @p count elements (round to nearest even when narrowing). */
void widen_half(const void* src, float* dst, size_t count, HcclDataType dt);
void narrow_half(const float* src, void* dst, size_t count, HcclDataType dt);
inline bool is_half(HcclDataType dt) { return dt == HCCL_DATA_TYPE_FP16 || dt == HCCL_DATA_TYPE_BFP16; }

}  // namespace acl_sim::hccl
