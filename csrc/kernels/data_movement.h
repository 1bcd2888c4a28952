// Shared helpers of the data-movement ops (Transpose, DepthToSpace, Concat,
// Gather, Slice, Pad, ...): they move raw elements, so they dispatch on the
// element size only.
#pragma once

#include "kernels/elementwise_common.h"

namespace acl_sim::kern {

/** Calls f(U{}) with U an unsigned integer of `elem` bytes (1, 2, 4, 8); throws for other sizes. */
template <class F>
void dispatch_elem_size(const OpContext& ctx, size_t elem, F&& f) {
  switch (elem) {
    case 1: return f(uint8_t{});
    case 2: return f(uint16_t{});
    case 4: return f(uint32_t{});
    case 8: return f(uint64_t{});
    default: fail(ACL_ERROR_UNSUPPORTED_DATA_TYPE, ctx.op_type, ": unsupported element size ", elem);
  }
}

/** dst = src transposed by perm (out dim j = in dim perm[j]), for any element size.
 *  Size-1 dims are dropped and dims that stay adjacent are merged first; then either whole rows are copied
 *  (last axis kept) or 2-D tiles are transposed so reads and writes both stay in cache. Tiled over the pool. */
void transpose_bytes(const OpContext& ctx, const void* src, void* dst, size_t elem, const std::vector<int64_t>& in_shape,
                     const std::vector<int64_t>& perm);

/** Throws ACL_ERROR_OP_ATTR_NOT_MATCH unless perm is a permutation of 0..rank-1. */
void check_perm(const OpContext& ctx, const std::vector<int64_t>& perm, size_t rank);

/** Row-major strides (in elements) of a shape. */
std::vector<int64_t> strides_of(const std::vector<int64_t>& shape);

}  // namespace acl_sim::kern
