#include "aclnn/ops/unary.h"

#include "aclnn/status.h"
#include "op/tensor_desc.h"

namespace acl_sim::aclnn {

Plan plan_unary(const char* op, const char* onnx_op, const TensorArg& self, const TensorArg& out,
                const Attrs& attrs) {
  ACLNN_REQUIRE(self.shape == out.shape, op, ": out shape ", dims_to_string(out.shape), " differs from self shape ",
                dims_to_string(self.shape));
  ACLNN_REQUIRE(self.dtype == ACL_FLOAT || self.dtype == ACL_FLOAT16 || self.dtype == ACL_BF16 ||
                    self.dtype == ACL_INT32 || self.dtype == ACL_INT64 || self.dtype == ACL_INT8,
                op, ": self dtype ", dtype_name(self.dtype), " is not supported");
  ACLNN_REQUIRE(dtype_size(out.dtype) != 0, op, ": out dtype ", dtype_name(out.dtype), " is not supported");
  // bfloat16 is computed in float32 (the kernels' float path); other dtypes natively.
  int compute = self.dtype == ACL_BF16 ? ACL_FLOAT : self.dtype;
  Plan p;
  p.run = [onnx_op, self, out, compute, attrs](const RunContext&) {
    Dense in = read_dense(self, compute);
    Dense res = output_dense(out, compute);
    run_kernel(onnx_op, {in.view()}, {res.view()}, &attrs);
    commit(res, out);
  };
  return p;
}

}  // namespace acl_sim::aclnn
