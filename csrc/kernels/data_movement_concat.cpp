// Concat, Split, Tile and Pad: block copies along one axis / per output row.
#include "kernels/data_movement.h"

namespace acl_sim::kern {
namespace {

/** Checks `t` matches `ref` on every dim except `axis`. */
void require_same_but_axis(const OpContext& ctx, const TensorView& t, const TensorView& ref, int64_t axis) {
  bool ok = t.shape.size() == ref.shape.size();
  for (size_t d = 0; ok && d < t.shape.size(); ++d) ok = static_cast<int64_t>(d) == axis || t.shape[d] == ref.shape[d];
  ACL_SIM_REQUIRE(ok, ACL_ERROR_OP_INPUT_NOT_MATCH, ctx.op_type, ": shape ", shape_str(t.shape),
                  " does not match ", shape_str(ref.shape), " outside axis ", axis);
  require_same_dtype(ctx, t, ref, "tensors");
}

/** Moves `parts` (each [outer, part_axis*inner]) into / out of `whole` ([outer, sum*inner]). */
void axis_copy(const OpContext& ctx, std::vector<TensorView*> parts, TensorView& whole, int64_t axis, bool gather) {
  size_t es = dtype_size(whole.dtype);
  int64_t outer = prod(whole.shape, 0, static_cast<size_t>(axis));
  int64_t whole_row = prod(whole.shape, static_cast<size_t>(axis)) * static_cast<int64_t>(es);
  std::vector<int64_t> off(parts.size()), row(parts.size());
  int64_t acc = 0, total_axis = 0;
  for (size_t i = 0; i < parts.size(); ++i) {
    require_same_but_axis(ctx, *parts[i], whole, axis);
    off[i] = acc;
    row[i] = prod(parts[i]->shape, static_cast<size_t>(axis)) * static_cast<int64_t>(es);
    acc += row[i];
    total_axis += parts[i]->shape[axis];
  }
  ACL_SIM_REQUIRE(total_axis == whole.shape[axis], ACL_ERROR_OP_OUTPUT_NOT_MATCH, ctx.op_type, ": axis ", axis,
                  " sizes add up to ", total_axis, ", expected ", whole.shape[axis]);
  char* w = static_cast<char*>(whole.data);
  if (outer == 1) {
    for (size_t i = 0; i < parts.size(); ++i) {
      char* p = static_cast<char*>(parts[i]->data);
      if (p == w + off[i]) continue;  // ATC placed this part inside the whole (memory_plan.py): nothing to move
      if (gather) parallel_copy(w + off[i], p, static_cast<size_t>(row[i]));
      else parallel_copy(p, w + off[i], static_cast<size_t>(row[i]));
    }
    return;
  }
  const int64_t n = static_cast<int64_t>(parts.size());
  parallel_blocks(outer * n, std::max<int64_t>(1, kBlockElems * 4 / std::max<int64_t>(whole_row / n, 1)),
                  [&](int64_t b, int64_t e) {
                    for (int64_t u = b; u < e; ++u) {
                      int64_t o = u / n, i = u % n;
                      char* p = static_cast<char*>(parts[i]->data) + o * row[i];
                      char* wp = w + o * whole_row + off[i];
                      if (gather) std::memcpy(wp, p, static_cast<size_t>(row[i]));
                      else std::memcpy(p, wp, static_cast<size_t>(row[i]));
                    }
                  });
}

void run_concat(OpContext& ctx) {
  require_io(ctx, 1, 1);
  TensorView& y = output(ctx, 0);
  int64_t axis = normalize_axis(ctx, attrs_of(ctx).get_int("axis", 0), static_cast<int64_t>(y.shape.size()));
  std::vector<TensorView*> parts;
  for (size_t i = 0; i < ctx.inputs.size(); ++i) {
    input(ctx, i);
    parts.push_back(&ctx.inputs[i]);
  }
  axis_copy(ctx, parts, y, axis, true);
}

// Split: the output shapes (given) define the split; the `split` input/attribute only has to agree.
void run_split(OpContext& ctx) {
  require_io(ctx, 1, 1);
  TensorView& x = ctx.inputs[0];
  int64_t axis = normalize_axis(ctx, attrs_of(ctx).get_int("axis", 0), static_cast<int64_t>(x.shape.size()));
  std::vector<TensorView*> parts;
  for (TensorView& o : ctx.outputs) parts.push_back(&o);
  axis_copy(ctx, parts, x, axis, false);
}

void run_tile(OpContext& ctx) {
  require_io(ctx, 2, 1);
  const TensorView& x = input(ctx, 0);
  TensorView& y = output(ctx, 0);
  require_same_dtype(ctx, x, y, "input and output");
  std::vector<int64_t> reps = tensor_as_ints(input(ctx, 1), "Tile", "repeats");
  ACL_SIM_REQUIRE(reps.size() == x.shape.size(), ACL_ERROR_OP_INPUT_NOT_MATCH, "Tile: repeats has ", reps.size(),
                  " entries for rank ", x.shape.size());
  std::vector<int64_t> out_shape(x.shape.size());
  for (size_t d = 0; d < reps.size(); ++d) {
    ACL_SIM_REQUIRE(reps[d] >= 0, ACL_ERROR_OP_INPUT_NOT_MATCH, "Tile: negative repeat ", reps[d]);
    out_shape[d] = x.shape[d] * reps[d];
  }
  require_shape(ctx, y, out_shape, "output");
  if (y.numel() == 0) return;
  size_t es = dtype_size(x.dtype);
  if (x.shape.empty()) return parallel_copy(y.data, x.data, es);
  const int rank = static_cast<int>(x.shape.size());
  const int64_t in_row = x.shape.back(), out_row = out_shape.back();
  const int64_t rows = y.numel() / out_row;
  std::vector<int64_t> in_strides = strides_of(x.shape);
  parallel_blocks(rows, rows_grain(out_row), [&](int64_t b, int64_t e) {
    for (int64_t r = b; r < e; ++r) {
      int64_t idx = r, off = 0;
      for (int d = rank - 2; d >= 0; --d) {
        off += ((idx % out_shape[d]) % x.shape[d]) * in_strides[d];
        idx /= out_shape[d];
      }
      const char* src = static_cast<const char*>(x.data) + off * static_cast<int64_t>(es);
      char* dst = static_cast<char*>(y.data) + r * out_row * static_cast<int64_t>(es);
      for (int64_t k = 0; k < reps.back(); ++k) std::memcpy(dst + k * in_row * es, src, static_cast<size_t>(in_row) * es);
    }
  });
}

enum class PadMode { Constant, Reflect, Edge, Wrap };

/** Input index for output index i along a dim of size n with `before` padding; -1 = constant fill. */
int64_t pad_source(int64_t i, int64_t before, int64_t n, PadMode mode) {
  int64_t s = i - before;
  if (s >= 0 && s < n) return s;
  switch (mode) {
    case PadMode::Constant: return -1;
    case PadMode::Edge: return s < 0 ? 0 : n - 1;
    case PadMode::Wrap: return ((s % n) + n) % n;
    case PadMode::Reflect: {
      if (n == 1) return 0;
      int64_t period = 2 * (n - 1);
      int64_t k = ((s % period) + period) % period;
      return k >= n ? period - k : k;
    }
  }
  return -1;
}

void run_pad(OpContext& ctx) {
  require_io(ctx, 1, 1);
  const TensorView& x = input(ctx, 0);
  TensorView& y = output(ctx, 0);
  require_same_dtype(ctx, x, y, "input and output");
  const Attrs& at = attrs_of(ctx);
  const int64_t rank = static_cast<int64_t>(x.shape.size());
  std::string mode_s = at.get_string("mode", "constant");
  PadMode mode = mode_s == "constant" ? PadMode::Constant
                 : mode_s == "reflect" ? PadMode::Reflect
                 : mode_s == "edge"    ? PadMode::Edge
                 : mode_s == "wrap"    ? PadMode::Wrap
                                       : (fail(ACL_ERROR_OP_ATTR_NOT_MATCH, "Pad: unknown mode '", mode_s, "'"), PadMode::Constant);
  // pads: input 1 (opset >= 11) or attribute (opset < 11), optionally for a subset of axes (input 3, opset 18).
  const TensorView* pads_t = optional_input(ctx, 1);
  std::vector<int64_t> raw = pads_t ? tensor_as_ints(*pads_t, "Pad", "pads") : at.get_ints("pads", {});
  std::vector<int64_t> axes;
  if (const TensorView* ax = optional_input(ctx, 3)) axes = tensor_as_ints(*ax, "Pad", "axes");
  else
    for (int64_t d = 0; d < rank; ++d) axes.push_back(d);
  ACL_SIM_REQUIRE(raw.size() == 2 * axes.size(), ACL_ERROR_OP_INPUT_NOT_MATCH, "Pad: pads has ", raw.size(),
                  " entries, expected ", 2 * axes.size());
  std::vector<int64_t> before(static_cast<size_t>(rank), 0), out_shape = x.shape;
  for (size_t i = 0; i < axes.size(); ++i) {
    int64_t d = normalize_axis(ctx, axes[i], rank);
    before[d] = raw[i];
    out_shape[d] = x.shape[d] + raw[i] + raw[i + axes.size()];
  }
  require_shape(ctx, y, out_shape, "output");
  if (y.numel() == 0) return;
  ACL_SIM_REQUIRE(mode == PadMode::Constant || x.numel() > 0, ACL_ERROR_OP_INPUT_NOT_MATCH, "Pad: mode '", mode_s,
                  "' needs a non-empty input");
  // The constant, as raw element bytes.
  uint64_t cbits = 0;
  size_t es = dtype_size(x.dtype);
  if (const TensorView* cv = optional_input(ctx, 2); cv && cv->numel() > 0) {
    require_same_dtype(ctx, x, *cv, "input and constant_value");
    std::memcpy(&cbits, cv->data, es);
  } else {
    double v = at.get_float("value", 0.0);
    dispatch_dtype(x.dtype, "Pad", [&](auto tag) {
      using T = decltype(tag);
      T t;
      store_from_double(&t, v);
      std::memcpy(&cbits, &t, sizeof(T));
    });
  }
  if (rank == 0) return parallel_copy(y.data, x.data, es);
  const int64_t out_row = out_shape.back(), rows = y.numel() / out_row;
  std::vector<int64_t> last_map(static_cast<size_t>(out_row));
  for (int64_t j = 0; j < out_row; ++j) last_map[j] = pad_source(j, before.back(), x.shape.back(), mode);
  std::vector<int64_t> in_strides = strides_of(x.shape);
  dispatch_elem_size(ctx, es, [&](auto tag) {
    using U = decltype(tag);
    U cval;
    std::memcpy(&cval, &cbits, sizeof(U));
    const U* src = static_cast<const U*>(x.data);
    U* dst = static_cast<U*>(y.data);
    parallel_blocks(rows, rows_grain(out_row), [&](int64_t b, int64_t e) {
      for (int64_t r = b; r < e; ++r) {
        U* o = dst + r * out_row;
        int64_t idx = r, off = 0;
        bool fill = false;
        for (int64_t d = rank - 2; d >= 0; --d) {
          int64_t s = pad_source(idx % out_shape[d], before[d], x.shape[d], mode);
          idx /= out_shape[d];
          if (s < 0) fill = true;
          else off += s * in_strides[d];
        }
        if (fill) {
          std::fill(o, o + out_row, cval);
          continue;
        }
        const U* in = src + off;
        for (int64_t j = 0; j < out_row; ++j) o[j] = last_map[j] < 0 ? cval : in[last_map[j]];
      }
    });
  });
}

}  // namespace

ACL_SIM_REGISTER_OP(Concat, run_concat);
ACL_SIM_REGISTER_OP(Split, run_split);
ACL_SIM_REGISTER_OP(Tile, run_tile);
ACL_SIM_REGISTER_OP(Pad, run_pad);

}  // namespace acl_sim::kern
