// CANN single-op types → built-in ONNX-semantics kernels.
//
// Each translator checks the call the way CANN's op info library would
// (operand counts, dtypes, shapes, attributes) and emits kernel calls. CANN
// attribute conventions differ from ONNX (Conv2D takes 4-element NCHW strides
// and pads as top/bottom/left/right; MatMul transposes are attributes), so the
// conversion lives here rather than in the kernels.
#include <algorithm>
#include <cstring>
#include <unordered_map>

#include "acl/acl_base.h"
#include "common/error.h"
#include "op/op_plan.h"
#include "op/op_translate_blas.h"
#include "op/tensor_desc.h"

namespace acl_sim {

TensorRef OpPlan::add_const_i64(const std::vector<int64_t>& values) {
  PlanTensor t;
  t.dtype = ACL_INT64;
  t.shape = {static_cast<int64_t>(values.size())};
  t.bytes.resize(values.size() * 8);
  if (!values.empty()) std::memcpy(t.bytes.data(), values.data(), t.bytes.size());
  consts.push_back(std::move(t));
  return {TensorRef::kConst, static_cast<int>(consts.size() - 1)};
}

namespace {

using Dims = std::vector<int64_t>;

TensorRef in_ref(int i) { return {TensorRef::kInput, i}; }
TensorRef out_ref(int i) { return {TensorRef::kOutput, i}; }

// ---- attribute access (CANN kinds, with the lenient int/bool mixing CANN allows) ----

const OpAttrValue* find_attr(const aclopAttr& a, const char* name) {
  auto it = a.values.find(name);
  return it == a.values.end() ? nullptr : &it->second;
}

bool attr_bool(const TranslateInput& c, const char* name, bool def) {
  const OpAttrValue* v = find_attr(c.attr, name);
  if (!v) return def;
  ACL_SIM_REQUIRE(v->kind == OpAttrValue::kBool || v->kind == OpAttrValue::kInt, ACL_ERROR_OP_ATTR_NOT_MATCH,
                  c.type, ": attribute '", name, "' must be a bool");
  return v->i != 0;
}

int64_t attr_int(const TranslateInput& c, const char* name, int64_t def) {
  const OpAttrValue* v = find_attr(c.attr, name);
  if (!v) return def;
  ACL_SIM_REQUIRE(v->kind == OpAttrValue::kInt || v->kind == OpAttrValue::kDataType || v->kind == OpAttrValue::kBool,
                  ACL_ERROR_OP_ATTR_NOT_MATCH, c.type, ": attribute '", name, "' must be an int");
  return v->i;
}

Dims attr_ints(const TranslateInput& c, const char* name, const Dims& def) {
  const OpAttrValue* v = find_attr(c.attr, name);
  if (!v) return def;
  if (v->kind == OpAttrValue::kInt) return {v->i};
  ACL_SIM_REQUIRE(v->kind == OpAttrValue::kListInt, ACL_ERROR_OP_ATTR_NOT_MATCH, c.type, ": attribute '", name,
                  "' must be a list of ints");
  return v->ints;
}

std::string attr_string(const TranslateInput& c, const char* name, const std::string& def) {
  const OpAttrValue* v = find_attr(c.attr, name);
  if (!v) return def;
  ACL_SIM_REQUIRE(v->kind == OpAttrValue::kString, ACL_ERROR_OP_ATTR_NOT_MATCH, c.type, ": attribute '", name,
                  "' must be a string");
  return v->s;
}

// ---- operand checks ----

void require_counts(const TranslateInput& c, size_t min_in, size_t max_in, size_t n_out) {
  ACL_SIM_REQUIRE(c.in.size() >= min_in && c.in.size() <= max_in, ACL_ERROR_OP_INPUT_NOT_MATCH, c.type,
                  " takes ", min_in == max_in ? str(min_in) : str(min_in, "..", max_in), " inputs, got ",
                  c.in.size());
  ACL_SIM_REQUIRE(c.out.size() == n_out, ACL_ERROR_OP_OUTPUT_NOT_MATCH, c.type, " has ", n_out, " output(s), got ",
                  c.out.size());
}

void require_known_dims(const TranslateInput& c) {
  for (size_t i = 0; i < c.in.size(); ++i)
    for (int64_t d : c.in[i].dims)
      ACL_SIM_REQUIRE(d >= 0, ACL_ERROR_OP_INPUT_NOT_MATCH, c.type, ": input ", i, " has dynamic dims ",
                      dims_to_string(c.in[i].dims), "; single ops need concrete shapes");
  for (size_t i = 0; i < c.out.size(); ++i)
    for (int64_t d : c.out[i].dims)
      ACL_SIM_REQUIRE(d >= 0, ACL_ERROR_OP_OUTPUT_NOT_MATCH, c.type, ": output ", i, " has dynamic dims ",
                      dims_to_string(c.out[i].dims));
}

void require_same_dtype(const TranslateInput& c, size_t a, size_t b) {
  ACL_SIM_REQUIRE(c.in[a].dtype == c.in[b].dtype, ACL_ERROR_OP_INPUT_NOT_MATCH, c.type, ": input ", b, " is ",
                  dtype_name(c.in[b].dtype), " but input ", a, " is ", dtype_name(c.in[a].dtype));
}

void require_out(const TranslateInput& c, size_t i, int dtype, const Dims& dims) {
  ACL_SIM_REQUIRE(c.out[i].dtype == dtype, ACL_ERROR_OP_OUTPUT_NOT_MATCH, c.type, ": output ", i, " desc is ",
                  dtype_name(c.out[i].dtype), ", the op produces ", dtype_name(dtype));
  ACL_SIM_REQUIRE(c.out[i].dims == dims, ACL_ERROR_OP_OUTPUT_NOT_MATCH, c.type, ": output ", i, " desc has shape ",
                  dims_to_string(c.out[i].dims), ", the op produces ", dims_to_string(dims));
}

void require_float(const TranslateInput& c, size_t i) {
  int dt = c.in[i].dtype;
  ACL_SIM_REQUIRE(dt == ACL_FLOAT || dt == ACL_FLOAT16 || dt == ACL_BF16 || dt == ACL_DOUBLE,
                  ACL_ERROR_OP_INPUT_NOT_MATCH, c.type, ": input ", i, " is ", dtype_name(dt),
                  "; this op takes float16/float32/bfloat16");
}

Dims broadcast(const TranslateInput& c, const Dims& a, const Dims& b) {
  size_t n = std::max(a.size(), b.size());
  Dims out(n);
  for (size_t k = 0; k < n; ++k) {
    int64_t da = k < n - a.size() ? 1 : a[k - (n - a.size())];
    int64_t db = k < n - b.size() ? 1 : b[k - (n - b.size())];
    ACL_SIM_REQUIRE(da == db || da == 1 || db == 1, ACL_ERROR_OP_INPUT_NOT_MATCH, c.type, ": shapes ",
                    dims_to_string(a), " and ", dims_to_string(b), " do not broadcast");
    out[k] = da == 1 ? db : da;
  }
  return out;
}

void emit(OpPlan& plan, const char* op, Attrs attrs, std::vector<TensorRef> in, std::vector<TensorRef> out) {
  plan.steps.push_back({op, std::move(attrs), std::move(in), std::move(out)});
}

std::vector<int64_t> read_int_tensor(const TranslateInput& c, size_t i) {
  const OperandSpec& s = c.in[i];
  ACL_SIM_REQUIRE(s.dtype == ACL_INT32 || s.dtype == ACL_INT64, ACL_ERROR_OP_INPUT_NOT_MATCH, c.type, ": input ", i,
                  " must be int32 or int64, got ", dtype_name(s.dtype));
  int64_t n = element_count(s.dims);
  std::vector<int64_t> v(static_cast<size_t>(n));
  const void* p = (*c.in_data)[i];
  for (int64_t k = 0; k < n; ++k)
    v[k] = s.dtype == ACL_INT32 ? static_cast<const int32_t*>(p)[k] : static_cast<const int64_t*>(p)[k];
  return v;
}

int64_t norm_axis(const TranslateInput& c, int64_t axis, size_t rank) {
  int64_t r = static_cast<int64_t>(rank);
  ACL_SIM_REQUIRE(axis >= -r && axis < std::max<int64_t>(r, 1), ACL_ERROR_OP_ATTR_NOT_MATCH, c.type, ": axis ", axis,
                  " is out of range for rank ", rank);
  return axis < 0 ? axis + r : axis;
}

// ---- translators ----

void binary(const TranslateInput& c, OpPlan& plan, const char* onnx) {
  require_counts(c, 2, 2, 1);
  require_same_dtype(c, 0, 1);
  require_out(c, 0, c.in[0].dtype, broadcast(c, c.in[0].dims, c.in[1].dims));
  emit(plan, onnx, {}, {in_ref(0), in_ref(1)}, {out_ref(0)});
}

void unary(const TranslateInput& c, OpPlan& plan, const char* onnx) {
  require_counts(c, 1, 1, 1);
  require_out(c, 0, c.in[0].dtype, c.in[0].dims);
  emit(plan, onnx, {}, {in_ref(0)}, {out_ref(0)});
}

void cast(const TranslateInput& c, OpPlan& plan) {
  require_counts(c, 1, 1, 1);
  int dst = static_cast<int>(attr_int(c, "dst_type", c.out[0].dtype));
  ACL_SIM_REQUIRE(onnx_dtype_of(dst) != 0, ACL_ERROR_OP_ATTR_NOT_MATCH, c.type, ": dst_type ", dst,
                  " is not a supported data type");
  require_out(c, 0, dst, c.in[0].dims);
  Attrs a;
  a.set("to", static_cast<int64_t>(onnx_dtype_of(dst)));
  emit(plan, "Cast", a, {in_ref(0)}, {out_ref(0)});
}

// Swap the last two dims of input i into a scratch tensor.
TensorRef transposed_last2(const TranslateInput& c, OpPlan& plan, size_t i, Dims& dims) {
  size_t r = dims.size();
  Dims perm(r);
  for (size_t k = 0; k < r; ++k) perm[k] = static_cast<int64_t>(k);
  std::swap(perm[r - 1], perm[r - 2]);
  std::swap(dims[r - 1], dims[r - 2]);
  TensorRef t = plan.add_temp(c.in[i].dtype, dims);
  Attrs a;
  a.set("perm", perm);
  emit(plan, "Transpose", a, {in_ref(static_cast<int>(i))}, {t});
  return t;
}

void matmul(const TranslateInput& c, OpPlan& plan, bool batched) {
  require_counts(c, 2, 3, 1);
  require_same_dtype(c, 0, 1);
  bool tx1 = batched ? attr_bool(c, "adj_x1", false) : attr_bool(c, "transpose_x1", false);
  bool tx2 = batched ? attr_bool(c, "adj_x2", false) : attr_bool(c, "transpose_x2", false);
  Dims a = c.in[0].dims, b = c.in[1].dims;
  ACL_SIM_REQUIRE(a.size() >= 2 && b.size() >= 2, ACL_ERROR_OP_INPUT_NOT_MATCH, c.type,
                  ": inputs need rank >= 2, got ", dims_to_string(a), " and ", dims_to_string(b));
  ACL_SIM_REQUIRE(batched || (a.size() == 2 && b.size() == 2), ACL_ERROR_OP_INPUT_NOT_MATCH, c.type,
                  ": inputs must be 2-D (use BatchMatMul for batches), got ", dims_to_string(a), " and ",
                  dims_to_string(b));
  int64_t m = tx1 ? a[a.size() - 1] : a[a.size() - 2];
  int64_t k1 = tx1 ? a[a.size() - 2] : a[a.size() - 1];
  int64_t k2 = tx2 ? b[b.size() - 1] : b[b.size() - 2];
  int64_t n = tx2 ? b[b.size() - 2] : b[b.size() - 1];
  ACL_SIM_REQUIRE(k1 == k2, ACL_ERROR_OP_INPUT_NOT_MATCH, c.type, ": inner dimensions differ (", k1, " vs ", k2,
                  ") for shapes ", dims_to_string(a), " and ", dims_to_string(b));
  Dims batch = broadcast(c, Dims(a.begin(), a.end() - 2), Dims(b.begin(), b.end() - 2));
  Dims out = batch;
  out.push_back(m);
  out.push_back(n);
  require_out(c, 0, c.in[0].dtype, out);
  bool has_bias = c.in.size() == 3;
  if (has_bias) {
    require_same_dtype(c, 0, 2);
    ACL_SIM_REQUIRE(c.in[2].dims.size() <= 1 && element_count(c.in[2].dims) == n, ACL_ERROR_OP_INPUT_NOT_MATCH, c.type,
                    ": bias must have ", n, " elements, got shape ", dims_to_string(c.in[2].dims));
  }
  if (!batched) {  // 2-D: Gemm does the transposes and the bias in one kernel
    Attrs g;
    g.set("transA", static_cast<int64_t>(tx1));
    g.set("transB", static_cast<int64_t>(tx2));
    std::vector<TensorRef> ins = {in_ref(0), in_ref(1)};
    if (has_bias) ins.push_back(in_ref(2));
    emit(plan, "Gemm", g, ins, {out_ref(0)});
    return;
  }
  TensorRef x1 = tx1 ? transposed_last2(c, plan, 0, a) : in_ref(0);
  TensorRef x2 = tx2 ? transposed_last2(c, plan, 1, b) : in_ref(1);
  if (!has_bias) {
    emit(plan, "MatMul", {}, {x1, x2}, {out_ref(0)});
    return;
  }
  TensorRef t = plan.add_temp(c.in[0].dtype, out);
  emit(plan, "MatMul", {}, {x1, x2}, {t});
  emit(plan, "Add", {}, {t, in_ref(2)}, {out_ref(0)});
}

// Conv2D's layout: x's desc format when it is NCHW or NHWC, else the data_format attribute
// (NCHW by default). strides / dilations list 4 values in that layout's order.
bool conv2d_nhwc(const TranslateInput& c) {
  const int xf = c.in[0].format;
  const OpAttrValue* df = find_attr(c.attr, "data_format");
  std::string fmt = df ? attr_string(c, "data_format", "NCHW") : xf == ACL_FORMAT_NHWC ? "NHWC" : "NCHW";
  ACL_SIM_REQUIRE(fmt == "NCHW" || fmt == "NHWC", ACL_ERROR_FORMAT_NOT_MATCH, c.type, ": data_format '", fmt,
                  "' is not supported (NCHW or NHWC)");
  ACL_SIM_REQUIRE(!(xf == ACL_FORMAT_NCHW && fmt == "NHWC") && !(xf == ACL_FORMAT_NHWC && fmt == "NCHW"),
                  ACL_ERROR_FORMAT_NOT_MATCH, c.type, ": data_format '", fmt, "' contradicts x's format ",
                  xf == ACL_FORMAT_NCHW ? "NCHW" : "NHWC");
  return fmt == "NHWC";
}

// @p src (dims @p d) transposed by @p perm into a new temp; returns the temp.
TensorRef permuted(OpPlan& plan, TensorRef src, int dtype, const Dims& d, const Dims& perm) {
  Dims out(d.size());
  for (size_t k = 0; k < d.size(); ++k) out[k] = d[size_t(perm[k])];
  TensorRef t = plan.add_temp(dtype, out);
  Attrs a;
  a.set("perm", perm);
  emit(plan, "Transpose", a, {src}, {t});
  return t;
}

void conv2d(const TranslateInput& c, OpPlan& plan) {
  require_counts(c, 2, 4, 1);
  require_same_dtype(c, 0, 1);
  const bool nhwc = conv2d_nhwc(c);
  ACL_SIM_REQUIRE(c.in[0].dims.size() == 4 && c.in[1].dims.size() == 4, ACL_ERROR_OP_INPUT_NOT_MATCH, c.type,
                  ": x and filter must be 4-D, got ", dims_to_string(c.in[0].dims), " and ",
                  dims_to_string(c.in[1].dims));
  const int wf = c.in[1].format;
  ACL_SIM_REQUIRE(wf == ACL_FORMAT_NCHW || wf == ACL_FORMAT_ND || wf == ACL_FORMAT_NHWC || wf == ACL_FORMAT_HWCN,
                  ACL_ERROR_FORMAT_NOT_MATCH, c.type, ": filter format ", wf,
                  " is not supported (NCHW, NHWC or HWCN)");
  // Everything below works on NCHW x and [out, in, kh, kw] filter views.
  const Dims to_nchw = {0, 3, 1, 2}, from_nchw = {0, 2, 3, 1}, hwcn_to_oihw = {3, 2, 0, 1};
  auto pick = [](const Dims& d, const Dims& perm) {
    Dims out(d.size());
    for (size_t k = 0; k < d.size(); ++k) out[k] = d[size_t(perm[k])];
    return out;
  };
  const Dims x = nhwc ? pick(c.in[0].dims, to_nchw) : c.in[0].dims;
  const Dims* wperm = wf == ACL_FORMAT_NHWC ? &to_nchw : wf == ACL_FORMAT_HWCN ? &hwcn_to_oihw : nullptr;
  const Dims w = wperm ? pick(c.in[1].dims, *wperm) : c.in[1].dims;
  Dims strides = attr_ints(c, "strides", {});
  ACL_SIM_REQUIRE(strides.size() == 4, ACL_ERROR_OP_ATTR_NOT_MATCH, c.type, ": attribute 'strides' must list 4 values (",
                  nhwc ? "N, H, W, C" : "N, C, H, W", ")");
  Dims pads = attr_ints(c, "pads", {0, 0, 0, 0});
  ACL_SIM_REQUIRE(pads.size() == 4, ACL_ERROR_OP_ATTR_NOT_MATCH, c.type,
                  ": attribute 'pads' must list 4 values (top, bottom, left, right)");
  Dims dil = attr_ints(c, "dilations", {1, 1, 1, 1});
  ACL_SIM_REQUIRE(dil.size() == 4, ACL_ERROR_OP_ATTR_NOT_MATCH, c.type, ": attribute 'dilations' must list 4 values");
  if (nhwc) {
    strides = pick(strides, to_nchw);
    dil = pick(dil, to_nchw);
  }
  int64_t groups = attr_int(c, "groups", 1);
  ACL_SIM_REQUIRE(groups >= 1 && x[1] % groups == 0 && w[0] % groups == 0, ACL_ERROR_OP_ATTR_NOT_MATCH, c.type,
                  ": groups ", groups, " does not divide the channels");
  ACL_SIM_REQUIRE(x[1] == w[1] * groups, ACL_ERROR_OP_INPUT_NOT_MATCH, c.type, ": x has ", x[1],
                  " channels, filter expects ", w[1] * groups);
  for (int k = 2; k < 4; ++k)
    ACL_SIM_REQUIRE(strides[k] >= 1 && dil[k] >= 1, ACL_ERROR_OP_ATTR_NOT_MATCH, c.type,
                    ": strides and dilations must be >= 1");
  int64_t oh = (x[2] + pads[0] + pads[1] - dil[2] * (w[2] - 1) - 1) / strides[2] + 1;
  int64_t ow = (x[3] + pads[2] + pads[3] - dil[3] * (w[3] - 1) - 1) / strides[3] + 1;
  ACL_SIM_REQUIRE(oh >= 1 && ow >= 1, ACL_ERROR_OP_INPUT_NOT_MATCH, c.type, ": the filter ", dims_to_string(w),
                  " does not fit the padded input ", dims_to_string(x));
  const Dims out_nchw = {x[0], w[0], oh, ow};
  require_out(c, 0, c.in[0].dtype, nhwc ? pick(out_nchw, from_nchw) : out_nchw);
  const int dt = c.in[0].dtype;
  std::vector<TensorRef> ins = {nhwc ? permuted(plan, in_ref(0), dt, c.in[0].dims, to_nchw) : in_ref(0),
                                wperm ? permuted(plan, in_ref(1), dt, c.in[1].dims, *wperm) : in_ref(1)};
  if (c.in.size() >= 3 && element_count(c.in[2].dims) > 0) {
    ACL_SIM_REQUIRE(element_count(c.in[2].dims) == w[0], ACL_ERROR_OP_INPUT_NOT_MATCH, c.type, ": bias must have ",
                    w[0], " elements");
    ins.push_back(in_ref(2));
  }
  Attrs a;
  a.set("strides", Dims{strides[2], strides[3]});
  a.set("pads", Dims{pads[0], pads[2], pads[1], pads[3]});
  a.set("dilations", Dims{dil[2], dil[3]});
  a.set("group", groups);
  a.set("kernel_shape", Dims{w[2], w[3]});
  if (!nhwc) {
    emit(plan, "Conv", a, ins, {out_ref(0)});
    return;
  }
  TensorRef y = plan.add_temp(dt, out_nchw);
  emit(plan, "Conv", a, ins, {y});
  Attrs back;
  back.set("perm", from_nchw);
  emit(plan, "Transpose", back, {y}, {out_ref(0)});
}

void softmax(const TranslateInput& c, OpPlan& plan) {
  require_counts(c, 1, 1, 1);
  require_float(c, 0);
  Dims axes = attr_ints(c, "axes", {-1});
  if (find_attr(c.attr, "axis")) axes = {attr_int(c, "axis", -1)};
  ACL_SIM_REQUIRE(axes.size() == 1, ACL_ERROR_OP_ATTR_NOT_MATCH, c.type,
                  ": acl_sim supports one softmax axis, got ", axes.size());
  Attrs a;
  a.set("axis", norm_axis(c, axes[0], c.in[0].dims.size()));
  require_out(c, 0, c.in[0].dtype, c.in[0].dims);
  emit(plan, "Softmax", a, {in_ref(0)}, {out_ref(0)});
}

void reduce_sum(const TranslateInput& c, OpPlan& plan, bool axes_attr) {
  require_counts(c, axes_attr ? 1 : 2, axes_attr ? 1 : 2, 1);
  bool keep = attr_bool(c, "keep_dims", false);
  const Dims& x = c.in[0].dims;
  Dims axes;
  if (axes_attr) {
    axes = attr_ints(c, "axes", {});
  } else {
    ACL_SIM_REQUIRE(c.in[1].dtype == ACL_INT32 || c.in[1].dtype == ACL_INT64, ACL_ERROR_OP_INPUT_NOT_MATCH, c.type,
                    ": axes (input 1) must be int32 or int64");
    if (!c.in_data) return;  // the axes values arrive with the data
    axes = read_int_tensor(c, 1);
  }
  std::vector<bool> reduced(x.size(), axes.empty());  // CANN: empty axes reduces everything
  for (int64_t ax : axes) reduced[norm_axis(c, ax, x.size())] = true;
  Dims out, norm;
  for (size_t k = 0; k < x.size(); ++k) {
    if (reduced[k]) {
      norm.push_back(static_cast<int64_t>(k));
      if (keep) out.push_back(1);
    } else {
      out.push_back(x[k]);
    }
  }
  require_out(c, 0, c.in[0].dtype, out);
  Attrs a;
  a.set("keepdims", static_cast<int64_t>(keep));
  emit(plan, "ReduceSum", a, {in_ref(0), plan.add_const_i64(norm)}, {out_ref(0)});
}

void transpose(const TranslateInput& c, OpPlan& plan, bool perm_attr) {
  require_counts(c, perm_attr ? 1 : 2, perm_attr ? 1 : 2, 1);
  const Dims& x = c.in[0].dims;
  Dims perm;
  if (perm_attr) {
    perm = attr_ints(c, "perm", {});
  } else {
    ACL_SIM_REQUIRE(c.in[1].dtype == ACL_INT32 || c.in[1].dtype == ACL_INT64, ACL_ERROR_OP_INPUT_NOT_MATCH, c.type,
                    ": perm (input 1) must be int32 or int64");
    if (!c.in_data) return;
    perm = read_int_tensor(c, 1);
  }
  ACL_SIM_REQUIRE(perm.size() == x.size(), ACL_ERROR_OP_ATTR_NOT_MATCH, c.type, ": perm has ", perm.size(),
                  " entries for a rank-", x.size(), " input");
  std::vector<bool> seen(x.size(), false);
  Dims out;
  for (int64_t p : perm) {
    int64_t ax = norm_axis(c, p, x.size());
    ACL_SIM_REQUIRE(!seen[ax], ACL_ERROR_OP_ATTR_NOT_MATCH, c.type, ": perm repeats axis ", p);
    seen[ax] = true;
    out.push_back(x[ax]);
  }
  require_out(c, 0, c.in[0].dtype, out);
  Attrs a;
  a.set("perm", perm);
  emit(plan, "Transpose", a, {in_ref(0)}, {out_ref(0)});
}

using Translator = void (*)(const TranslateInput&, OpPlan&);

const std::unordered_map<std::string, Translator>& table() {
  static const std::unordered_map<std::string, Translator> t = {
      {"Add", [](const TranslateInput& c, OpPlan& p) { binary(c, p, "Add"); }},
      {"AddV2", [](const TranslateInput& c, OpPlan& p) { binary(c, p, "Add"); }},
      {"Sub", [](const TranslateInput& c, OpPlan& p) { binary(c, p, "Sub"); }},
      {"Mul", [](const TranslateInput& c, OpPlan& p) { binary(c, p, "Mul"); }},
      {"RealDiv", [](const TranslateInput& c, OpPlan& p) { binary(c, p, "Div"); }},
      {"Div", [](const TranslateInput& c, OpPlan& p) { binary(c, p, "Div"); }},
      {"Maximum", [](const TranslateInput& c, OpPlan& p) { binary(c, p, "Max"); }},
      {"Minimum", [](const TranslateInput& c, OpPlan& p) { binary(c, p, "Min"); }},
      {"Pow", [](const TranslateInput& c, OpPlan& p) { binary(c, p, "Pow"); }},
      {"Relu", [](const TranslateInput& c, OpPlan& p) { unary(c, p, "Relu"); }},
      {"Sigmoid", [](const TranslateInput& c, OpPlan& p) { unary(c, p, "Sigmoid"); }},
      {"Tanh", [](const TranslateInput& c, OpPlan& p) { unary(c, p, "Tanh"); }},
      {"Exp", [](const TranslateInput& c, OpPlan& p) { unary(c, p, "Exp"); }},
      {"Log", [](const TranslateInput& c, OpPlan& p) { unary(c, p, "Log"); }},
      {"Abs", [](const TranslateInput& c, OpPlan& p) { unary(c, p, "Abs"); }},
      {"Neg", [](const TranslateInput& c, OpPlan& p) { unary(c, p, "Neg"); }},
      {"Sqrt", [](const TranslateInput& c, OpPlan& p) { unary(c, p, "Sqrt"); }},
      {"Reciprocal", [](const TranslateInput& c, OpPlan& p) { unary(c, p, "Reciprocal"); }},
      {"Cast", cast},
      {"MatMul", [](const TranslateInput& c, OpPlan& p) { matmul(c, p, false); }},
      {"MatMulV2", [](const TranslateInput& c, OpPlan& p) { matmul(c, p, false); }},
      {"BatchMatMul", [](const TranslateInput& c, OpPlan& p) { matmul(c, p, true); }},
      {"BatchMatMulV2", [](const TranslateInput& c, OpPlan& p) { matmul(c, p, true); }},
      {"Conv2D", conv2d},
      {"Softmax", softmax},
      {"SoftmaxV2", softmax},
      {"ReduceSum", [](const TranslateInput& c, OpPlan& p) { reduce_sum(c, p, false); }},
      {"ReduceSumD", [](const TranslateInput& c, OpPlan& p) { reduce_sum(c, p, true); }},
      {"Transpose", [](const TranslateInput& c, OpPlan& p) { transpose(c, p, false); }},
      {"TransposeD", [](const TranslateInput& c, OpPlan& p) { transpose(c, p, true); }},
      {"GEMM", translate_blas_gemm},
  };
  return t;
}

}  // namespace

bool translate_op(const TranslateInput& call, OpPlan& plan) {
  auto it = table().find(call.type);
  if (it == table().end()) return false;
  require_known_dims(call);
  it->second(call, plan);
  return true;
}

}  // namespace acl_sim
