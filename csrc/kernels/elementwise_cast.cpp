// Cast / CastLike, BitCast, and the dtype conversion helper (elementwise_cast.h).
#include "kernels/elementwise_cast.h"

namespace acl_sim::kern {

void cast_elements(const OpContext& ctx, const void* src, int sdt, void* dst, int ddt, int64_t n) {
  dispatch_dtype(sdt, ctx.op_type, [&](auto stag) {
    using S = decltype(stag);
    dispatch_dtype(ddt, ctx.op_type, [&](auto dtag) {
      using D = decltype(dtag);
      const S* s = static_cast<const S*>(src);
      D* d = static_cast<D*>(dst);
      parallel_blocks(n, kBlockElems, [&](int64_t b, int64_t e) { cast_block(s + b, d + b, e - b); });
    });
  });
}

namespace {

// Cast(input) to attribute `to` (an ONNX TensorProto type); the output view's
// dtype is already the aclDataType of `to`, so it is what we convert into.
void run_cast(OpContext& ctx) {
  require_io(ctx, 1, 1);
  const TensorView& x = input(ctx, 0);
  TensorView& y = output(ctx, 0);
  ACL_SIM_REQUIRE(x.numel() == y.numel(), ACL_ERROR_OP_OUTPUT_NOT_MATCH, ctx.op_type, ": output shape ",
                  shape_str(y.shape), " does not match input ", shape_str(x.shape));
  cast_elements(ctx, x.data, x.dtype, y.data, y.dtype, x.numel());
}

// BitCast(input) to attribute `to`: the same bytes read as another dtype of the same width
// (the output view's dtype). A blocked copy over the pool.
void run_bitcast(OpContext& ctx) {
  require_io(ctx, 1, 1);
  const TensorView& x = input(ctx, 0);
  TensorView& y = output(ctx, 0);
  size_t xs = dtype_size(x.dtype), ys = dtype_size(y.dtype);
  ACL_SIM_REQUIRE(xs != 0 && xs == ys, ACL_ERROR_UNSUPPORTED_DATA_TYPE, ctx.op_type, ": ", dtype_name(x.dtype),
                  " and ", dtype_name(y.dtype), " differ in width (BitCast keeps the bit width)");
  ACL_SIM_REQUIRE(x.shape == y.shape, ACL_ERROR_OP_OUTPUT_NOT_MATCH, ctx.op_type, ": output shape ",
                  shape_str(y.shape), " does not match input ", shape_str(x.shape));
  const auto* s = static_cast<const unsigned char*>(x.data);
  auto* d = static_cast<unsigned char*>(y.data);
  if (s == d) return;
  parallel_blocks(x.numel(), kBlockElems, [&](int64_t b, int64_t e) {
    std::memcpy(d + b * xs, s + b * xs, static_cast<size_t>(e - b) * xs);
  });
}

}  // namespace

ACL_SIM_REGISTER_OP(BitCast, run_bitcast);
ACL_SIM_REGISTER_OP(Cast, run_cast);
ACL_SIM_REGISTER_OP(CastLike, run_cast);

}  // namespace acl_sim::kern
