#include "aclnn/ops/activation.h"

#include <cmath>

#include "op/tensor_desc.h"

namespace acl_sim::aclnn {
namespace {

void check_same_float(const char* op, const TensorArg& self, const TensorArg& out) {
  for (const TensorArg* t : {&self, &out}) {
    require_nd(op, *t, t == &self ? "self" : "out");
    require_dtype(op, *t, t == &self ? "self" : "out", kFloatTypes);
  }
  require_shape(op, out, self.shape, "out");
}

}  // namespace

Plan plan_silu(const char* op, TensorArg self, TensorArg out) {
  check_same_float(op, self, out);
  return plan_of([self = std::move(self), out = std::move(out)] {
    Dense x = read_dense(self, ACL_FLOAT);
    Dense s(ACL_FLOAT, self.shape);
    run_kernel("Sigmoid", {x.view()}, {s.view()});
    Dense o = output_dense(out, ACL_FLOAT);
    run_kernel("Mul", {x.view(), s.view()}, {o.view()});
    commit(o, out);
  });
}

Plan plan_softplus(const char* op, TensorArg self, double beta, double threshold, TensorArg out) {
  check_same_float(op, self, out);
  ACLNN_REQUIRE(beta != 0, op, ": beta must not be 0");
  return plan_of([beta, threshold, self = std::move(self), out = std::move(out)] {
    Dense x = read_dense(self, ACL_FLOAT);
    Dense bx(ACL_FLOAT, self.shape), sp(ACL_FLOAT, self.shape), lin(ACL_BOOL, self.shape);
    run_kernel("Mul", {x.view(), scalar_dense(beta, ACL_FLOAT).view()}, {bx.view()});
    run_kernel("Softplus", {bx.view()}, {sp.view()});
    run_kernel("Div", {sp.view(), scalar_dense(beta, ACL_FLOAT).view()}, {sp.view()});
    run_kernel("Greater", {bx.view(), scalar_dense(threshold, ACL_FLOAT).view()}, {lin.view()});
    Dense o = output_dense(out, ACL_FLOAT);
    run_kernel("Where", {lin.view(), x.view(), sp.view()}, {o.view()});
    commit(o, out);
  });
}

Plan plan_elu(const char* op, TensorArg self, double alpha, double scale, double input_scale, TensorArg out) {
  check_same_float(op, self, out);
  return plan_of([alpha, scale, input_scale, self = std::move(self), out = std::move(out)] {
    Dense x = read_dense(self, ACL_FLOAT);
    // alpha * (exp(s x) - 1) for x <= 0: Elu(s x) with alpha, whose negative branch is alpha * (exp(s x) - 1).
    Dense sx(ACL_FLOAT, self.shape), e(ACL_FLOAT, self.shape), pos(ACL_BOOL, self.shape);
    run_kernel("Mul", {x.view(), scalar_dense(input_scale, ACL_FLOAT).view()}, {sx.view()});
    Attrs at;
    at.set("alpha", alpha);
    run_kernel("Elu", {sx.view()}, {e.view()}, &at);
    run_kernel("Greater", {x.view(), scalar_dense(0.0, ACL_FLOAT).view()}, {pos.view()});
    Dense o = output_dense(out, ACL_FLOAT);
    run_kernel("Where", {pos.view(), x.view(), e.view()}, {o.view()});
    run_kernel("Mul", {o.view(), scalar_dense(scale, ACL_FLOAT).view()}, {o.view()});
    commit(o, out);
  });
}

Plan plan_glu(const char* op, GluKind kind, TensorArg self, int64_t dim, bool activate_left, TensorArg out,
              TensorArg gelu_out) {
  require_nd(op, self, "self");
  require_dtype(op, self, "self", kFloatTypes);
  require_dtype(op, out, "out", kFloatTypes);
  const size_t d = static_cast<size_t>(normalize_dim(op, dim, self.rank()));
  ACLNN_REQUIRE(self.shape[d] % 2 == 0, op, ": dim ", d, " of self ", dims_to_string(self.shape), " must be even");
  std::vector<int64_t> half = self.shape;
  half[d] /= 2;
  require_shape(op, out, half, "out");
  if (gelu_out.present()) require_shape(op, gelu_out, half, "outGelu");
  return plan_of([op, kind, d, activate_left, half, self = std::move(self), out = std::move(out),
                  gelu_out = std::move(gelu_out)] {
    TensorArg a = self, b = self;
    a.shape = b.shape = half;
    b.offset += half[d] * self.strides[d];
    if (!activate_left) std::swap(a, b);
    Dense x = read_dense(a, ACL_FLOAT), g = read_dense(b, ACL_FLOAT);
    Dense act(ACL_FLOAT, half);
    if (kind == GluKind::Swi) {
      run_kernel("Sigmoid", {x.view()}, {act.view()});
      run_kernel("Mul", {act.view(), x.view()}, {act.view()});
    } else {
      Attrs at;
      at.set("approximate", std::string(kind == GluKind::GeluTanh ? "tanh" : "none"));
      run_kernel("Gelu", {x.view()}, {act.view()}, &at);
    }
    if (gelu_out.present()) commit(act, gelu_out);
    Dense o = output_dense(out, ACL_FLOAT);
    run_kernel("Mul", {act.view(), g.view()}, {o.view()});
    commit(o, out);
    (void)op;
  });
}

}  // namespace acl_sim::aclnn
