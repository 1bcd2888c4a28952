// Activations that are not a single ONNX kernel: aclnnSilu (x * sigmoid(x)), aclnnSoftplus with beta and
// threshold, aclnnElu with scale / input scale, and the gated units aclnnSwiGlu, aclnnGeGlu / GeGluV3 (split
// along dim, activate one half, multiply by the other).
#pragma once

#include "aclnn/ops/op_common.h"

namespace acl_sim::aclnn {

Plan plan_silu(const char* op, TensorArg self, TensorArg out);
/** out = x > threshold / beta ? x : log(1 + exp(beta x)) / beta (torch's softplus). */
Plan plan_softplus(const char* op, TensorArg self, double beta, double threshold, TensorArg out);
/** out = scale * (x > 0 ? x : alpha * (exp(input_scale * x) - 1)). */
Plan plan_elu(const char* op, TensorArg self, double alpha, double scale, double input_scale, TensorArg out);

enum class GluKind { Swi, GeluTanh, GeluErf };
/** Split self in two along dim; out = act(first) * second (activate_left) or act(second) * first. gelu_out,
 *  when present, receives act(activated half). */
Plan plan_glu(const char* op, GluKind kind, TensorArg self, int64_t dim, bool activate_left, TensorArg out,
              TensorArg gelu_out);

}  // namespace acl_sim::aclnn
