// Elementwise arithmetic on strided, broadcasting operands: aclnnAdd/Sub/Mul/Div/Pow and their
// scalar (Adds, Muls, ...) and in-place forms, comparisons (EqTensor, GtScalar), Clamp,
// Threshold, fills, Addcdiv, InplaceMaskedFillScalar. Each computes in the promoted dtype on the tiled ONNX kernels
// (csrc/kernels/binary_ops.cpp) and writes the result converted into out's view.
#pragma once

#include "aclnn/ops/op_common.h"

namespace acl_sim::aclnn {

/** One operand of an elementwise operator: a tensor, or a scalar (aclScalar or a constant). */
struct Operand {
  TensorArg tensor;
  bool is_scalar = false;
  double value = 0;
  int dtype = ACL_FLOAT;  // the scalar's dtype

  static Operand of(TensorArg t) { return Operand{std::move(t), false, 0, ACL_FLOAT}; }
  static Operand of(const ScalarArg& s) { return Operand{{}, true, s.value, s.dtype}; }
  static Operand constant(double v, int dt = ACL_FLOAT) { return Operand{{}, true, v, dt}; }
  std::vector<int64_t> shape() const { return is_scalar ? std::vector<int64_t>{} : tensor.shape; }
};

/**
 * out = a (kernel) (alpha * b) with broadcasting; kernel is the ONNX name: Add, Sub, Mul, Div, Pow,
 * Equal, Greater, ... (comparisons give bool, converted to out's dtype). alpha applies to b
 * (Add/Sub only; 1 elsewhere). Validates dtypes and shapes now; the Plan computes on the stream.
 */
Plan plan_binary(const char* op, const char* kernel, Operand a, Operand b, double alpha, TensorArg out);

/** out = min(max(self, lo), hi); absent bounds are open. */
Plan plan_clamp(const char* op, TensorArg self, const ScalarArg* lo, const ScalarArg* hi, TensorArg out);
/** out = self > threshold ? self : value. */
Plan plan_threshold(const char* op, TensorArg self, double threshold, double value, TensorArg out);
/** Every element of self = value. */
Plan plan_fill(const char* op, TensorArg self, double value);
/** out = self + value * tensor1 / tensor2 (the three broadcast to out), computed in float32. */
Plan plan_addcdiv(const char* op, TensorArg self, TensorArg tensor1, TensorArg tensor2, double value, TensorArg out);
/** self = mask ? value : self, mask (bool, or int8/uint8 read as nonzero) broadcasting to self. */
Plan plan_masked_fill(const char* op, TensorArg self, TensorArg mask, ScalarArg value);

}  // namespace acl_sim::aclnn
