// Helpers shared by the elementwise / data-movement kernels (see elementwise_common.h).
#include "kernels/elementwise_common.h"

#include <sstream>

namespace acl_sim::kern {

double scalar_as_double(const TensorView& t, int64_t i) {
  return dispatch_dtype(t.dtype, "scalar input", [&](auto tag) -> double {
    using T = decltype(tag);
    return load_as_double(static_cast<const T*>(t.data) + i);
  });
}

int64_t scalar_as_int(const TensorView& t, int64_t i) {
  switch (t.dtype) {
    case ACL_INT64: return static_cast<const int64_t*>(t.data)[i];
    case ACL_INT32: return static_cast<const int32_t*>(t.data)[i];
    default: return static_cast<int64_t>(scalar_as_double(t, i));
  }
}

std::vector<int64_t> tensor_as_ints(const TensorView& t, const char* op, const char* what) {
  ACL_SIM_REQUIRE(t.dtype == ACL_INT64 || t.dtype == ACL_INT32, ACL_ERROR_OP_INPUT_NOT_MATCH, op, ": ", what,
                  " must be int64 or int32, got ", dtype_name(t.dtype));
  std::vector<int64_t> v(static_cast<size_t>(t.numel()));
  for (size_t i = 0; i < v.size(); ++i) v[i] = scalar_as_int(t, static_cast<int64_t>(i));
  return v;
}

std::string shape_str(const std::vector<int64_t>& s) {
  std::ostringstream os;
  os << "[";
  for (size_t i = 0; i < s.size(); ++i) os << (i ? "," : "") << s[i];
  os << "]";
  return os.str();
}

void require_io(const OpContext& ctx, size_t min_in, size_t min_out) {
  ACL_SIM_REQUIRE(ctx.inputs.size() >= min_in, ACL_ERROR_OP_INPUT_NOT_MATCH, ctx.op_type, ": expects at least ",
                  min_in, " inputs, got ", ctx.inputs.size());
  for (size_t i = 0; i < min_in; ++i)
    ACL_SIM_REQUIRE(ctx.inputs[i].present() || ctx.inputs[i].numel() == 0, ACL_ERROR_OP_INPUT_NOT_MATCH,
                    ctx.op_type, ": input ", i, " is required but absent");
  ACL_SIM_REQUIRE(ctx.outputs.size() >= min_out, ACL_ERROR_OP_OUTPUT_NOT_MATCH, ctx.op_type, ": expects at least ",
                  min_out, " outputs, got ", ctx.outputs.size());
  for (size_t i = 0; i < min_out; ++i)
    ACL_SIM_REQUIRE(ctx.outputs[i].present() || ctx.outputs[i].numel() == 0, ACL_ERROR_OP_OUTPUT_NOT_MATCH,
                    ctx.op_type, ": output ", i, " has no buffer");
}

const TensorView& input(const OpContext& ctx, size_t i) {
  ACL_SIM_REQUIRE(i < ctx.inputs.size() && (ctx.inputs[i].present() || ctx.inputs[i].numel() == 0),
                  ACL_ERROR_OP_INPUT_NOT_MATCH, ctx.op_type, ": input ", i, " is required but absent");
  return ctx.inputs[i];
}

const TensorView* optional_input(const OpContext& ctx, size_t i) {
  if (i >= ctx.inputs.size() || !ctx.inputs[i].present()) return nullptr;
  return &ctx.inputs[i];
}

TensorView& output(OpContext& ctx, size_t i) {
  ACL_SIM_REQUIRE(i < ctx.outputs.size(), ACL_ERROR_OP_OUTPUT_NOT_MATCH, ctx.op_type, ": output ", i,
                  " is missing");
  return ctx.outputs[i];
}

void require_shape(const OpContext& ctx, const TensorView& t, const std::vector<int64_t>& shape, const char* what) {
  ACL_SIM_REQUIRE(t.shape == shape, ACL_ERROR_OP_OUTPUT_NOT_MATCH, ctx.op_type, ": ", what, " has shape ",
                  shape_str(t.shape), ", expected ", shape_str(shape));
}

void require_same_dtype(const OpContext& ctx, const TensorView& a, const TensorView& b, const char* what) {
  ACL_SIM_REQUIRE(a.dtype == b.dtype, ACL_ERROR_OP_INPUT_NOT_MATCH, ctx.op_type, ": ", what, " dtypes differ (",
                  dtype_name(a.dtype), " vs ", dtype_name(b.dtype), ")");
}

int64_t normalize_axis(const OpContext& ctx, int64_t axis, int64_t rank) {
  int64_t r = std::max<int64_t>(rank, 1);
  ACL_SIM_REQUIRE(axis >= -r && axis < r, ACL_ERROR_OP_ATTR_NOT_MATCH, ctx.op_type, ": axis ", axis,
                  " out of range for rank ", rank);
  return axis < 0 ? axis + r : axis;
}

const Attrs& attrs_of(const OpContext& ctx) {
  static const Attrs empty;
  return ctx.attrs ? *ctx.attrs : empty;
}

void parallel_copy(void* dst, const void* src, size_t bytes) {
  if (dst == src || bytes == 0) return;
  constexpr int64_t kChunk = 1 << 20;
  parallel_blocks(static_cast<int64_t>(bytes), kChunk, [&](int64_t b, int64_t e) {
    std::memcpy(static_cast<char*>(dst) + b, static_cast<const char*>(src) + b, static_cast<size_t>(e - b));
  });
}

}  // namespace acl_sim::kern
