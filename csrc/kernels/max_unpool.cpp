// MaxUnpool(X, I[, output_shape]): the partial inverse of MaxPool. Y (the output shape, given or
// (in - 1) * stride - pads + kernel per spatial axis, fixed by ATC) is zero except Y.flat[I[i]] =
// X.flat[i]; I holds flat indices into the whole output, as MaxPool's Indices output does.
// Elements move as raw bytes (any dtype). When every index lands in its own (n, c) plane (what
// MaxPool produces) the planes are scattered in parallel; otherwise in index order on one thread
// (a later duplicate wins).
#include <cstring>

#include "kernels/data_movement.h"

namespace acl_sim::kern {
namespace {

template <class U>
void scatter(const U* x, const int64_t* idx, U* y, int64_t planes, int64_t in_plane, bool per_plane) {
  if (!per_plane) {
    for (int64_t i = 0; i < planes * in_plane; ++i) y[idx[i]] = x[i];
    return;
  }
  parallel_blocks(planes, rows_grain(in_plane), [&](int64_t p0, int64_t p1) {
    for (int64_t i = p0 * in_plane; i < p1 * in_plane; ++i) y[idx[i]] = x[i];
  });
}

void run_max_unpool(OpContext& ctx) {
  require_io(ctx, 2, 1);
  const TensorView& x = input(ctx, 0);
  const TensorView& ind = input(ctx, 1);
  TensorView& y = output(ctx, 0);
  ACL_SIM_REQUIRE(x.shape.size() >= 3, ACL_ERROR_OP_INPUT_NOT_MATCH, ctx.op_type,
                  ": X must be [N, C, spatial...], got ", shape_str(x.shape));
  ACL_SIM_REQUIRE(ind.shape == x.shape, ACL_ERROR_OP_INPUT_NOT_MATCH, ctx.op_type, ": I ", shape_str(ind.shape),
                  " must have X's shape ", shape_str(x.shape));
  require_same_dtype(ctx, x, y, "X and Y");
  ACL_SIM_REQUIRE(y.shape.size() == x.shape.size() && y.shape[0] == x.shape[0] && y.shape[1] == x.shape[1],
                  ACL_ERROR_OP_OUTPUT_NOT_MATCH, ctx.op_type, ": Y ", shape_str(y.shape), " must be [",
                  x.shape[0], ", ", x.shape[1], ", spatial...]");
  const int64_t planes = x.shape[0] * x.shape[1], in_plane = prod(x.shape, 2), out_plane = prod(y.shape, 2);
  const int64_t total = y.numel();
  std::vector<int64_t> idx = tensor_as_ints(ind, ctx.op_type, "I");
  bool per_plane = true;
  for (int64_t i = 0; i < static_cast<int64_t>(idx.size()); ++i) {
    const int64_t v = idx[static_cast<size_t>(i)];
    ACL_SIM_REQUIRE(v >= 0 && v < total, ACL_ERROR_OP_INPUT_NOT_MATCH, ctx.op_type, ": index ", v,
                    " is outside the output's ", total, " elements");
    if (in_plane > 0 && v / out_plane != i / in_plane) per_plane = false;
  }
  const size_t elem = dtype_size(y.dtype);
  auto* out = static_cast<uint8_t*>(y.data);
  parallel_blocks(static_cast<int64_t>(total * elem), kBlockElems * 4, [&](int64_t b, int64_t e) {
    std::memset(out + b, 0, static_cast<size_t>(e - b));
  });
  dispatch_elem_size(ctx, elem, [&](auto tag) {
    using U = decltype(tag);
    scatter<U>(static_cast<const U*>(x.data), idx.data(), static_cast<U*>(y.data), planes, in_plane, per_plane);
  });
}

}  // namespace

ACL_SIM_REGISTER_OP(MaxUnpool, run_max_unpool);

}  // namespace acl_sim::kern
