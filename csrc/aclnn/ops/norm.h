// Normalisations on strided views, computed in float32 on the ONNX kernels: aclnnRmsNorm and aclnnAddRmsNorm
// (Mul / ReduceMean / Add / Sqrt / Reciprocal / Mul), aclnnLayerNorm (LayerNormalization), aclnnGroupNorm.
#pragma once

#include "aclnn/ops/op_common.h"

namespace acl_sim::aclnn {

/** y = x * rstd * gamma with rstd = 1 / sqrt(mean(x^2) + eps) over gamma's (trailing) dims; x = x1 + x2 when
 *  x2 is present (AddRmsNorm, which also writes that sum to x_out). rstd (float32) has x's leading dims. */
Plan plan_rms_norm(const char* op, TensorArg x1, TensorArg x2, TensorArg gamma, double eps, TensorArg y,
                   TensorArg rstd, TensorArg x_out);
Plan plan_layer_norm(const char* op, TensorArg x, std::vector<int64_t> normalized_shape, TensorArg weight,
                     TensorArg bias, double eps, TensorArg out, TensorArg mean, TensorArg rstd);
Plan plan_group_norm(const char* op, TensorArg x, TensorArg gamma, TensorArg beta, int64_t n, int64_t c, int64_t hxw,
                     int64_t groups, double eps, TensorArg out, TensorArg mean, TensorArg rstd);

}  // namespace acl_sim::aclnn
