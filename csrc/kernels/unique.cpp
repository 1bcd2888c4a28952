// Unique (a shape-setting op, op_registry.h): the distinct elements of X, or
// with `axis` the distinct slices along it, plus the first-occurrence
// indices, the inverse indices (static shape) and the counts.
//
// One stable sort of the element (or slice) indices by value groups equal
// values with their first occurrence first; sorted=1 emits the groups in that
// order, sorted=0 re-orders them by first occurrence (as onnxruntime does).
// Elements compare in their own type (16-bit floats as float), so int64 keys
// stay exact; slices compare lexicographically in row-major order.
#include <algorithm>
#include <numeric>

#include "kernels/data_movement.h"
#include "kernels/shape_setting.h"

namespace acl_sim::kern {
namespace {

template <class T>
ACL_SIM_INLINE auto key_of(const T* p) {
  if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>) return float(load_as_double(p));
  else return *p;
}

void run_unique(OpContext& ctx) {
  require_io(ctx, 1, 1);
  const TensorView& x = input(ctx, 0);
  TensorView& y = output(ctx, 0);
  require_same_dtype(ctx, x, y, "input and output");
  const Attrs& at = attrs_of(ctx);
  const bool has_axis = at.has("axis");
  const bool sorted = at.get_int("sorted", 1) != 0;
  std::vector<int64_t> shape = has_axis ? x.shape : std::vector<int64_t>{x.numel()};
  ACL_SIM_REQUIRE(!shape.empty(), ACL_ERROR_OP_INPUT_NOT_MATCH, "Unique: axis given for a scalar input");
  const int64_t axis = has_axis ? normalize_axis(ctx, at.get_int("axis", 0), int64_t(shape.size())) : 0;
  const int64_t outer = prod(shape, 0, size_t(axis)), n = shape[size_t(axis)], inner = prod(shape, size_t(axis) + 1);
  for (size_t k = 1; k < ctx.outputs.size() && k < 4; ++k)
    if (ctx.outputs[k].present())
      ACL_SIM_REQUIRE(ctx.outputs[k].dtype == ACL_INT64, ACL_ERROR_OP_OUTPUT_NOT_MATCH, "Unique: output ", k,
                      " must be int64");

  auto order = std::vector<int64_t>(size_t(n));
  std::iota(order.begin(), order.end(), int64_t{0});
  dispatch_dtype(x.dtype, "Unique", [&](auto tag) {
    using T = decltype(tag);
    const T* xp = static_cast<const T*>(x.data);
    // Slice j is x[o, j, i] for all (o, i), compared in that order.
    auto less = [&](int64_t a, int64_t b) {
      for (int64_t o = 0; o < outer; ++o) {
        const T* pa = xp + (o * n + a) * inner;
        const T* pb = xp + (o * n + b) * inner;
        for (int64_t i = 0; i < inner; ++i) {
          auto ka = key_of(pa + i), kb = key_of(pb + i);
          if (ka < kb) return true;
          if (kb < ka) return false;
        }
      }
      return false;
    };
    if (outer == 1 && inner == 1) {  // the common flat case: sort (key, index) pairs, no indirection
      using K = decltype(key_of(xp));
      auto pairs = std::vector<std::pair<K, int64_t>>(size_t(n));
      parallel_blocks(n, kBlockElems, [&](int64_t b, int64_t e) {
        for (int64_t i = b; i < e; ++i) pairs[size_t(i)] = {key_of(xp + i), i};
      });
      std::stable_sort(pairs.begin(), pairs.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
      for (int64_t i = 0; i < n; ++i) order[size_t(i)] = pairs[size_t(i)].second;
    } else {
      std::stable_sort(order.begin(), order.end(), less);
    }

    // Groups of equal values: start position in `order` (its first element is the first occurrence).
    std::vector<int64_t> starts;
    for (int64_t i = 0; i < n; ++i)
      if (i == 0 || less(order[size_t(i - 1)], order[size_t(i)])) starts.push_back(i);
    const int64_t groups = int64_t(starts.size());
    auto group_order = std::vector<int64_t>(size_t(groups));
    std::iota(group_order.begin(), group_order.end(), int64_t{0});
    if (!sorted)
      std::sort(group_order.begin(), group_order.end(),
                [&](int64_t a, int64_t b) { return order[size_t(starts[size_t(a)])] < order[size_t(starts[size_t(b)])]; });

    std::vector<int64_t> y_shape = shape;
    y_shape[size_t(axis)] = groups;
    set_output_shape(ctx, y, has_axis ? y_shape : std::vector<int64_t>{groups}, "Y");
    TensorView* indices = ctx.outputs.size() > 1 && ctx.outputs[1].present() ? &ctx.outputs[1] : nullptr;
    TensorView* inverse = ctx.outputs.size() > 2 && ctx.outputs[2].present() ? &ctx.outputs[2] : nullptr;
    TensorView* counts = ctx.outputs.size() > 3 && ctx.outputs[3].present() ? &ctx.outputs[3] : nullptr;
    if (indices) set_output_shape(ctx, *indices, {groups}, "indices");
    if (counts) set_output_shape(ctx, *counts, {groups}, "counts");
    if (inverse) require_shape(ctx, *inverse, {n}, "inverse_indices");

    T* yp = static_cast<T*>(y.data);
    parallel_blocks(groups, rows_grain(outer * inner), [&](int64_t g0, int64_t g1) {
      for (int64_t g = g0; g < g1; ++g) {
        int64_t grp = group_order[size_t(g)];
        int64_t begin = starts[size_t(grp)];
        int64_t end = grp + 1 < groups ? starts[size_t(grp) + 1] : n;
        int64_t first = order[size_t(begin)];
        for (int64_t o = 0; o < outer; ++o)
          std::memcpy(yp + (o * groups + g) * inner, xp + (o * n + first) * inner, size_t(inner) * sizeof(T));
        if (indices) static_cast<int64_t*>(indices->data)[g] = first;
        if (counts) static_cast<int64_t*>(counts->data)[g] = end - begin;
        if (inverse)
          for (int64_t k = begin; k < end; ++k) static_cast<int64_t*>(inverse->data)[order[size_t(k)]] = g;
      }
    });
  });
}

}  // namespace

ACL_SIM_REGISTER_SHAPE_OP(Unique, run_unique);

}  // namespace acl_sim::kern
