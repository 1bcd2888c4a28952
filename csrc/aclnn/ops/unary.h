// Elementwise unary operators (aclnnAbs, ...): out = f(self) on any strided views, computed by the
// registered ONNX kernel of the same meaning.
#pragma once

#include "aclnn/executor.h"
#include "aclnn/tensor_arg.h"

namespace acl_sim::aclnn {

/** Plan out = onnx_op(self): same shape; self's dtype (float32/float16/bfloat16 and what the kernel
 *  supports) is computed in the kernel's dtype, out may have another float dtype (cast on write). @p attrs are
 *  the kernel's ONNX attributes (LeakyRelu alpha, Gelu approximate, ...). */
Plan plan_unary(const char* op, const char* onnx_op, const TensorArg& self, const TensorArg& out,
                const Attrs& attrs = Attrs());

}  // namespace acl_sim::aclnn
