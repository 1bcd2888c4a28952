// Indexing ops: Gather, GatherElements, GatherND, Slice. Indices are int32 or
// int64, negative values count from the end, and an out-of-range index is an
// ACL_ERROR_OP_INPUT_NOT_MATCH error (never an out-of-bounds read).
#include "kernels/data_movement.h"

namespace acl_sim::kern {
namespace {

/** Index i of an int32/int64 tensor, normalised against dim (throws when out of range). */
struct IndexReader {
  const TensorView& t;
  const OpContext& ctx;
  IndexReader(const OpContext& c, const TensorView& tv) : t(tv), ctx(c) {
    ACL_SIM_REQUIRE(t.dtype == ACL_INT64 || t.dtype == ACL_INT32, ACL_ERROR_OP_INPUT_NOT_MATCH, ctx.op_type,
                    ": indices must be int32 or int64, got ", dtype_name(t.dtype));
  }
  int64_t operator()(int64_t i, int64_t dim) const {
    int64_t v = t.dtype == ACL_INT64 ? static_cast<const int64_t*>(t.data)[i] : static_cast<const int32_t*>(t.data)[i];
    int64_t n = v < 0 ? v + dim : v;
    ACL_SIM_REQUIRE(n >= 0 && n < dim, ACL_ERROR_OP_INPUT_NOT_MATCH, ctx.op_type, ": index ", v,
                    " is out of range for a dimension of size ", dim);
    return n;
  }
};

void run_gather(OpContext& ctx) {
  require_io(ctx, 2, 1);
  const TensorView& x = input(ctx, 0);
  const TensorView& ind = input(ctx, 1);
  TensorView& y = output(ctx, 0);
  require_same_dtype(ctx, x, y, "data and output");
  const int64_t rank = static_cast<int64_t>(x.shape.size());
  ACL_SIM_REQUIRE(rank >= 1, ACL_ERROR_OP_INPUT_NOT_MATCH, "Gather: data must have rank >= 1");
  int64_t axis = normalize_axis(ctx, attrs_of(ctx).get_int("axis", 0), rank);
  std::vector<int64_t> out_shape(x.shape.begin(), x.shape.begin() + axis);
  out_shape.insert(out_shape.end(), ind.shape.begin(), ind.shape.end());
  out_shape.insert(out_shape.end(), x.shape.begin() + axis + 1, x.shape.end());
  require_shape(ctx, y, out_shape, "output");
  IndexReader read(ctx, ind);
  const int64_t dim = x.shape[axis], n = ind.numel();
  std::vector<int64_t> idx(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) idx[i] = read(i, dim);
  const int64_t outer = prod(x.shape, 0, axis);
  const size_t inner = static_cast<size_t>(prod(x.shape, axis + 1)) * dtype_size(x.dtype);
  const char* src = static_cast<const char*>(x.data);
  char* dst = static_cast<char*>(y.data);
  parallel_blocks(outer * n, std::max<int64_t>(1, kBlockElems * 4 / static_cast<int64_t>(std::max<size_t>(inner, 1))),
                  [&](int64_t b, int64_t e) {
                    for (int64_t u = b; u < e; ++u) {
                      int64_t o = u / n, i = u % n;
                      std::memcpy(dst + u * inner, src + (o * dim + idx[i]) * inner, inner);
                    }
                  });
}

void run_gather_elements(OpContext& ctx) {
  require_io(ctx, 2, 1);
  const TensorView& x = input(ctx, 0);
  const TensorView& ind = input(ctx, 1);
  TensorView& y = output(ctx, 0);
  require_same_dtype(ctx, x, y, "data and output");
  require_shape(ctx, y, ind.shape, "output");
  const int64_t rank = static_cast<int64_t>(x.shape.size());
  ACL_SIM_REQUIRE(rank >= 1 && static_cast<int64_t>(ind.shape.size()) == rank, ACL_ERROR_OP_INPUT_NOT_MATCH,
                  "GatherElements: indices rank must equal data rank");
  int64_t axis = normalize_axis(ctx, attrs_of(ctx).get_int("axis", 0), rank);
  if (y.numel() == 0) return;
  IndexReader read(ctx, ind);
  std::vector<int64_t> xs = strides_of(x.shape);
  const int64_t row = ind.shape.back(), rows = ind.numel() / row, dim = x.shape[axis];
  dispatch_elem_size(ctx, dtype_size(x.dtype), [&](auto tag) {
    using U = decltype(tag);
    const U* src = static_cast<const U*>(x.data);
    U* dst = static_cast<U*>(y.data);
    parallel_blocks(rows, rows_grain(row), [&](int64_t b, int64_t e) {
      for (int64_t r = b; r < e; ++r) {
        int64_t rem = r, base = 0;
        for (int64_t d = rank - 2; d >= 0; --d) {
          int64_t c = rem % ind.shape[d];
          rem /= ind.shape[d];
          if (d != axis) base += c * xs[d];
        }
        for (int64_t j = 0; j < row; ++j) {
          int64_t k = read(r * row + j, dim);
          int64_t off = axis == rank - 1 ? base + k : base + k * xs[axis] + j;
          dst[r * row + j] = src[off];
        }
      }
    });
  });
}

void run_gather_nd(OpContext& ctx) {
  require_io(ctx, 2, 1);
  const TensorView& x = input(ctx, 0);
  const TensorView& ind = input(ctx, 1);
  TensorView& y = output(ctx, 0);
  require_same_dtype(ctx, x, y, "data and output");
  const int64_t b = attrs_of(ctx).get_int("batch_dims", 0);
  const int64_t r = static_cast<int64_t>(x.shape.size()), q = static_cast<int64_t>(ind.shape.size());
  ACL_SIM_REQUIRE(q >= 1 && b >= 0 && b < std::min(r, q), ACL_ERROR_OP_ATTR_NOT_MATCH, "GatherND: bad batch_dims ", b);
  const int64_t k = ind.shape.back();
  ACL_SIM_REQUIRE(k >= 1 && b + k <= r, ACL_ERROR_OP_INPUT_NOT_MATCH, "GatherND: indices last dim ", k,
                  " too large for data rank ", r);
  std::vector<int64_t> out_shape(ind.shape.begin(), ind.shape.end() - 1);
  out_shape.insert(out_shape.end(), x.shape.begin() + b + k, x.shape.end());
  require_shape(ctx, y, out_shape, "output");
  IndexReader read(ctx, ind);
  std::vector<int64_t> xs = strides_of(x.shape);
  const size_t es = dtype_size(x.dtype);
  const int64_t slice = prod(x.shape, b + k);
  const int64_t tuples = ind.numel() / k;
  const int64_t per_batch = tuples / std::max<int64_t>(prod(ind.shape, 0, b), 1);
  const int64_t batch_stride = b ? xs[b - 1] : 0;
  for (int64_t t = 0; t < tuples; ++t) {
    int64_t off = (t / std::max<int64_t>(per_batch, 1)) * batch_stride;
    for (int64_t j = 0; j < k; ++j) off += read(t * k + j, x.shape[b + j]) * xs[b + j];
    std::memcpy(static_cast<char*>(y.data) + t * slice * es, static_cast<const char*>(x.data) + off * es,
                static_cast<size_t>(slice) * es);
  }
}

/** Effective start and step of one sliced axis (ONNX clamping rules). */
void slice_axis(int64_t dim, int64_t start, int64_t end, int64_t step, int64_t* s_out, int64_t* n_out) {
  if (start < 0) start += dim;
  if (end < 0) end += dim;
  if (step > 0) {
    start = std::clamp<int64_t>(start, 0, dim);
    end = std::clamp<int64_t>(end, 0, dim);
    *n_out = end > start ? (end - start + step - 1) / step : 0;
  } else {
    start = std::clamp<int64_t>(start, 0, dim - 1);
    end = std::clamp<int64_t>(end, -1, dim - 1);
    *n_out = start > end ? (start - end - step - 1) / -step : 0;
  }
  *s_out = start;
}

void run_slice(OpContext& ctx) {
  require_io(ctx, 1, 1);
  const TensorView& x = input(ctx, 0);
  TensorView& y = output(ctx, 0);
  require_same_dtype(ctx, x, y, "input and output");
  const Attrs& at = attrs_of(ctx);
  const int64_t rank = static_cast<int64_t>(x.shape.size());
  std::vector<int64_t> starts, ends, axes, steps;
  if (optional_input(ctx, 1)) {  // opset >= 10: inputs
    starts = tensor_as_ints(input(ctx, 1), "Slice", "starts");
    ends = tensor_as_ints(input(ctx, 2), "Slice", "ends");
    if (auto* a = optional_input(ctx, 3)) axes = tensor_as_ints(*a, "Slice", "axes");
    if (auto* s = optional_input(ctx, 4)) steps = tensor_as_ints(*s, "Slice", "steps");
  } else {
    starts = at.get_ints("starts", {});
    ends = at.get_ints("ends", {});
    axes = at.get_ints("axes", {});
  }
  if (axes.empty())
    for (size_t i = 0; i < starts.size(); ++i) axes.push_back(static_cast<int64_t>(i));
  if (steps.empty()) steps.assign(starts.size(), 1);
  ACL_SIM_REQUIRE(ends.size() == starts.size() && axes.size() == starts.size() && steps.size() == starts.size(),
                  ACL_ERROR_OP_INPUT_NOT_MATCH, "Slice: starts/ends/axes/steps lengths differ");
  std::vector<int64_t> first(static_cast<size_t>(rank), 0), step(static_cast<size_t>(rank), 1), out_shape = x.shape;
  for (size_t i = 0; i < starts.size(); ++i) {
    int64_t d = normalize_axis(ctx, axes[i], rank);
    ACL_SIM_REQUIRE(steps[i] != 0, ACL_ERROR_OP_INPUT_NOT_MATCH, "Slice: step 0 on axis ", d);
    step[d] = steps[i];
    slice_axis(x.shape[d], starts[i], ends[i], steps[i], &first[d], &out_shape[d]);
  }
  require_shape(ctx, y, out_shape, "output");
  if (y.numel() == 0) return;
  const size_t es = dtype_size(x.dtype);
  if (rank == 0) return parallel_copy(y.data, x.data, es);
  std::vector<int64_t> xs = strides_of(x.shape);
  const int64_t row = out_shape.back(), rows = y.numel() / row;
  dispatch_elem_size(ctx, es, [&](auto tag) {
    using U = decltype(tag);
    const U* src = static_cast<const U*>(x.data);
    U* dst = static_cast<U*>(y.data);
    const int64_t ls = step.back();
    parallel_blocks(rows, rows_grain(row), [&](int64_t b, int64_t e) {
      for (int64_t r = b; r < e; ++r) {
        int64_t rem = r, off = first.back();
        for (int64_t d = rank - 2; d >= 0; --d) {
          off += (first[d] + (rem % out_shape[d]) * step[d]) * xs[d];
          rem /= out_shape[d];
        }
        U* o = dst + r * row;
        if (ls == 1) std::memcpy(o, src + off, static_cast<size_t>(row) * sizeof(U));
        else
          for (int64_t j = 0; j < row; ++j) o[j] = src[off + j * ls];
      }
    });
  });
}

}  // namespace

ACL_SIM_REGISTER_OP(Gather, run_gather);
ACL_SIM_REGISTER_OP(GatherElements, run_gather_elements);
ACL_SIM_REGISTER_OP(GatherND, run_gather_nd);
ACL_SIM_REGISTER_OP(Slice, run_slice);

}  // namespace acl_sim::kern
