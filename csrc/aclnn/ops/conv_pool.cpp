#include "aclnn/ops/conv_pool.h"

#include <algorithm>

#include "op/tensor_desc.h"

namespace acl_sim::aclnn {
namespace {

void check_float(const char* op, const TensorArg& t, const char* what) {
  require_nd(op, t, what);
  require_dtype(op, t, what, kFloatTypes);
}

/** A per-spatial-dim list of n values: given n, or one value repeated. */
std::vector<int64_t> per_dim(const char* op, std::vector<int64_t> v, size_t n, const char* what) {
  if (v.size() == 1 && n > 1) v.assign(n, v[0]);
  ACLNN_REQUIRE(v.size() == n, op, ": ", what, " has ", v.size(), " entries for ", n, " spatial dims");
  return v;
}

Attrs ints_attr(Attrs a, const char* name, std::vector<int64_t> v) {
  a.set(name, std::move(v));
  return a;
}

}  // namespace

Plan plan_convolution(const char* op, ConvArgs a) {
  check_float(op, a.input, "input");
  check_float(op, a.weight, "weight");
  check_float(op, a.out, "output");
  ACLNN_REQUIRE(a.input.rank() >= 3 && a.input.rank() <= 5 && a.weight.rank() == a.input.rank(), op,
                ": input ", dims_to_string(a.input.shape), " and weight ", dims_to_string(a.weight.shape),
                " must both be 3-D to 5-D (N, C, spatial...)");
  ACLNN_REQUIRE(a.groups >= 1, op, ": groups must be >= 1");
  const size_t sp = a.input.rank() - 2;
  a.stride = per_dim(op, a.stride, sp, "stride");
  a.padding = per_dim(op, a.padding, sp, "padding");
  a.dilation = per_dim(op, a.dilation, sp, "dilation");
  if (a.transposed) a.output_padding = per_dim(op, a.output_padding.empty() ? std::vector<int64_t>{0} : a.output_padding, sp, "outputPadding");
  if (a.bias.present()) check_float(op, a.bias, "bias");
  return plan_of([a = std::move(a), sp] {
    Dense x = read_dense(a.input, ACL_FLOAT), w = read_dense(a.weight, ACL_FLOAT);
    Dense b = a.bias.present() ? read_dense(a.bias, ACL_FLOAT) : Dense();
    Dense o = output_dense(a.out, ACL_FLOAT);
    std::vector<int64_t> pads = a.padding;
    pads.insert(pads.end(), a.padding.begin(), a.padding.end());
    Attrs at;
    at.set("strides", a.stride);
    at.set("pads", pads);
    at.set("dilations", a.dilation);
    at.set("group", a.groups);
    at.set("kernel_shape", std::vector<int64_t>(a.weight.shape.begin() + 2, a.weight.shape.end()));
    if (a.transposed) at.set("output_padding", a.output_padding);
    run_kernel(a.transposed ? "ConvTranspose" : "Conv", {x.view(), w.view(), a.bias.present() ? b.view() : TensorView{}},
               {o.view()}, &at);
    commit(o, a.out);
    (void)sp;
  });
}

Plan plan_pool(const char* op, const char* kernel, PoolArgs a) {
  check_float(op, a.self, "self");
  check_float(op, a.out, "out");
  ACLNN_REQUIRE(a.self.rank() == 4 || a.self.rank() == 3, op, ": self must be [N, C, H, W] or [C, H, W], got ",
                dims_to_string(a.self.shape));
  a.kernel = per_dim(op, a.kernel, 2, "kernelSize");
  a.stride = per_dim(op, a.stride.empty() ? a.kernel : a.stride, 2, "strides");
  if (a.pads.size() <= 2) {
    std::vector<int64_t> p = per_dim(op, a.pads.empty() ? std::vector<int64_t>{0} : a.pads, 2, "paddings");
    a.pads = {p[0], p[1], p[0], p[1]};
  }
  ACLNN_REQUIRE(a.pads.size() == 4, op, ": paddings must have 1, 2 or 4 entries");
  ACLNN_REQUIRE(a.divisor_override == 0, op, ": divisorOverride is not supported (0 only)");
  std::string k = kernel;
  return plan_of([k, a = std::move(a)] {
    std::vector<int64_t> xs = a.self.shape, os = a.out.shape;
    if (xs.size() == 3) xs.insert(xs.begin(), 1), os.insert(os.begin(), 1);
    Dense x = read_dense(a.self, ACL_FLOAT).reshaped(xs);
    Dense o(ACL_FLOAT, os);
    Attrs at;
    at.set("kernel_shape", a.kernel);
    at.set("strides", a.stride);
    at.set("pads", a.pads);
    at.set("ceil_mode", int64_t{a.ceil_mode ? 1 : 0});
    at.set("count_include_pad", int64_t{a.count_include_pad ? 1 : 0});
    run_kernel(k.c_str(), {x.view()}, {o.view()}, &at);
    commit(o, a.out);
  });
}

Plan plan_upsample_nearest(const char* op, TensorArg self, std::vector<int64_t> output_size, TensorArg out) {
  require_nd(op, self, "self");
  require_nd(op, out, "out");
  ACLNN_REQUIRE(self.rank() == 4 && output_size.size() == 2, op, ": self must be [N, C, H, W] and outputSize 2 values");
  require_shape(op, out, {self.shape[0], self.shape[1], output_size[0], output_size[1]}, "out");
  return plan_of([self = std::move(self), out = std::move(out)] {
    const int ct = is_float_dtype(self.dtype) ? ACL_FLOAT : self.dtype;
    Dense x = read_dense(self, ct);
    Dense o = output_dense(out, ct);
    Dense sizes(ACL_INT64, {4});
    std::copy(out.shape.begin(), out.shape.end(), static_cast<int64_t*>(sizes.data()));
    Attrs at;
    at.set("mode", std::string("nearest"));
    at.set("coordinate_transformation_mode", std::string("asymmetric"));
    at.set("nearest_mode", std::string("floor"));
    run_kernel("Resize", {x.view(), TensorView{}, TensorView{}, sizes.view()}, {o.view()}, &at);
    commit(o, out);
  });
}

Plan plan_im2col(const char* op, TensorArg self, std::vector<int64_t> kernel, std::vector<int64_t> dilation,
                 std::vector<int64_t> padding, std::vector<int64_t> stride, TensorArg out) {
  require_nd(op, self, "self");
  require_nd(op, out, "out");
  ACLNN_REQUIRE(self.rank() == 4 || self.rank() == 3, op, ": self must be [N, C, H, W] or [C, H, W]");
  kernel = per_dim(op, kernel, 2, "kernelSize");
  dilation = per_dim(op, dilation, 2, "dilation");
  padding = per_dim(op, padding, 2, "padding");
  stride = per_dim(op, stride, 2, "stride");
  std::vector<int64_t> xs = self.shape;
  if (xs.size() == 3) xs.insert(xs.begin(), 1);
  const int64_t N = xs[0], Cc = xs[1], H = xs[2], W = xs[3];
  const int64_t Hp = H + 2 * padding[0], Wp = W + 2 * padding[1];
  const int64_t OH = (Hp - dilation[0] * (kernel[0] - 1) - 1) / stride[0] + 1;
  const int64_t OW = (Wp - dilation[1] * (kernel[1] - 1) - 1) / stride[1] + 1;
  ACLNN_REQUIRE(OH > 0 && OW > 0, op, ": the kernel does not fit the padded input");
  std::vector<int64_t> expect{N, Cc * kernel[0] * kernel[1], OH * OW};
  if (self.rank() == 3) expect.erase(expect.begin());
  require_shape(op, out, expect, "out");
  return plan_of([op, N, Cc, H, W, Hp, Wp, OH, OW, kernel, dilation, padding, stride, self = std::move(self),
                  out = std::move(out)] {
    using kern::StridedView;
    Dense padded(self.dtype, {N, Cc, Hp, Wp});
    StridedView pv = strided(padded);
    kern::strided_fill(op, pv, 0.0);
    StridedView inner = pv;
    inner.shape = {N, Cc, H, W};
    inner.offset = padding[0] * Wp + padding[1];
    StridedView src = strided(self);
    if (src.shape.size() == 3) src.shape.insert(src.shape.begin(), 1), src.strides.insert(src.strides.begin(), 0);
    kern::strided_copy(op, src, inner);
    StridedView o = strided(out);
    if (o.shape.size() == 2) o.shape.insert(o.shape.begin(), 1), o.strides.insert(o.strides.begin(), 0);
    const int64_t taps = kernel[0] * kernel[1];
    for (int64_t i = 0; i < kernel[0]; ++i)
      for (int64_t j = 0; j < kernel[1]; ++j) {
        StridedView s = pv;
        s.shape = {N, Cc, OH, OW};
        s.strides = {pv.strides[0], pv.strides[1], stride[0] * Wp, stride[1]};
        s.offset = i * dilation[0] * Wp + j * dilation[1];
        StridedView d{o.data, o.dtype, {N, Cc, OH, OW},
                      {o.strides[0], taps * o.strides[1], OW * o.strides[2], o.strides[2]},
                      o.offset + (i * kernel[1] + j) * o.strides[1]};
        kern::strided_copy(op, s, d);
      }
  });
}

}  // namespace acl_sim::aclnn
