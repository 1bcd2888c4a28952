// Convolution, pooling, im2col and nearest upsampling on strided NCHW / NCL views: aclnnConvolution
// (ONNX Conv / ConvTranspose kernels), aclnnAvgPool2d / aclnnMaxPool (AveragePool / MaxPool kernels),
// aclnnUpsampleNearest2d (Resize, nearest, asymmetric, floor), aclnnIm2col (one strided_copy per kernel tap).
#pragma once

#include "aclnn/ops/op_common.h"

namespace acl_sim::aclnn {

struct ConvArgs {
  TensorArg input, weight, bias, out;
  std::vector<int64_t> stride, padding, dilation, output_padding;
  bool transposed = false;
  int64_t groups = 1;
};
Plan plan_convolution(const char* op, ConvArgs a);

struct PoolArgs {
  TensorArg self, out;
  std::vector<int64_t> kernel, stride, pads;  // pads: ONNX order, begins then ends
  bool ceil_mode = false;
  bool count_include_pad = true;
  int64_t divisor_override = 0;
};
/** kernel: AveragePool or MaxPool. */
Plan plan_pool(const char* op, const char* kernel, PoolArgs a);
Plan plan_upsample_nearest(const char* op, TensorArg self, std::vector<int64_t> output_size, TensorArg out);
/** out [N, C*KH*KW, L] = the sliding blocks of self [N, C, H, W] (torch.nn.functional.unfold). */
Plan plan_im2col(const char* op, TensorArg self, std::vector<int64_t> kernel, std::vector<int64_t> dilation,
                 std::vector<int64_t> padding, std::vector<int64_t> stride, TensorArg out);

}  // namespace acl_sim::aclnn
