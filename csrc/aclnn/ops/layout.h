// Layout operators, all strided_copy (csrc/kernels/strided_view.h) over views built from the
// operands' shapes and strides: aclnnCast, aclnnInplaceCopy (broadcasting, converting), Permute,
// Slice, Repeat, RepeatInterleaveIntWithDim, Cat, ConstantPadNd, ReflectionPad1d, Roll; plus
// Tril / Triu (ONNX Trilu kernel) and Arange (Range kernel).
#pragma once

#include "aclnn/ops/op_common.h"

namespace acl_sim::aclnn {

/** out = src converted to out's dtype; src broadcasts to out's shape. Cast and InplaceCopy. */
Plan plan_copy(const char* op, TensorArg src, TensorArg out);
Plan plan_permute(const char* op, TensorArg self, std::vector<int64_t> dims, TensorArg out);
Plan plan_slice(const char* op, TensorArg self, int64_t dim, int64_t start, int64_t end, int64_t step, TensorArg out);
Plan plan_repeat(const char* op, TensorArg self, std::vector<int64_t> repeats, TensorArg out);
Plan plan_repeat_interleave(const char* op, TensorArg self, int64_t repeats, int64_t dim, int64_t output_size,
                            TensorArg out);
Plan plan_cat(const char* op, std::vector<TensorArg> tensors, int64_t dim, TensorArg out);
/** pad: (before, after) pairs from the last dim backwards (torch.nn.functional.pad); negative pads crop. */
Plan plan_constant_pad(const char* op, TensorArg self, std::vector<int64_t> pad, double value, TensorArg out);
Plan plan_reflection_pad1d(const char* op, TensorArg self, std::vector<int64_t> pad, TensorArg out);
Plan plan_roll(const char* op, TensorArg self, std::vector<int64_t> shifts, std::vector<int64_t> dims, TensorArg out);
/** upper: keep j - i >= diagonal (Triu), else j - i <= diagonal (Tril), over the last two dims. */
Plan plan_trilu(const char* op, TensorArg self, int64_t diagonal, bool upper, TensorArg out);
Plan plan_arange(const char* op, double start, double end, double step, TensorArg out);

}  // namespace acl_sim::aclnn
