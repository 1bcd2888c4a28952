// Elementwise unary operators (aclnnAbs, ...): out = f(self) on any strided views, computed by the
// registered ONNX kernel of the same meaning.
#pragma once

#include "aclnn/executor.h"
#include "aclnn/tensor_arg.h"

namespace acl_sim::aclnn {

/** Plan out = onnx_op(self): same shape; self's dtype (float32/float16/bfloat16 and what the kernel
 *  supports) is computed in the kernel's dtype, out may have another float dtype (cast on write). */
Plan plan_unary(const char* op, const char* onnx_op, const TensorArg& self, const TensorArg& out);

}  // namespace acl_sim::aclnn
