#include "aclnn/ops/linalg.h"

#include "aclnn/ops/arith.h"

#include "kernels/triangular_solve.h"
#include "op/tensor_desc.h"

namespace acl_sim::aclnn {

Plan plan_triangular_solve(const char* op, TensorArg b, TensorArg a, bool upper, bool transpose, bool unit,
                           TensorArg x, TensorArg m) {
  for (const TensorArg* t : {&b, &a, &x, &m}) {
    require_nd(op, *t, "operand");
    require_dtype(op, *t, "operand", {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE});
  }
  ACLNN_REQUIRE(a.rank() >= 2 && b.rank() >= 2 && a.shape[a.rank() - 1] == a.shape[a.rank() - 2] &&
                    b.shape[b.rank() - 2] == a.shape[a.rank() - 1],
                op, ": A ", dims_to_string(a.shape), " must be square [.., n, n] and self ", dims_to_string(b.shape),
                " [.., n, k]");
  const int64_t n = a.shape.back(), k = b.shape.back();
  std::vector<int64_t> batch = broadcast_shapes(op, std::vector<int64_t>(a.shape.begin(), a.shape.end() - 2),
                                                std::vector<int64_t>(b.shape.begin(), b.shape.end() - 2));
  std::vector<int64_t> xs = batch, as = batch;
  xs.insert(xs.end(), {n, k});
  as.insert(as.end(), {n, n});
  require_shape(op, x, xs, "xOut");
  require_shape(op, m, as, "mOut");
  return plan_of([op, upper, transpose, unit, n, k, xs, as, a = std::move(a), b = std::move(b), x = std::move(x),
                  m = std::move(m)] {
    // Both operands broadcast to the common batch first.
    Dense af(ACL_FLOAT, as), bf(ACL_FLOAT, xs), xf(ACL_FLOAT, xs);
    kern::strided_copy(op, strided(a), strided(af));
    kern::strided_copy(op, strided(b), strided(bf));
    const int64_t batch = af.numel() / (n * n);
    kern::triangular_solve(static_cast<const float*>(af.data()), static_cast<const float*>(bf.data()),
                           static_cast<float*>(xf.data()), batch, n, k, upper, transpose, unit);
    commit(xf, x);
    commit(af, m);
  });
}

Plan plan_ger(const char* op, TensorArg self, TensorArg vec2, TensorArg out) {
  ACLNN_REQUIRE(self.rank() == 1 && vec2.rank() == 1, op, ": self ", dims_to_string(self.shape), " and vec2 ",
                dims_to_string(vec2.shape), " must be 1-D");
  require_shape(op, out, {self.shape[0], vec2.shape[0]}, "out");
  // Column and row views of the same storage: the stride of a size-1 dim is never used.
  self.shape = {self.shape[0], 1};
  self.strides = {self.strides[0], 1};
  vec2.shape = {1, vec2.shape[0]};
  vec2.strides = {1, vec2.strides[0]};
  return plan_binary(op, "Mul", Operand::of(std::move(self)), Operand::of(std::move(vec2)), 1.0, std::move(out));
}

}  // namespace acl_sim::aclnn
