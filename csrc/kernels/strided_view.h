// Strided tensor views (shape + element strides + storage offset, as aclnn's
// aclTensor describes them) and the two kernels that move elements between a
// strided view and anything else: strided_copy (with broadcasting and dtype
// conversion) and strided_fill.
//
// The tiled ONNX kernels (op_registry.h) work on dense row-major TensorViews;
// the aclnn operators gather their strided operands into dense buffers and
// scatter results back with strided_copy.
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/op_registry.h"

namespace acl_sim::kern {

/** Element (i0, .., in-1) lives at data + (offset + sum(ik * strides[k])) * dtype_size(dtype).
 *  Strides are in elements and may be 0 (broadcast) or negative; rank 0 is a scalar. */
struct StridedView {
  void* data = nullptr;  // storage base
  int dtype = 0;
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;
  int64_t offset = 0;

  int64_t numel() const;
  /** Address of element 0 (data + offset elements). */
  void* first() const;
  /** True when the elements are laid out row-major without gaps from first() (size-1 dims ignored). */
  bool is_dense() const;
  /** The same memory as a dense TensorView; only valid when is_dense(). */
  TensorView as_dense() const;
};

/** A dense view of `t` (row-major strides, offset 0). */
StridedView strided_of(const TensorView& t);
/** Row-major strides of a shape, in elements. */
std::vector<int64_t> dense_strides(const std::vector<int64_t>& shape);

/**
 * dst[i] = convert(src[broadcast(i)]) for every element of dst. src's shape broadcasts to dst's
 * (numpy rules, right-aligned); any pair of dtypes cast_elements supports, with its rounding rules.
 * Overlapping src and dst are handled (src is staged first unless both are the same layout).
 * Throws ACL_ERROR_OP_INPUT_NOT_MATCH (naming `op`) when the shapes do not broadcast. Tiled over the pool.
 */
void strided_copy(const char* op, const StridedView& src, const StridedView& dst);

/** Every element of dst = value converted to dst's dtype. */
void strided_fill(const char* op, const StridedView& dst, double value);

}  // namespace acl_sim::kern
