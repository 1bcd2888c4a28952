#include "aclnn/tensor_arg.h"

#include <cstring>

#include "aclnn/descriptors.h"
#include "aclnn/status.h"
#include "executor/thread_pool.h"
#include "kernels/strided_view.h"
#include "common/fp16.h"
#include "op/tensor_desc.h"
#include "runtime/runtime.h"

namespace acl_sim::aclnn {

int64_t TensorArg::numel() const { return element_count(shape); }

size_t TensorArg::elem_bytes() const { return dtype_size(dtype); }

void* TensorArg::origin() const {
  if (dtype == ACL_INT4) return static_cast<unsigned char*>(data) + offset / 2;
  return static_cast<unsigned char*>(data) + offset * static_cast<int64_t>(elem_bytes());
}

bool TensorArg::contiguous() const {
  int64_t expect = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    if (shape[i] != 1 && strides[i] != expect) return false;
    expect *= shape[i];
  }
  return true;
}

std::string TensorArg::describe() const {
  return str(dtype_name(dtype), dims_to_string(shape), " strides ", dims_to_string(strides), " offset ", offset);
}

namespace {

// Bytes from the storage start to one past the last element the view touches.
size_t view_extent_bytes(const TensorArg& t) {
  if (t.numel() == 0) return 0;
  int64_t last = t.offset;
  for (size_t i = 0; i < t.shape.size(); ++i) last += (t.shape[i] - 1) * t.strides[i];
  if (t.dtype == ACL_INT4) return static_cast<size_t>(last / 2 + 1);
  return static_cast<size_t>(last + 1) * t.elem_bytes();
}

void check_device_memory(const TensorArg& t, const char* what) {
  size_t n = view_extent_bytes(t);
  if (n == 0) return;
  ACLNN_REQUIRE(t.data != nullptr, what, " has no data address");
  Device* d = Runtime::get().find_device_of(t.data);
  ACLNN_REQUIRE(d != nullptr, what, " data ", t.data, " is not device memory (allocate it with aclrtMalloc)");
  try {
    d->pool().check_range(t.data, n);
  } catch (const Error& e) {
    fail(ACLNN_ERR_PARAM_INVALID, what, " (", t.describe(), "): ", e.what());
  }
}

TensorArg copy_of(const aclTensor& t) {
  TensorArg a;
  a.dtype = t.dtype;
  a.format = t.format;
  a.shape = t.view;
  a.strides = t.strides;
  a.offset = t.offset;
  a.storage = t.storage;
  a.data = t.data;
  return a;
}

}  // namespace

TensorArg tensor_arg(const aclTensor* t, const char* what) {
  auto d = require_tensor(t, what);
  TensorArg a = copy_of(*d);
  check_device_memory(a, what);
  return a;
}

TensorArg optional_tensor_arg(const aclTensor* t, const char* what) {
  return t ? tensor_arg(t, what) : TensorArg{};
}

ScalarArg scalar_arg(const aclScalar* s, const char* what) {
  auto d = require_scalar(s, what);
  ScalarArg a;
  a.dtype = d->dtype;
  a.present = true;
  const unsigned char* b = d->bytes;
  auto load = [&](auto v) {
    std::memcpy(&v, b, sizeof v);
    return v;
  };
  switch (d->dtype) {
    case ACL_FLOAT: a.value = load(float{}); break;
    case ACL_DOUBLE: a.value = load(double{}); break;
    case ACL_FLOAT16: a.value = half_to_float(load(uint16_t{})); break;
    case ACL_BF16: a.value = bf16_to_float(load(uint16_t{})); break;
    case ACL_INT8: a.value = load(int8_t{}); break;
    case ACL_UINT8: a.value = load(uint8_t{}); break;
    case ACL_INT16: a.value = load(int16_t{}); break;
    case ACL_UINT16: a.value = load(uint16_t{}); break;
    case ACL_INT32: a.value = load(int32_t{}); break;
    case ACL_UINT32: a.value = load(uint32_t{}); break;
    case ACL_INT64: a.ivalue = load(int64_t{}); a.value = static_cast<double>(a.ivalue); return a;
    case ACL_UINT64: a.ivalue = static_cast<int64_t>(load(uint64_t{})); a.value = static_cast<double>(a.ivalue); return a;
    case ACL_BOOL: a.value = load(uint8_t{}) != 0; break;
    default: fail(ACLNN_ERR_PARAM_INVALID, what, " has unsupported dtype ", dtype_name(d->dtype));
  }
  a.ivalue = static_cast<int64_t>(a.value);
  return a;
}

ScalarArg optional_scalar_arg(const aclScalar* s, const char* what) { return s ? scalar_arg(s, what) : ScalarArg{}; }

std::vector<int64_t> int_array_arg(const aclIntArray* a, const char* what) { return require_int_array(a, what)->values; }

std::vector<TensorArg> tensor_list_arg(const aclTensorList* l, const char* what) {
  auto list = require_tensor_list(l, what);
  std::vector<TensorArg> out;
  for (size_t i = 0; i < list->tensors.size(); ++i) {
    std::string name = str(what, "[", i, "]");
    TensorArg a = copy_of(*list->tensors[i]);
    check_device_memory(a, name.c_str());
    out.push_back(std::move(a));
  }
  return out;
}

// ------------------------------------------------------------------ Dense

Dense::Dense(int dtype, std::vector<int64_t> shape) : dtype_(dtype), shape_(std::move(shape)) {
  size_t bytes = static_cast<size_t>(std::max<int64_t>(numel(), 1)) * std::max<size_t>(dtype_size(dtype), 1);
  owned_.reset(new unsigned char[bytes + 64]);
  data_ = owned_.get();
}

Dense::Dense(int dtype, std::vector<int64_t> shape, void* alias) : data_(alias), dtype_(dtype), shape_(std::move(shape)) {}

int64_t Dense::numel() const { return element_count(shape_); }

Dense Dense::reshaped(std::vector<int64_t> shape) const {
  ACL_SIM_REQUIRE(element_count(shape) == numel(), ACLNN_ERR_INNER, "reshape ", dims_to_string(shape_), " to ",
                  dims_to_string(shape), " changes the element count");
  Dense d = *this;
  d.shape_ = std::move(shape);
  return d;
}

namespace {

void require_byte_dtype(const TensorArg& t) {
  ACL_SIM_REQUIRE(t.elem_bytes() != 0, ACLNN_ERR_PARAM_INVALID, "dtype ", dtype_name(t.dtype),
                  " cannot be read element by element (packed sub-byte type)");
}

kern::StridedView view_of(const TensorArg& t) { return kern::StridedView{t.data, t.dtype, t.shape, t.strides, t.offset}; }

}  // namespace

// Every gather / scatter goes through kern::strided_copy: one pass that converts the dtype,
// broadcasts, and stages overlapping operands.
Dense read_dense(const TensorArg& t, int dtype) {
  require_byte_dtype(t);
  if (t.contiguous() && t.dtype == dtype) return Dense(dtype, t.shape, t.origin());
  Dense out(dtype, t.shape);
  kern::strided_copy("aclnn", view_of(t), kern::strided_of(out.view()));
  return out;
}

Dense output_dense(const TensorArg& out, int dtype) {
  require_byte_dtype(out);
  if (out.contiguous() && out.dtype == dtype) return Dense(dtype, out.shape, out.origin());
  return Dense(dtype, out.shape);
}

void commit(const Dense& d, const TensorArg& out) {
  if (d.aliased() && d.data() == out.origin() && d.dtype() == out.dtype) return;
  require_byte_dtype(out);
  ACL_SIM_REQUIRE(d.numel() == out.numel(), ACLNN_ERR_INNER, "result of ", d.numel(), " elements for an output of ",
                  out.numel());
  kern::strided_copy("aclnn", kern::strided_of(d.reshaped(out.shape).view()), view_of(out));
}

void copy_view(const TensorArg& src, const TensorArg& dst) {
  ACL_SIM_REQUIRE(src.shape == dst.shape, ACLNN_ERR_PARAM_INVALID, "copy from ", src.describe(), " to ", dst.describe(),
                  ": shapes differ");
  require_byte_dtype(src);
  require_byte_dtype(dst);
  kern::strided_copy("aclnn", view_of(src), view_of(dst));
}

void run_kernel(const char* onnx_op, std::vector<TensorView> inputs, std::vector<TensorView> outputs, const Attrs* attrs) {
  OpFn fn = find_op(onnx_op);
  ACL_SIM_REQUIRE(fn != nullptr, ACLNN_ERR_INNER, "kernel ", onnx_op, " is not registered");
  static const Attrs kNoAttrs;
  OpContext ctx;
  ctx.op_type = onnx_op;
  ctx.node_name = onnx_op;
  ctx.inputs = std::move(inputs);
  ctx.outputs = std::move(outputs);
  ctx.attrs = attrs ? attrs : &kNoAttrs;
  fn(ctx);
}

}  // namespace acl_sim::aclnn
