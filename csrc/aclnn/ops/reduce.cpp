#include "aclnn/ops/reduce.h"

#include <algorithm>

#include "op/tensor_desc.h"

namespace acl_sim::aclnn {
namespace {

int accumulate_dtype(int dt) { return is_float_dtype(dt) ? (dt == ACL_DOUBLE ? ACL_DOUBLE : ACL_FLOAT) : ACL_INT64; }

Dense int64_vector(const std::vector<int64_t>& v) {
  Dense d(ACL_INT64, {static_cast<int64_t>(v.size())});
  std::copy(v.begin(), v.end(), static_cast<int64_t*>(d.data()));
  return d;
}

}  // namespace

Plan plan_reduce(const char* op, const char* kernel, TensorArg self, std::vector<int64_t> dims, bool keepdim,
                 TensorArg out) {
  require_nd(op, self, "self");
  require_nd(op, out, "out");
  std::vector<bool> reduced(self.rank(), dims.empty());
  for (int64_t& d : dims) {
    d = normalize_dim(op, d, self.rank());
    if (self.rank()) reduced[static_cast<size_t>(d)] = true;
  }
  std::vector<int64_t> expect;
  for (size_t k = 0; k < self.rank(); ++k) {
    if (!reduced[k]) expect.push_back(self.shape[k]);
    else if (keepdim) expect.push_back(1);
  }
  ACLNN_REQUIRE(out.shape == expect || out.numel() == element_count(expect), op, ": out has shape ",
                dims_to_string(out.shape), ", reducing ", dims_to_string(self.shape), " gives ", dims_to_string(expect));
  std::string k = kernel;
  return plan_of([k, dims, self = std::move(self), out = std::move(out)] {
    const int ct = accumulate_dtype(self.dtype);
    Dense x = read_dense(self, ct);
    Dense o(ct, out.shape);
    run_kernel(k.c_str(), {x.view(), int64_vector(dims).view()}, {o.view()});
    commit(o, out);
  });
}

Plan plan_cumsum(const char* op, TensorArg self, int64_t dim, TensorArg out) {
  require_nd(op, self, "self");
  require_nd(op, out, "out");
  require_shape(op, out, self.shape, "out");
  const int64_t d = normalize_dim(op, dim, self.rank());
  return plan_of([d, self = std::move(self), out = std::move(out)] {
    const int ct = accumulate_dtype(self.dtype);
    Dense x = read_dense(self, ct);
    Dense o = output_dense(out, ct);
    run_kernel("CumSum", {x.view(), scalar_dense(static_cast<double>(d), ACL_INT64).view()}, {o.view()});
    commit(o, out);
  });
}

Plan plan_argmax(const char* op, TensorArg self, int64_t dim, bool keepdim, TensorArg out) {
  require_nd(op, self, "self");
  require_dtype(op, out, "out", {ACL_INT64, ACL_INT32});
  const int64_t d = normalize_dim(op, dim, self.rank());
  std::vector<int64_t> expect = self.shape;
  if (!expect.empty()) {
    if (keepdim) expect[static_cast<size_t>(d)] = 1;
    else expect.erase(expect.begin() + d);
  }
  require_shape(op, out, expect, "out");
  return plan_of([d, self = std::move(self), out = std::move(out)] {
    Dense x = read_dense(self, is_float_dtype(self.dtype) ? ACL_FLOAT : self.dtype);
    Dense o(ACL_INT64, out.shape);
    Attrs at;
    at.set("axis", d);
    at.set("keepdims", int64_t{0});
    run_kernel("ArgMax", {x.view()}, {o.view()}, &at);
    commit(o, out);
  });
}

Plan plan_argsort(const char* op, TensorArg self, int64_t dim, bool descending, TensorArg out) {
  require_nd(op, self, "self");
  require_dtype(op, out, "out", {ACL_INT64, ACL_INT32});
  require_shape(op, out, self.shape, "out");
  const int64_t d = normalize_dim(op, dim, self.rank());
  return plan_of([d, descending, self = std::move(self), out = std::move(out)] {
    Dense x = read_dense(self, is_float_dtype(self.dtype) ? ACL_FLOAT : self.dtype);
    Dense vals(x.dtype(), self.shape), idx(ACL_INT64, self.shape);
    Attrs at;
    at.set("axis", d);
    at.set("largest", int64_t{descending ? 1 : 0});
    const int64_t k = self.rank() ? self.shape[static_cast<size_t>(d)] : 1;
    run_kernel("TopK", {x.view(), scalar_dense(static_cast<double>(k), ACL_INT64).view()}, {vals.view(), idx.view()},
               &at);
    commit(idx, out);
  });
}

}  // namespace acl_sim::aclnn
