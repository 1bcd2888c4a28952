// Broadcast planning (broadcast.h), the broadcasting copy, and the Expand op.
#include "kernels/broadcast.h"

namespace acl_sim::kern {

BroadcastPlan plan_broadcast(const OpContext& ctx, const std::vector<const std::vector<int64_t>*>& inputs,
                             const std::vector<int64_t>& out) {
  BroadcastPlan p;
  p.num_inputs = static_cast<int>(inputs.size());
  const size_t rank = out.size();
  // Full-rank strides per input.
  std::vector<std::vector<int64_t>> full(inputs.size(), std::vector<int64_t>(rank, 0));
  for (size_t k = 0; k < inputs.size(); ++k) {
    const std::vector<int64_t>& s = *inputs[k];
    ACL_SIM_REQUIRE(s.size() <= rank, ACL_ERROR_OP_INPUT_NOT_MATCH, ctx.op_type, ": input shape ", shape_str(s),
                    " has more dimensions than the output ", shape_str(out));
    int64_t stride = 1;
    for (size_t j = 0; j < s.size(); ++j) {
      size_t in_d = s.size() - 1 - j, out_d = rank - 1 - j;
      ACL_SIM_REQUIRE(s[in_d] == out[out_d] || s[in_d] == 1, ACL_ERROR_OP_INPUT_NOT_MATCH, ctx.op_type,
                      ": input shape ", shape_str(s), " does not broadcast to output shape ", shape_str(out));
      full[k][out_d] = s[in_d] == 1 ? 0 : stride;
      stride *= s[in_d];
    }
  }
  p.numel = prod(out);
  // Drop size-1 dims, then merge dim d into its right neighbour when every input stays contiguous.
  std::vector<int64_t> shape;
  std::vector<std::vector<int64_t>> strides(inputs.size());
  for (size_t d = 0; d < rank; ++d) {
    if (out[d] == 1) continue;
    if (!shape.empty()) {
      bool merge = true;
      for (size_t k = 0; k < inputs.size() && merge; ++k)
        merge = strides[k].back() == full[k][d] * out[d];
      if (merge) {
        shape.back() *= out[d];
        for (size_t k = 0; k < inputs.size(); ++k) strides[k].back() = full[k][d];
        continue;
      }
    }
    shape.push_back(out[d]);
    for (size_t k = 0; k < inputs.size(); ++k) strides[k].push_back(full[k][d]);
  }
  if (shape.empty()) {
    shape.push_back(1);
    for (auto& s : strides) s.push_back(0);
  }
  p.shape = std::move(shape);
  for (size_t k = 0; k < inputs.size(); ++k) p.strides[k] = std::move(strides[k]);
  return p;
}

namespace {

template <class U>
void copy_runs(const BroadcastPlan& p, const U* in, U* out) {
  for_each_run(p, [&](const RowRun& r) {
    const U* src = in + r.in_off[0];
    U* dst = out + r.out_off;
    if (r.in_step[0]) std::memcpy(dst, src, static_cast<size_t>(r.len) * sizeof(U));
    else std::fill(dst, dst + r.len, *src);
  });
}

}  // namespace

void broadcast_copy(const OpContext& ctx, const TensorView& in, TensorView& out) {
  require_same_dtype(ctx, in, out, "input and output");
  BroadcastPlan p = plan_broadcast(ctx, {&in.shape}, out.shape);
  switch (dtype_size(in.dtype)) {
    case 1: return copy_runs(p, static_cast<const uint8_t*>(in.data), static_cast<uint8_t*>(out.data));
    case 2: return copy_runs(p, static_cast<const uint16_t*>(in.data), static_cast<uint16_t*>(out.data));
    case 4: return copy_runs(p, static_cast<const uint32_t*>(in.data), static_cast<uint32_t*>(out.data));
    case 8: return copy_runs(p, static_cast<const uint64_t*>(in.data), static_cast<uint64_t*>(out.data));
    default: fail(ACL_ERROR_UNSUPPORTED_DATA_TYPE, ctx.op_type, ": unsupported dtype ", dtype_name(in.dtype));
  }
}

namespace {

// Expand(input, shape): the output shape is given (it is the broadcast of input and `shape`).
void run_expand(OpContext& ctx) {
  require_io(ctx, 1, 1);
  broadcast_copy(ctx, input(ctx, 0), output(ctx, 0));
}

}  // namespace

ACL_SIM_REGISTER_OP(Expand, run_expand);

}  // namespace acl_sim::kern
