#include "aclnn/ops/layout.h"

#include <cmath>

#include "op/tensor_desc.h"

namespace acl_sim::aclnn {
namespace {

using kern::StridedView;

/** The view of `t` restricted to [start, start + len * step) along dim. */
StridedView narrowed(StridedView v, size_t dim, int64_t start, int64_t len, int64_t step = 1) {
  v.offset += start * v.strides[dim];
  v.shape[dim] = len;
  v.strides[dim] *= step;
  return v;
}

void check_copyable(const char* op, const TensorArg& src, const TensorArg& out) {
  require_nd(op, src, "self");
  require_nd(op, out, "out");
}

}  // namespace

Plan plan_copy(const char* op, TensorArg src, TensorArg out) {
  check_copyable(op, src, out);
  ACLNN_REQUIRE(broadcasts_to(src.shape, out.shape), op, ": ", dims_to_string(src.shape),
                " does not broadcast to out ", dims_to_string(out.shape));
  return plan_of([op, src = std::move(src), out = std::move(out)] { kern::strided_copy(op, strided(src), strided(out)); });
}

Plan plan_permute(const char* op, TensorArg self, std::vector<int64_t> dims, TensorArg out) {
  check_copyable(op, self, out);
  ACLNN_REQUIRE(dims.size() == self.rank(), op, ": dims has ", dims.size(), " entries for rank ", self.rank());
  std::vector<bool> seen(dims.size(), false);
  StridedView v = strided(self);
  for (size_t i = 0; i < dims.size(); ++i) {
    int64_t d = normalize_dim(op, dims[i], self.rank());
    ACLNN_REQUIRE(!seen[d], op, ": dims repeats ", dims[i]);
    seen[d] = true;
    v.shape[i] = self.shape[d];
    v.strides[i] = self.strides[d];
  }
  require_shape(op, out, v.shape, "out");
  return plan_of([op, v, out = std::move(out)] { kern::strided_copy(op, v, strided(out)); });
}

Plan plan_slice(const char* op, TensorArg self, int64_t dim, int64_t start, int64_t end, int64_t step, TensorArg out) {
  check_copyable(op, self, out);
  const size_t d = static_cast<size_t>(normalize_dim(op, dim, self.rank()));
  ACLNN_REQUIRE(step > 0, op, ": step must be positive, got ", step);
  const int64_t n = self.shape[d];
  if (start < 0) start += n;
  if (end < 0) end += n;
  start = std::clamp<int64_t>(start, 0, n);
  end = std::clamp<int64_t>(end, start, n);
  const int64_t len = (end - start + step - 1) / step;
  StridedView v = narrowed(strided(self), d, start, len, step);
  require_shape(op, out, v.shape, "out");
  return plan_of([op, v, out = std::move(out)] { kern::strided_copy(op, v, strided(out)); });
}

Plan plan_repeat(const char* op, TensorArg self, std::vector<int64_t> repeats, TensorArg out) {
  check_copyable(op, self, out);
  ACLNN_REQUIRE(repeats.size() >= self.rank(), op, ": repeats has ", repeats.size(),
                " entries, fewer than self's rank ", self.rank());
  const size_t r = repeats.size(), lead = r - self.rank();
  std::vector<int64_t> expect(r);
  // out dim d = [repeat r_d][size s_d]: a view of 2r dims where self broadcasts over the repeat dims.
  StridedView src{self.data, self.dtype, {}, {}, self.offset};
  for (size_t d = 0; d < r; ++d) {
    ACLNN_REQUIRE(repeats[d] >= 0, op, ": repeats must be >= 0, got ", repeats[d]);
    const int64_t s = d < lead ? 1 : self.shape[d - lead];
    expect[d] = s * repeats[d];
    src.shape.insert(src.shape.end(), {1, s});
    src.strides.insert(src.strides.end(), {0, d < lead ? 0 : self.strides[d - lead]});
  }
  require_shape(op, out, expect, "out");
  return plan_of([op, src, repeats, out = std::move(out)] {
    StridedView dst{out.data, out.dtype, {}, {}, out.offset};
    for (size_t d = 0; d < repeats.size(); ++d) {
      const int64_t s = src.shape[2 * d + 1];
      dst.shape.insert(dst.shape.end(), {repeats[d], s});
      dst.strides.insert(dst.strides.end(), {s * out.strides[d], out.strides[d]});
    }
    kern::strided_copy(op, src, dst);
  });
}

Plan plan_repeat_interleave(const char* op, TensorArg self, int64_t repeats, int64_t dim, int64_t output_size,
                            TensorArg out) {
  check_copyable(op, self, out);
  ACLNN_REQUIRE(repeats >= 0, op, ": repeats must be >= 0, got ", repeats);
  const size_t d = static_cast<size_t>(normalize_dim(op, dim, self.rank()));
  std::vector<int64_t> expect = self.shape;
  expect[d] *= repeats;
  ACLNN_REQUIRE(output_size <= 0 || output_size == expect[d], op, ": outputSize ", output_size, " is not ",
                expect[d]);
  require_shape(op, out, expect, "out");
  return plan_of([op, d, repeats, self = std::move(self), out = std::move(out)] {
    // out dim d = [size n][repeat r]; self broadcasts over the repeat dim.
    StridedView src = strided(self), dst = strided(out);
    src.shape.insert(src.shape.begin() + d + 1, 1);
    src.strides.insert(src.strides.begin() + d + 1, 0);
    dst.shape[d] = self.shape[d];
    dst.shape.insert(dst.shape.begin() + d + 1, repeats);
    dst.strides.insert(dst.strides.begin() + d + 1, out.strides[d]);
    dst.strides[d] = out.strides[d] * repeats;
    kern::strided_copy(op, src, dst);
  });
}

Plan plan_cat(const char* op, std::vector<TensorArg> tensors, int64_t dim, TensorArg out) {
  ACLNN_REQUIRE(!tensors.empty(), op, ": the tensor list is empty");
  require_nd(op, out, "out");
  const size_t d = static_cast<size_t>(normalize_dim(op, dim, out.rank()));
  int64_t total = 0;
  for (const TensorArg& t : tensors) {
    require_nd(op, t, "tensors[i]");
    ACLNN_REQUIRE(t.rank() == out.rank(), op, ": tensor of shape ", dims_to_string(t.shape), " and out ",
                  dims_to_string(out.shape), " differ in rank");
    for (size_t k = 0; k < t.rank(); ++k)
      ACLNN_REQUIRE(k == d || t.shape[k] == out.shape[k], op, ": tensor of shape ", dims_to_string(t.shape),
                    " does not match out ", dims_to_string(out.shape), " outside dim ", d);
    total += t.shape[d];
  }
  ACLNN_REQUIRE(total == out.shape[d], op, ": the tensors add up to ", total, " along dim ", d, ", out has ",
                out.shape[d]);
  return plan_of([op, d, tensors = std::move(tensors), out = std::move(out)] {
    int64_t at = 0;
    for (const TensorArg& t : tensors) {
      kern::strided_copy(op, strided(t), narrowed(strided(out), d, at, t.shape[d]));
      at += t.shape[d];
    }
  });
}

Plan plan_constant_pad(const char* op, TensorArg self, std::vector<int64_t> pad, double value, TensorArg out) {
  check_copyable(op, self, out);
  ACLNN_REQUIRE(pad.size() % 2 == 0 && pad.size() / 2 <= self.rank(), op, ": pad has ", pad.size(),
                " entries; expected pairs for at most ", self.rank(), " dims");
  std::vector<int64_t> expect = self.shape;
  for (size_t i = 0; i < pad.size() / 2; ++i) {
    size_t d = self.rank() - 1 - i;
    expect[d] += pad[2 * i] + pad[2 * i + 1];
    ACLNN_REQUIRE(expect[d] >= 0, op, ": pad makes dim ", d, " negative");
  }
  require_shape(op, out, expect, "out");
  return plan_of([op, pad, value, self = std::move(self), out = std::move(out)] {
    StridedView src = strided(self), dst = strided(out);
    kern::strided_fill(op, dst, value);
    for (size_t i = 0; i < pad.size() / 2; ++i) {
      const size_t d = self.rank() - 1 - i;
      const int64_t before = pad[2 * i], after = pad[2 * i + 1];
      // Negative pads crop the source; positive ones place it inside out.
      const int64_t crop_lo = before < 0 ? -before : 0, crop_hi = after < 0 ? -after : 0;
      const int64_t len = self.shape[d] - crop_lo - crop_hi;
      if (len <= 0) return;
      src = narrowed(src, d, crop_lo, len);
      dst = narrowed(dst, d, before > 0 ? before : 0, len);
    }
    kern::strided_copy(op, src, dst);
  });
}

Plan plan_reflection_pad1d(const char* op, TensorArg self, std::vector<int64_t> pad, TensorArg out) {
  check_copyable(op, self, out);
  ACLNN_REQUIRE(pad.size() == 2 && self.rank() >= 1, op, ": padding must have 2 entries");
  const size_t d = self.rank() - 1;
  const int64_t n = self.shape[d], l = pad[0], r = pad[1];
  ACLNN_REQUIRE(l >= 0 && r >= 0 && l < n && r < n, op, ": paddings (", l, ", ", r,
                ") must be non-negative and smaller than the last dim ", n);
  std::vector<int64_t> expect = self.shape;
  expect[d] += l + r;
  require_shape(op, out, expect, "out");
  return plan_of([op, d, n, l, r, self = std::move(self), out = std::move(out)] {
    StridedView src = strided(self), dst = strided(out);
    kern::strided_copy(op, src, narrowed(dst, d, l, n));
    // Reflected columns: out[l - 1 - j] = self[1 + j], out[l + n + j] = self[n - 2 - j], as reversed strided views.
    if (l > 0) kern::strided_copy(op, narrowed(src, d, l, l, -1), narrowed(dst, d, 0, l));
    if (r > 0) kern::strided_copy(op, narrowed(src, d, n - 2, r, -1), narrowed(dst, d, l + n, r));
  });
}

Plan plan_roll(const char* op, TensorArg self, std::vector<int64_t> shifts, std::vector<int64_t> dims, TensorArg out) {
  check_copyable(op, self, out);
  require_shape(op, out, self.shape, "out");
  ACLNN_REQUIRE(shifts.size() == dims.size() && !dims.empty(), op, ": shifts and dims must have the same, non-zero length");
  std::vector<size_t> ds;
  for (int64_t dd : dims) ds.push_back(static_cast<size_t>(normalize_dim(op, dd, self.rank())));
  return plan_of([op, ds, shifts, self = std::move(self), out = std::move(out)] {
    // One dim at a time through a dense buffer: out[(i + s) mod n] = in[i] is two slice copies.
    Dense cur = read_dense(self, self.dtype);
    for (size_t k = 0; k < ds.size(); ++k) {
      const size_t d = ds[k];
      const int64_t n = self.shape[d];
      Dense next(self.dtype, self.shape);
      if (n > 0) {
        int64_t s = ((shifts[k] % n) + n) % n;
        StridedView src = strided(cur), dst = strided(next);
        kern::strided_copy(op, narrowed(src, d, 0, n - s), narrowed(dst, d, s, n - s));
        if (s > 0) kern::strided_copy(op, narrowed(src, d, n - s, s), narrowed(dst, d, 0, s));
      }
      cur = next;
    }
    kern::strided_copy(op, strided(cur), strided(out));
  });
}

Plan plan_trilu(const char* op, TensorArg self, int64_t diagonal, bool upper, TensorArg out) {
  check_copyable(op, self, out);
  require_shape(op, out, self.shape, "out");
  ACLNN_REQUIRE(self.rank() >= 2, op, ": self must be at least 2-D, got ", dims_to_string(self.shape));
  return plan_of([diagonal, upper, self = std::move(self), out = std::move(out)] {
    Dense x = read_dense(self, self.dtype);
    Dense o = output_dense(out, self.dtype);
    Dense k = scalar_dense(static_cast<double>(diagonal), ACL_INT64);
    Attrs at;
    at.set("upper", int64_t{upper ? 1 : 0});
    run_kernel("Trilu", {x.view(), k.view()}, {o.view()}, &at);
    commit(o, out);
  });
}

Plan plan_arange(const char* op, double start, double end, double step, TensorArg out) {
  require_nd(op, out, "out");
  ACLNN_REQUIRE(step != 0, op, ": step must not be 0");
  ACLNN_REQUIRE((end - start) / step >= 0, op, ": step ", step, " does not go from ", start, " towards ", end);
  const int64_t n = static_cast<int64_t>(std::ceil((end - start) / step));
  ACLNN_REQUIRE(out.numel() == n, op, ": out has ", out.numel(), " elements; [", start, ", ", end, ") by ", step,
                " gives ", n);
  return plan_of([start, end, step, n, out = std::move(out)] {
    const int ct = is_float_dtype(out.dtype) ? ACL_DOUBLE : ACL_INT64;
    Dense o(ct, {n});
    run_kernel("Range", {scalar_dense(start, ct).view(), scalar_dense(end, ct).view(), scalar_dense(step, ct).view()},
               {o.view()});
    commit(o, out);
  });
}

}  // namespace acl_sim::aclnn
