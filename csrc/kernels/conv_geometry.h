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

/** Output size per axis: floor (or ceil, for pools' ceil_mode) of the window count. pool: a window overhanging the
 * padded input by less than a stride still counts once (onnxruntime's pool sizes). */
std::vector<int64_t> window_output_dims(const SpatialGeometry& g, bool ceil_mode, bool pool = false);

/** "[a,b,c]" */
std::string dims_str(const std::vector<int64_t>& d);

/** The geometry on 3 axes, leading axes of size 1 (1-D and 2-D convs run the 3-D loops). */
struct Geometry3 {
  int64_t in[3], out[3], k[3], s[3], d[3], p[3];
  explicit Geometry3(const SpatialGeometry& g) {
    const int lead = 3 - g.nsp;
    for (int i = 0; i < 3; ++i) {
      const int j = i - lead;
      in[i] = j >= 0 ? g.in[j] : 1;
      out[i] = j >= 0 ? g.out[j] : 1;
      k[i] = j >= 0 ? g.kernel[j] : 1;
      s[i] = j >= 0 ? g.stride[j] : 1;
      d[i] = j >= 0 ? g.dilation[j] : 1;
      p[i] = j >= 0 ? g.pad_begin[j] : 0;
    }
  }
};

}  // namespace acl_sim
