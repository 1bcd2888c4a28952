// Reductions and sorts on strided views, on the ONNX reduce / select kernels: aclnnReduceSum, aclnnMean,
// aclnnNorm (p = 1, 2), aclnnCumsum, aclnnArgMax, aclnnArgsort. Floating inputs accumulate in float32.
#pragma once

#include "aclnn/ops/op_common.h"

namespace acl_sim::aclnn {

/** kernel: ReduceSum, ReduceMean, ReduceL1, ReduceL2. dims empty = every dim. */
Plan plan_reduce(const char* op, const char* kernel, TensorArg self, std::vector<int64_t> dims, bool keepdim,
                 TensorArg out);
Plan plan_cumsum(const char* op, TensorArg self, int64_t dim, TensorArg out);
Plan plan_argmax(const char* op, TensorArg self, int64_t dim, bool keepdim, TensorArg out);
/** out (int64 or int32) = the indices that sort self along dim; ties keep the lower index first. */
Plan plan_argsort(const char* op, TensorArg self, int64_t dim, bool descending, TensorArg out);

}  // namespace acl_sim::aclnn
