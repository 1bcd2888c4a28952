#include "aclnn/ops/norm.h"

#include <algorithm>

#include "op/tensor_desc.h"

namespace acl_sim::aclnn {
namespace {

Dense int64_vector(std::vector<int64_t> v) {
  Dense d(ACL_INT64, {static_cast<int64_t>(v.size())});
  std::copy(v.begin(), v.end(), static_cast<int64_t*>(d.data()));
  return d;
}

/** rstd = 1 / sqrt(mean(x^2 over the last `nd` dims) + eps), shape x[:-nd] + [1] * nd. */
Dense row_rstd(const Dense& x, size_t nd, double eps) {
  std::vector<int64_t> axes, rshape = x.shape();
  for (size_t k = 0; k < nd; ++k) {
    axes.push_back(static_cast<int64_t>(x.shape().size() - 1 - k));
    rshape[rshape.size() - 1 - k] = 1;
  }
  Dense sq(ACL_FLOAT, x.shape()), r(ACL_FLOAT, rshape);
  run_kernel("Mul", {x.view(), x.view()}, {sq.view()});
  Attrs keep;
  keep.set("keepdims", int64_t{1});
  run_kernel("ReduceMean", {sq.view(), int64_vector(axes).view()}, {r.view()}, &keep);
  run_kernel("Add", {r.view(), scalar_dense(eps, ACL_FLOAT).view()}, {r.view()});
  run_kernel("Sqrt", {r.view()}, {r.view()});
  run_kernel("Reciprocal", {r.view()}, {r.view()});
  return r;
}

void check_float(const char* op, const TensorArg& t, const char* what) {
  require_nd(op, t, what);
  require_dtype(op, t, what, kFloatTypes);
}

}  // namespace

Plan plan_rms_norm(const char* op, TensorArg x1, TensorArg x2, TensorArg gamma, double eps, TensorArg y,
                   TensorArg rstd, TensorArg x_out) {
  check_float(op, x1, "x");
  check_float(op, gamma, "gamma");
  check_float(op, y, "yOut");
  if (x2.present()) {
    check_float(op, x2, "x2");
    ACLNN_REQUIRE(x2.shape == x1.shape, op, ": x1 ", dims_to_string(x1.shape), " and x2 ", dims_to_string(x2.shape),
                  " differ");
  }
  require_shape(op, y, x1.shape, "yOut");
  if (x_out.present()) require_shape(op, x_out, x1.shape, "xOut");
  const size_t gr = gamma.rank();
  ACLNN_REQUIRE(gr >= 1 && gr <= x1.rank() &&
                    std::equal(gamma.shape.begin(), gamma.shape.end(), x1.shape.end() - static_cast<std::ptrdiff_t>(gr)),
                op, ": gamma ", dims_to_string(gamma.shape), " must equal the trailing dims of x ",
                dims_to_string(x1.shape));
  if (rstd.present()) {
    require_dtype(op, rstd, "rstdOut", {ACL_FLOAT});
    ACLNN_REQUIRE(rstd.numel() == element_count(std::vector<int64_t>(x1.shape.begin(), x1.shape.end() - gr)), op,
                  ": rstdOut has shape ", dims_to_string(rstd.shape), ", expected x's leading dims");
  }
  return plan_of([gr, eps, x1 = std::move(x1), x2 = std::move(x2), gamma = std::move(gamma), y = std::move(y),
                  rstd = std::move(rstd), x_out = std::move(x_out)] {
    Dense x = read_dense(x1, ACL_FLOAT);
    if (x2.present()) {
      Dense b = read_dense(x2, ACL_FLOAT);
      Dense sum(ACL_FLOAT, x1.shape);
      run_kernel("Add", {x.view(), b.view()}, {sum.view()});
      x = sum;
      if (x_out.present()) commit(x, x_out);
    }
    Dense r = row_rstd(x, gr, eps);
    Dense g = read_dense(gamma, ACL_FLOAT);
    Dense o(ACL_FLOAT, x1.shape);
    run_kernel("Mul", {x.view(), r.view()}, {o.view()});
    run_kernel("Mul", {o.view(), g.view()}, {o.view()});
    commit(o, y);
    if (rstd.present()) commit(r, rstd);
  });
}

Plan plan_layer_norm(const char* op, TensorArg x, std::vector<int64_t> normalized_shape, TensorArg weight,
                     TensorArg bias, double eps, TensorArg out, TensorArg mean, TensorArg rstd) {
  check_float(op, x, "input");
  check_float(op, out, "out");
  require_shape(op, out, x.shape, "out");
  const size_t nr = normalized_shape.size();
  ACLNN_REQUIRE(nr >= 1 && nr <= x.rank() &&
                    std::equal(normalized_shape.begin(), normalized_shape.end(),
                               x.shape.end() - static_cast<std::ptrdiff_t>(nr)),
                op, ": normalizedShape ", dims_to_string(normalized_shape), " must equal the trailing dims of input ",
                dims_to_string(x.shape));
  for (const TensorArg* p : {&weight, &bias})
    if (p->present()) {
      check_float(op, *p, "weight/bias");
      ACLNN_REQUIRE(p->shape == normalized_shape, op, ": weight/bias shape ", dims_to_string(p->shape),
                    " must equal normalizedShape");
    }
  const int64_t axis = static_cast<int64_t>(x.rank() - nr);
  return plan_of([axis, eps, normalized_shape, x = std::move(x), weight = std::move(weight), bias = std::move(bias),
                  out = std::move(out), mean = std::move(mean), rstd = std::move(rstd)] {
    Dense xf = read_dense(x, ACL_FLOAT);
    Dense w = weight.present() ? read_dense(weight, ACL_FLOAT) : scalar_dense(1.0, ACL_FLOAT);
    Dense b = bias.present() ? read_dense(bias, ACL_FLOAT) : Dense();
    std::vector<int64_t> sshape(x.shape.begin(), x.shape.begin() + axis);
    sshape.resize(x.rank(), 1);
    Dense o(ACL_FLOAT, x.shape), m(ACL_FLOAT, sshape), r(ACL_FLOAT, sshape);
    Attrs at;
    at.set("axis", axis);
    at.set("epsilon", eps);
    run_kernel("LayerNormalization", {xf.view(), w.view(), bias.present() ? b.view() : TensorView{}},
               {o.view(), m.view(), r.view()}, &at);
    commit(o, out);
    if (mean.present()) commit(m, mean);
    if (rstd.present()) commit(r, rstd);
  });
}

Plan plan_group_norm(const char* op, TensorArg x, TensorArg gamma, TensorArg beta, int64_t n, int64_t c, int64_t hxw,
                     int64_t groups, double eps, TensorArg out, TensorArg mean, TensorArg rstd) {
  check_float(op, x, "self");
  check_float(op, out, "out");
  require_shape(op, out, x.shape, "out");
  ACLNN_REQUIRE(x.rank() >= 2 && x.shape[0] == n && x.shape[1] == c && x.numel() == n * c * hxw, op, ": self ",
                dims_to_string(x.shape), " is not [N=", n, ", C=", c, ", HxW=", hxw, "]");
  ACLNN_REQUIRE(groups > 0 && c % groups == 0, op, ": group ", groups, " must divide C = ", c);
  for (const TensorArg* p : {&gamma, &beta})
    if (p->present()) {
      check_float(op, *p, "gamma/beta");
      ACLNN_REQUIRE(p->numel() == c, op, ": gamma/beta must have C = ", c, " elements");
    }
  return plan_of([n, c, hxw, groups, eps, x = std::move(x), gamma = std::move(gamma), beta = std::move(beta),
                  out = std::move(out), mean = std::move(mean), rstd = std::move(rstd)] {
    // Per (n, group) statistics over [C / G, HxW], then the per-channel affine.
    Dense xf = read_dense(x, ACL_FLOAT).reshaped({n, groups, c / groups * hxw});
    Dense mu(ACL_FLOAT, {n, groups, 1}), centered(ACL_FLOAT, xf.shape()), var(ACL_FLOAT, {n, groups, 1});
    Attrs keep;
    keep.set("keepdims", int64_t{1});
    Dense axis2 = int64_vector({2});
    run_kernel("ReduceMean", {xf.view(), axis2.view()}, {mu.view()}, &keep);
    run_kernel("Sub", {xf.view(), mu.view()}, {centered.view()});
    Dense sq(ACL_FLOAT, xf.shape());
    run_kernel("Mul", {centered.view(), centered.view()}, {sq.view()});
    run_kernel("ReduceMean", {sq.view(), axis2.view()}, {var.view()}, &keep);
    run_kernel("Add", {var.view(), scalar_dense(eps, ACL_FLOAT).view()}, {var.view()});
    run_kernel("Sqrt", {var.view()}, {var.view()});
    run_kernel("Reciprocal", {var.view()}, {var.view()});
    Dense o(ACL_FLOAT, xf.shape());
    run_kernel("Mul", {centered.view(), var.view()}, {o.view()});
    Dense oc = o.reshaped({n, c, hxw});
    if (gamma.present()) run_kernel("Mul", {oc.view(), read_dense(gamma, ACL_FLOAT).reshaped({c, 1}).view()}, {oc.view()});
    if (beta.present()) run_kernel("Add", {oc.view(), read_dense(beta, ACL_FLOAT).reshaped({c, 1}).view()}, {oc.view()});
    commit(oc, out);
    if (mean.present()) commit(mu, mean);
    if (rstd.present()) commit(var, rstd);
  });
}

}  // namespace acl_sim::aclnn
