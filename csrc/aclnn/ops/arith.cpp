#include "aclnn/ops/arith.h"

#include <cstring>

#include "op/tensor_desc.h"

namespace acl_sim::aclnn {
namespace {

bool is_comparison(const std::string& k) {
  return k == "Equal" || k == "Greater" || k == "Less" || k == "GreaterOrEqual" || k == "LessOrEqual";
}

bool computable(int dt) {
  return is_float_dtype(dt) || dt == ACL_INT32 || dt == ACL_INT64 || dt == ACL_INT16 || dt == ACL_INT8 ||
         dt == ACL_UINT8 || dt == ACL_BOOL;
}

Dense operand_dense(const Operand& o, int dtype) {
  return o.is_scalar ? scalar_dense(o.value, dtype) : read_dense(o.tensor, dtype);
}

}  // namespace

Plan plan_binary(const char* op, const char* kernel, Operand a, Operand b, double alpha, TensorArg out) {
  const std::string k = kernel;
  const bool compare = is_comparison(k);
  for (const Operand* o : {&a, &b})
    if (!o->is_scalar) require_nd(op, o->tensor, "input");
  require_nd(op, out, "out");
  int ct;
  if (!a.is_scalar && !b.is_scalar) ct = promote_dtype(a.tensor.dtype, b.tensor.dtype);
  else if (!a.is_scalar) ct = promote_with_scalar(a.tensor.dtype, b.dtype);
  else ct = promote_with_scalar(b.tensor.dtype, a.dtype);
  // Integer operands with a floating result (Div, or an integer tensor written to a float out) compute in floats.
  if (!compare && !is_float_dtype(ct) && (is_float_dtype(out.dtype) || k == "Div" || k == "Pow"))
    ct = is_float_dtype(out.dtype) ? out.dtype : ACL_FLOAT;
  ACLNN_REQUIRE(computable(ct) && computable(out.dtype), op, ": dtype ", dtype_name(ct), " -> ",
                dtype_name(out.dtype), " is not supported");
  ACLNN_REQUIRE(ct != ACL_BOOL || compare, op, ": bool operands are not supported for ", kernel);
  std::vector<int64_t> shape = broadcast_shapes(op, a.shape(), b.shape());
  ACLNN_REQUIRE(broadcasts_to(shape, out.shape) && element_count(shape) == out.numel(), op, ": out has shape ",
                dims_to_string(out.shape), ", the operands broadcast to ", dims_to_string(shape));
  return plan_of([op, k, compare, ct, a = std::move(a), b = std::move(b), alpha, out = std::move(out)] {
    Dense da = operand_dense(a, ct);
    Dense db = operand_dense(b, ct);
    if (alpha != 1.0) {
      Dense scaled(ct, db.shape());
      run_kernel("Mul", {db.view(), scalar_dense(alpha, ct).view()}, {scaled.view()});
      db = scaled;
    }
    Dense o = output_dense(out, compare ? ACL_BOOL : ct);
    TensorView ov = o.view();
    ov.shape = out.shape;
    run_kernel(k.c_str(), {da.view(), db.view()}, {ov});
    commit(o, out);
    (void)op;
  });
}

Plan plan_clamp(const char* op, TensorArg self, const ScalarArg* lo, const ScalarArg* hi, TensorArg out) {
  require_nd(op, self, "self");
  require_nd(op, out, "out");
  require_shape(op, out, self.shape, "out");
  const int ct = is_float_dtype(self.dtype) ? self.dtype : promote_with_scalar(self.dtype, lo ? lo->dtype : hi ? hi->dtype : self.dtype);
  ACLNN_REQUIRE(computable(ct) && ct != ACL_BOOL, op, ": self dtype ", dtype_name(self.dtype), " is not supported");
  bool has_lo = lo && lo->present, has_hi = hi && hi->present;
  double vlo = has_lo ? lo->value : 0, vhi = has_hi ? hi->value : 0;
  return plan_of([ct, has_lo, has_hi, vlo, vhi, self = std::move(self), out = std::move(out)] {
    Dense x = read_dense(self, ct);
    Dense l = has_lo ? scalar_dense(vlo, ct) : Dense();
    Dense h = has_hi ? scalar_dense(vhi, ct) : Dense();
    Dense o = output_dense(out, ct);
    run_kernel("Clip", {x.view(), has_lo ? l.view() : TensorView{}, has_hi ? h.view() : TensorView{}}, {o.view()});
    commit(o, out);
  });
}

Plan plan_threshold(const char* op, TensorArg self, double threshold, double value, TensorArg out) {
  require_nd(op, self, "self");
  require_nd(op, out, "out");
  require_shape(op, out, self.shape, "out");
  const int ct = self.dtype;
  ACLNN_REQUIRE(computable(ct) && ct != ACL_BOOL, op, ": self dtype ", dtype_name(ct), " is not supported");
  return plan_of([ct, threshold, value, self = std::move(self), out = std::move(out)] {
    Dense x = read_dense(self, ct);
    Dense keep(ACL_BOOL, self.shape);
    run_kernel("Greater", {x.view(), scalar_dense(threshold, ct).view()}, {keep.view()});
    Dense o = output_dense(out, ct);
    run_kernel("Where", {keep.view(), x.view(), scalar_dense(value, ct).view()}, {o.view()});
    commit(o, out);
  });
}

Plan plan_fill(const char* op, TensorArg self, double value) {
  require_nd(op, self, "selfRef");
  return plan_of([op, value, self = std::move(self)] { kern::strided_fill(op, strided(self), value); });
}

Plan plan_addcdiv(const char* op, TensorArg self, TensorArg tensor1, TensorArg tensor2, double value, TensorArg out) {
  require_nd(op, self, "self");
  require_nd(op, tensor1, "tensor1");
  require_nd(op, tensor2, "tensor2");
  require_nd(op, out, "out");
  require_dtype(op, self, "self", kFloatTypes);
  require_dtype(op, tensor1, "tensor1", kFloatTypes);
  require_dtype(op, tensor2, "tensor2", kFloatTypes);
  require_dtype(op, out, "out", kFloatTypes);
  const std::vector<int64_t> quotient = broadcast_shapes(op, tensor1.shape, tensor2.shape);
  const std::vector<int64_t> shape = broadcast_shapes(op, self.shape, quotient);
  require_shape(op, out, shape, "out");
  return plan_of([quotient, value, self = std::move(self), t1 = std::move(tensor1), t2 = std::move(tensor2),
                  out = std::move(out)] {
    Dense q(ACL_FLOAT, quotient);
    run_kernel("Div", {read_dense(t1, ACL_FLOAT).view(), read_dense(t2, ACL_FLOAT).view()}, {q.view()});
    Dense scaled(ACL_FLOAT, quotient);
    run_kernel("Mul", {q.view(), scalar_dense(value, ACL_FLOAT).view()}, {scaled.view()});
    // Read self before out is written: out may be self (the in-place form of a caller).
    Dense a = read_dense(self, ACL_FLOAT);
    Dense o = output_dense(out, ACL_FLOAT);
    run_kernel("Add", {a.view(), scaled.view()}, {o.view()});
    commit(o, out);
  });
}

Plan plan_masked_fill(const char* op, TensorArg self, TensorArg mask, ScalarArg value) {
  require_nd(op, self, "selfRef");
  require_nd(op, mask, "mask");
  require_dtype(op, mask, "mask", {ACL_BOOL, ACL_INT8, ACL_UINT8});
  ACLNN_REQUIRE(computable(self.dtype), op, ": selfRef dtype ", dtype_name(self.dtype), " is not supported");
  ACLNN_REQUIRE(broadcasts_to(mask.shape, self.shape), op, ": mask ", dims_to_string(mask.shape),
                " does not broadcast to selfRef ", dims_to_string(self.shape));
  const int ct = self.dtype;
  const double v = value.value;
  return plan_of([ct, v, self = std::move(self), mask = std::move(mask)] {
    Dense m = read_dense(mask, ACL_BOOL);
    Dense x = read_dense(self, ct);
    Dense o = output_dense(self, ct);
    run_kernel("Where", {m.view(), scalar_dense(v, ct).view(), x.view()}, {o.view()});
    commit(o, self);
  });
}

}  // namespace acl_sim::aclnn
