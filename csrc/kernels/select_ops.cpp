// Selections whose output size depends on the data (shape-setting ops, see
// op_registry.h): NonZero and Compress. Both count in parallel blocks, take a
// prefix sum of the block counts, then write each block's part independently.
#include "kernels/data_movement.h"
#include "kernels/shape_setting.h"

namespace acl_sim::kern {
namespace {

/** Non-zero count of each block of kBlockElems elements of x, and their exclusive prefix sum. */
template <class T>
std::vector<int64_t> block_offsets(const T* x, int64_t n, int64_t grain) {
  int64_t blocks = (n + grain - 1) / grain;
  std::vector<int64_t> offsets(size_t(blocks) + 1, 0);
  parallel_blocks(blocks, 1, [&](int64_t b0, int64_t b1) {
    for (int64_t b = b0; b < b1; ++b) {
      int64_t end = std::min(n, (b + 1) * grain), c = 0;
      for (int64_t i = b * grain; i < end; ++i) c += is_nonzero(x + i);
      offsets[size_t(b) + 1] = c;
    }
  });
  for (size_t b = 1; b < offsets.size(); ++b) offsets[b] += offsets[b - 1];
  return offsets;
}

// NonZero(X) -> int64 [rank, count]: row d holds coordinate d of every non-zero element, in row-major order.
void run_nonzero(OpContext& ctx) {
  require_io(ctx, 1, 1);
  const TensorView& x = input(ctx, 0);
  TensorView& y = output(ctx, 0);
  ACL_SIM_REQUIRE(y.dtype == ACL_INT64, ACL_ERROR_OP_OUTPUT_NOT_MATCH, "NonZero: output must be int64");
  const int64_t rank = int64_t(x.shape.size());
  ACL_SIM_REQUIRE(rank >= 1, ACL_ERROR_OP_INPUT_NOT_MATCH, "NonZero: a scalar input is not supported (rank 0)");
  const int64_t n = x.numel();
  dispatch_dtype(x.dtype, "NonZero", [&](auto tag) {
    using T = decltype(tag);
    const T* xp = static_cast<const T*>(x.data);
    const int64_t grain = kBlockElems;
    std::vector<int64_t> offsets = n ? block_offsets(xp, n, grain) : std::vector<int64_t>{0};
    const int64_t count = offsets.back();
    set_output_shape(ctx, y, {rank, count}, "output");
    int64_t* out = static_cast<int64_t*>(y.data);
    const std::vector<int64_t> strides = strides_of(x.shape);
    parallel_blocks(int64_t(offsets.size()) - 1, 1, [&](int64_t b0, int64_t b1) {
      auto idx = std::vector<int64_t>(size_t(rank));
      for (int64_t b = b0; b < b1; ++b) {
        int64_t pos = offsets[size_t(b)];
        if (pos == offsets[size_t(b) + 1]) continue;
        int64_t begin = b * grain, end = std::min(n, begin + grain), rem = begin;
        for (int64_t d = 0; d < rank; ++d) idx[size_t(d)] = rem / strides[size_t(d)], rem %= strides[size_t(d)];
        for (int64_t i = begin; i < end; ++i) {
          if (is_nonzero(xp + i)) {
            for (int64_t d = 0; d < rank; ++d) out[d * count + pos] = idx[size_t(d)];
            ++pos;
          }
          for (int64_t d = rank - 1; d >= 0 && ++idx[size_t(d)] == x.shape[size_t(d)]; --d) idx[size_t(d)] = 0;
        }
      }
    });
  });
}

// Compress(input, condition[, axis]): the slices along `axis` (of the flattened input without one) whose
// condition entry is true; condition may be shorter than the axis.
void run_compress(OpContext& ctx) {
  require_io(ctx, 2, 1);
  const TensorView& x = input(ctx, 0);
  const TensorView& cond = input(ctx, 1);
  TensorView& y = output(ctx, 0);
  require_same_dtype(ctx, x, y, "input and output");
  ACL_SIM_REQUIRE(cond.shape.size() == 1, ACL_ERROR_OP_INPUT_NOT_MATCH, "Compress: condition must be 1-D, got ",
                  shape_str(cond.shape));
  const Attrs& at = attrs_of(ctx);
  const bool has_axis = at.has("axis");
  std::vector<int64_t> shape = has_axis ? x.shape : std::vector<int64_t>{x.numel()};
  const int64_t axis = has_axis ? normalize_axis(ctx, at.get_int("axis", 0), int64_t(shape.size())) : 0;
  const int64_t dim = shape[size_t(axis)];
  const int64_t len = std::min(dim, cond.numel());
  std::vector<int64_t> picked;
  dispatch_dtype(cond.dtype, "Compress", [&](auto tag) {
    using C = decltype(tag);
    const C* cp = static_cast<const C*>(cond.data);
    for (int64_t i = 0; i < len; ++i)
      if (is_nonzero(cp + i)) picked.push_back(i);
  });
  shape[size_t(axis)] = int64_t(picked.size());
  set_output_shape(ctx, y, has_axis ? shape : std::vector<int64_t>{int64_t(picked.size())}, "output");
  const int64_t outer = prod(shape, 0, size_t(axis)), inner = prod(shape, size_t(axis) + 1);
  const size_t elem = dtype_size(x.dtype);
  const size_t row = size_t(inner) * elem;
  const int64_t rows = outer * int64_t(picked.size());
  const auto* src = static_cast<const uint8_t*>(x.data);
  auto* dst = static_cast<uint8_t*>(y.data);
  dispatch_elem_size(ctx, elem, [&](auto utag) {
    using U = decltype(utag);
    parallel_blocks(rows, rows_grain(inner), [&](int64_t r0, int64_t r1) {
      for (int64_t r = r0; r < r1; ++r) {
        int64_t o = r / int64_t(picked.size()), k = r % int64_t(picked.size());
        const uint8_t* s = src + (size_t(o * dim + picked[size_t(k)]) * row);
        if (inner == 1) reinterpret_cast<U*>(dst)[r] = *reinterpret_cast<const U*>(s);
        else std::memcpy(dst + size_t(r) * row, s, row);
      }
    });
  });
}

}  // namespace

ACL_SIM_REGISTER_SHAPE_OP(NonZero, run_nonzero);
ACL_SIM_REGISTER_SHAPE_OP(Compress, run_compress);

}  // namespace acl_sim::kern
