// Spatial geometry shared by Conv, ConvTranspose and the pooling ops: ONNX
// attributes (kernel_shape, strides, dilations, pads, auto_pad) resolved to
// explicit per-axis begin/end padding, and the output size they imply.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/attrs.h"

namespace acl_sim {

struct SpatialGeometry {
  int nsp = 0;                       // number of spatial axes
  std::vector<int64_t> in, out;      // spatial sizes
  std::vector<int64_t> kernel, stride, dilation, pad_begin, pad_end;

  int64_t in_size() const;
  int64_t out_size() const;
  int64_t kernel_size() const;
};

/**
 * Fills kernel/stride/dilation/pads for `op` from its attributes. `kernel`
 * comes from the weight shape (Conv) or kernel_shape (pools) and must already
 * be set, like `in`. Pads follow auto_pad (SAME_UPPER puts the odd pixel at
 * the end, SAME_LOWER at the beginning, VALID none). Throws
 * ACL_ERROR_OP_ATTR_NOT_MATCH for malformed attributes.
 */
void resolve_window_attrs(SpatialGeometry& g, const Attrs& attrs, const char* op, bool allow_dilations = true);

/** Output size per axis: floor (or ceil, for pools' ceil_mode) of the window count. */
std::vector<int64_t> window_output_dims(const SpatialGeometry& g, bool ceil_mode);

/** "[a,b,c]" */
std::string dims_str(const std::vector<int64_t>& d);

}  // namespace acl_sim
