// Cast / CastLike and the dtype conversion helper (elementwise_cast.h).
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

}  // namespace

ACL_SIM_REGISTER_OP(Cast, run_cast);
ACL_SIM_REGISTER_OP(CastLike, run_cast);

}  // namespace acl_sim::kern
