// Softmax family and attention on strided views: aclnnSoftmax / aclnnLogSoftmax (ONNX Softmax kernels),
// aclnnSoftmaxCrossEntropyWithLogits, aclnnRotaryPositionEmbedding (x * cos + rotate(x) * sin, modes
// 0 = half, 1 = interleave), aclnnFusedInferAttentionScoreV2 (softmax(scale * Q K^T + pse, masked) V per head,
// GQA, layouts BSND / BNSD / BSH, on the fp32 GEMM).
#pragma once

#include <string>

#include "aclnn/ops/op_common.h"

namespace acl_sim::aclnn {

/** kernel: Softmax or LogSoftmax, along dim. */
Plan plan_softmax(const char* op, const char* kernel, TensorArg self, int64_t dim, TensorArg out);
/** loss[r] = -sum(labels * log_softmax(features)) over the last dim; backprop = softmax(features) - labels. */
Plan plan_softmax_cross_entropy(const char* op, TensorArg features, TensorArg labels, TensorArg loss,
                                TensorArg backprop);
Plan plan_rope(const char* op, TensorArg x, TensorArg cos, TensorArg sin, int64_t mode, TensorArg y);

struct AttentionArgs {
  TensorArg q, k, v, pse, mask, out;
  int64_t heads = 0, kv_heads = 0;
  double scale = 1.0;
  std::string layout;
};
Plan plan_fused_attention(const char* op, AttentionArgs a);

}  // namespace acl_sim::aclnn
