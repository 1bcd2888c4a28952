#include "aclnn/ops/index.h"

#include "op/tensor_desc.h"

namespace acl_sim::aclnn {
namespace {

using kern::StridedView;

/** The view with dim `d` fixed at i (rank - 1). */
StridedView select(StridedView v, size_t d, int64_t i) {
  v.offset += i * v.strides[d];
  v.shape.erase(v.shape.begin() + static_cast<std::ptrdiff_t>(d));
  v.strides.erase(v.strides.begin() + static_cast<std::ptrdiff_t>(d));
  return v;
}

std::vector<int64_t> read_indices(const TensorArg& index) {
  Dense d = read_dense(index, ACL_INT64);
  const int64_t* p = static_cast<const int64_t*>(d.data());
  return std::vector<int64_t>(p, p + d.numel());
}

int64_t checked_index(const char* op, int64_t i, int64_t n) {
  if (i < 0) i += n;
  ACLNN_REQUIRE(i >= 0 && i < n, op, ": index ", i, " is out of range for a dim of size ", n);
  return i;
}

void require_index(const char* op, const TensorArg& index) {
  require_dtype(op, index, "index", {ACL_INT32, ACL_INT64});
}

}  // namespace

Plan plan_gather(const char* op, TensorArg self, int64_t dim, TensorArg index, TensorArg out, bool index_1d) {
  require_nd(op, self, "self");
  require_nd(op, out, "out");
  require_index(op, index);
  ACLNN_REQUIRE(!index_1d || index.rank() <= 1, op, ": index must be 1-D, got ", dims_to_string(index.shape));
  ACLNN_REQUIRE(self.dtype == out.dtype, op, ": self and out dtypes differ (", dtype_name(self.dtype), ", ",
                dtype_name(out.dtype), ")");
  const size_t d = static_cast<size_t>(normalize_dim(op, dim, self.rank()));
  std::vector<int64_t> expect(self.shape.begin(), self.shape.begin() + static_cast<std::ptrdiff_t>(d));
  expect.insert(expect.end(), index.shape.begin(), index.shape.end());
  if (self.rank() > 0) expect.insert(expect.end(), self.shape.begin() + static_cast<std::ptrdiff_t>(d) + 1, self.shape.end());
  if (index_1d && index.rank() == 0) expect.insert(expect.begin() + static_cast<std::ptrdiff_t>(d), 1);
  require_shape(op, out, expect, "out");
  return plan_of([op, d, self = std::move(self), index = std::move(index), out = std::move(out)] {
    std::vector<int64_t> idx = read_indices(index);
    // out is [self[:d], index dims, self[d+1:]]: element i of index (row-major) selects the slice of out at
    // those index coordinates, which receives slice idx[i] of self.
    const StridedView o = strided(out);
    const size_t ir = index.rank();
    StridedView rest{o.data, o.dtype, {}, {}, o.offset};
    for (size_t k = 0; k < o.shape.size(); ++k) {
      if (k >= d && k < d + ir) continue;
      rest.shape.push_back(o.shape[k]);
      rest.strides.push_back(o.strides[k]);
    }
    if (index.rank() == 0 && o.shape.size() > rest.shape.size()) {  // a 0-d index of IndexSelect keeps a dim of 1
      rest.shape.erase(rest.shape.begin() + static_cast<std::ptrdiff_t>(d));
      rest.strides.erase(rest.strides.begin() + static_cast<std::ptrdiff_t>(d));
    }
    const StridedView src = strided(self);
    const int64_t n = self.rank() ? self.shape[d] : 1;
    for (int64_t i = 0; i < static_cast<int64_t>(idx.size()); ++i) {
      StridedView dst = rest;
      int64_t rem = i;
      for (size_t k = ir; k-- > 0;) {
        dst.offset += (rem % o.shape[d + k]) * o.strides[d + k];
        rem /= o.shape[d + k];
      }
      kern::strided_copy(op, select(src, d, checked_index(op, idx[i], n)), dst);
    }
  });
}

Plan plan_index_copy(const char* op, TensorArg self, int64_t dim, TensorArg index, TensorArg source) {
  require_nd(op, self, "selfRef");
  require_nd(op, source, "source");
  require_index(op, index);
  ACLNN_REQUIRE(index.rank() <= 1, op, ": index must be 1-D, got ", dims_to_string(index.shape));
  ACLNN_REQUIRE(self.dtype == source.dtype, op, ": selfRef and source dtypes differ (", dtype_name(self.dtype),
                ", ", dtype_name(source.dtype), ")");
  const size_t d = static_cast<size_t>(normalize_dim(op, dim, self.rank()));
  std::vector<int64_t> expect = self.shape;
  if (!expect.empty()) expect[d] = index.numel();
  ACLNN_REQUIRE(source.shape == expect, op, ": source has shape ", dims_to_string(source.shape), ", expected ",
                dims_to_string(expect), " for ", index.numel(), " indices along dim ", d);
  return plan_of([op, d, self = std::move(self), index = std::move(index), source = std::move(source)] {
    std::vector<int64_t> idx = read_indices(index);
    const StridedView dst = strided(self), src = strided(source);
    for (int64_t i = 0; i < static_cast<int64_t>(idx.size()); ++i)
      kern::strided_copy(op, select(src, d, i), select(dst, d, checked_index(op, idx[i], self.shape[d])));
  });
}

Plan plan_index_fill(const char* op, TensorArg self, int64_t dim, std::vector<int64_t> index, double value) {
  require_nd(op, self, "selfRef");
  const size_t d = static_cast<size_t>(normalize_dim(op, dim, self.rank()));
  for (int64_t& i : index) i = checked_index(op, i, self.shape[d]);
  return plan_of([op, d, index, value, self = std::move(self)] {
    for (int64_t i : index) kern::strided_fill(op, select(strided(self), d, i), value);
  });
}

Plan plan_scatter(const char* op, TensorArg self, int64_t dim, TensorArg index, TensorArg src, int64_t reduce,
                  TensorArg out) {
  require_nd(op, self, "self");
  require_nd(op, src, "src");
  require_nd(op, out, "out");
  require_index(op, index);
  require_dtype(op, self, "self",
                {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_UINT8,
                 ACL_BOOL});
  ACLNN_REQUIRE(src.dtype == self.dtype && out.dtype == self.dtype, op, ": self, src and out dtypes differ (",
                dtype_name(self.dtype), ", ", dtype_name(src.dtype), ", ", dtype_name(out.dtype), ")");
  ACLNN_REQUIRE(index.rank() == self.rank() && src.rank() == self.rank(), op, ": self ", dims_to_string(self.shape),
                ", index ", dims_to_string(index.shape), " and src ", dims_to_string(src.shape),
                " must have the same rank");
  ACLNN_REQUIRE(self.rank() <= 8, op, ": self has rank ", self.rank(), ", at most 8 is supported");
  ACLNN_REQUIRE(reduce >= 0 && reduce <= 2, op, ": reduce ", reduce, " is not 0 (replace), 1 (add) or 2 (multiply)");
  const int64_t d = normalize_dim(op, dim, self.rank());
  for (size_t k = 0; k < self.rank(); ++k) {
    ACLNN_REQUIRE(index.shape[k] <= src.shape[k] && (static_cast<int64_t>(k) == d || index.shape[k] <= self.shape[k]),
                  op, ": index ", dims_to_string(index.shape), " exceeds src ", dims_to_string(src.shape),
                  " or (off dim ", d, ") self ", dims_to_string(self.shape), " in dim ", k);
  }
  require_shape(op, out, self.shape, "out");
  // src's leading corner of index's shape: the same storage and strides, a smaller view.
  src.shape = index.shape;
  return plan_of([d, reduce, self = std::move(self), index = std::move(index), src = std::move(src),
                  out = std::move(out)] {
    Dense x = read_dense(self, self.dtype);
    Dense o = output_dense(out, out.dtype);
    if (o.data() == x.data()) {  // out is self: the kernel copies data to output first, so give it its own copy
      Dense copy(x.dtype(), x.shape());
      kern::strided_copy("aclnnScatter", strided(self), strided(copy));
      x = copy;
    }
    Attrs attrs;
    attrs.set("axis", d);
    attrs.set("reduction", std::string(reduce == 0 ? "none" : reduce == 1 ? "add" : "mul"));
    run_kernel("ScatterElements", {x.view(), read_dense(index, index.dtype).view(), read_dense(src, src.dtype).view()},
               {o.view()}, &attrs);
    commit(o, out);
  });
}

}  // namespace acl_sim::aclnn
