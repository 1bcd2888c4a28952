// Ops that move whole rows along a sequence axis:
//  - ReverseSequence(input, sequence_lens) with batch_axis / time_axis: per batch entry the first
//    sequence_lens[b] steps are reversed, the rest copied.
//  - TensorScatter(past_cache, update, write_indices) (opset 24, KV-cache update) with `axis`
//    (default -2) and mode linear / circular: update's steps overwrite the cache from
//    write_indices[batch] on (modulo the cache length in circular mode).
// Both move raw elements, so they run on any dtype; a "row" is the contiguous run of elements
// after the last axis involved, copied with memcpy, and rows are spread over the pool.
#include <cstring>

#include "kernels/data_movement.h"

namespace acl_sim::kern {
namespace {

void run_reverse_sequence(OpContext& ctx) {
  require_io(ctx, 2, 1);
  const TensorView& x = input(ctx, 0);
  const TensorView& lens_t = input(ctx, 1);
  TensorView& y = output(ctx, 0);
  const auto rank = static_cast<int64_t>(x.shape.size());
  ACL_SIM_REQUIRE(rank >= 2, ACL_ERROR_OP_INPUT_NOT_MATCH, ctx.op_type, ": input must have rank >= 2, got ",
                  shape_str(x.shape));
  require_same_dtype(ctx, x, y, "input and output");
  require_shape(ctx, y, x.shape, "output");
  const int64_t batch_axis = normalize_axis(ctx, attrs_of(ctx).get_int("batch_axis", 1), rank);
  const int64_t time_axis = normalize_axis(ctx, attrs_of(ctx).get_int("time_axis", 0), rank);
  ACL_SIM_REQUIRE(batch_axis != time_axis, ACL_ERROR_OP_ATTR_NOT_MATCH, ctx.op_type,
                  ": batch_axis and time_axis must differ, both are ", batch_axis);
  const int64_t batch = x.shape[batch_axis], steps = x.shape[time_axis];
  std::vector<int64_t> lens = tensor_as_ints(lens_t, ctx.op_type, "sequence_lens");
  ACL_SIM_REQUIRE(static_cast<int64_t>(lens.size()) == batch, ACL_ERROR_OP_INPUT_NOT_MATCH, ctx.op_type,
                  ": sequence_lens has ", lens.size(), " values, the batch axis has ", batch);
  for (int64_t& l : lens) {
    ACL_SIM_REQUIRE(l >= 0 && l <= steps, ACL_ERROR_OP_INPUT_NOT_MATCH, ctx.op_type, ": sequence length ", l,
                    " is outside [0, ", steps, "]");
  }
  // Shape as [outer, A, mid, B, inner] with A/B the lower/higher of the two axes.
  const int64_t a = std::min(batch_axis, time_axis), b = std::max(batch_axis, time_axis);
  const int64_t outer = prod(x.shape, 0, a), A = x.shape[a], mid = prod(x.shape, a + 1, b), B = x.shape[b];
  const int64_t inner = prod(x.shape, b + 1);
  const size_t elem = dtype_size(x.dtype), row_bytes = static_cast<size_t>(inner) * elem;
  const auto* src = static_cast<const uint8_t*>(x.data);
  auto* dst = static_cast<uint8_t*>(y.data);
  const int64_t rows = outer * A * mid * B;
  const bool time_first = time_axis == a;
  parallel_blocks(rows, rows_grain(inner), [&](int64_t r0, int64_t r1) {
    for (int64_t r = r0; r < r1; ++r) {
      const int64_t ib = r % B, im = (r / B) % mid, ia = (r / (B * mid)) % A, io = r / (B * mid * A);
      const int64_t bi = time_first ? ib : ia, ti = time_first ? ia : ib;
      const int64_t len = lens[static_cast<size_t>(bi)];
      const int64_t ts = ti < len ? len - 1 - ti : ti;
      const int64_t sa = time_first ? ts : ia, sb = time_first ? ib : ts;
      const int64_t s = ((io * A + sa) * mid + im) * B + sb;
      std::memcpy(dst + static_cast<size_t>(r) * row_bytes, src + static_cast<size_t>(s) * row_bytes, row_bytes);
    }
  });
}

void run_tensor_scatter(OpContext& ctx) {
  require_io(ctx, 2, 1);
  const TensorView& past = input(ctx, 0);
  const TensorView& update = input(ctx, 1);
  const TensorView* indices = optional_input(ctx, 2);
  TensorView& y = output(ctx, 0);
  const auto rank = static_cast<int64_t>(past.shape.size());
  ACL_SIM_REQUIRE(rank >= 2, ACL_ERROR_OP_INPUT_NOT_MATCH, ctx.op_type,
                  ": past_cache must have rank >= 2 ([batch, ..., sequence, ...]), got ", shape_str(past.shape));
  require_same_dtype(ctx, past, update, "past_cache and update");
  require_same_dtype(ctx, past, y, "past_cache and output");
  require_shape(ctx, y, past.shape, "output");
  const int64_t axis = normalize_axis(ctx, attrs_of(ctx).get_int("axis", -2), rank);
  ACL_SIM_REQUIRE(axis != 0, ACL_ERROR_OP_ATTR_NOT_MATCH, ctx.op_type, ": axis must not be the batch axis 0");
  const std::string mode = attrs_of(ctx).get_string("mode", "linear");
  ACL_SIM_REQUIRE(mode == "linear" || mode == "circular", ACL_ERROR_OP_ATTR_NOT_MATCH, ctx.op_type,
                  ": unknown mode '", mode, "' (linear or circular)");
  ACL_SIM_REQUIRE(update.shape.size() == past.shape.size(), ACL_ERROR_OP_INPUT_NOT_MATCH, ctx.op_type,
                  ": update ", shape_str(update.shape), " and past_cache ", shape_str(past.shape), " differ in rank");
  for (int64_t i = 0; i < rank; ++i) {
    const bool ok = i == axis ? update.shape[i] <= past.shape[i] : update.shape[i] == past.shape[i];
    ACL_SIM_REQUIRE(ok, ACL_ERROR_OP_INPUT_NOT_MATCH, ctx.op_type, ": update ", shape_str(update.shape),
                    " does not fit past_cache ", shape_str(past.shape), " (axis ", axis, ")");
  }
  const int64_t batch = past.shape[0], max_len = past.shape[axis], seq = update.shape[axis];
  std::vector<int64_t> start(static_cast<size_t>(batch), 0);
  if (indices) {
    start = tensor_as_ints(*indices, ctx.op_type, "write_indices");
    ACL_SIM_REQUIRE(static_cast<int64_t>(start.size()) == batch, ACL_ERROR_OP_INPUT_NOT_MATCH, ctx.op_type,
                    ": write_indices has ", start.size(), " values, the batch is ", batch);
  }
  const bool circular = mode == "circular";
  for (int64_t s : start) {
    const bool ok = circular ? s >= 0 : s >= 0 && s + seq <= max_len;
    ACL_SIM_REQUIRE(ok, ACL_ERROR_OP_INPUT_NOT_MATCH, ctx.op_type, ": write index ", s, " with ", seq,
                    " update steps does not fit a cache of ", max_len, " (", mode, " mode)");
  }
  const size_t elem = dtype_size(past.dtype);
  parallel_copy(y.data, past.data, static_cast<size_t>(past.numel()) * elem);
  const int64_t mid = prod(past.shape, 1, axis), inner = prod(past.shape, axis + 1);
  const size_t row_bytes = static_cast<size_t>(inner) * elem;
  const auto* src = static_cast<const uint8_t*>(update.data);
  auto* dst = static_cast<uint8_t*>(y.data);
  const int64_t rows = batch * mid * seq;
  parallel_blocks(rows, rows_grain(inner), [&](int64_t r0, int64_t r1) {
    for (int64_t r = r0; r < r1; ++r) {
      const int64_t s = r % seq, bm = r / seq, bi = bm / mid;
      int64_t t = start[static_cast<size_t>(bi)] + s;
      if (circular) t %= max_len;
      std::memcpy(dst + static_cast<size_t>(bm * max_len + t) * row_bytes, src + static_cast<size_t>(r) * row_bytes,
                  row_bytes);
    }
  });
}

}  // namespace

ACL_SIM_REGISTER_OP(ReverseSequence, run_reverse_sequence);
ACL_SIM_REGISTER_OP(TensorScatter, run_tensor_scatter);

}  // namespace acl_sim::kern
