// strided_copy / strided_fill (strided_view.h).
#include <algorithm>

#include "kernels/data_movement.h"
#include "kernels/elementwise_cast.h"
#include "kernels/strided_view.h"

namespace acl_sim::kern {

int64_t StridedView::numel() const { return prod(shape); }

void* StridedView::first() const {
  return static_cast<char*>(data) + offset * static_cast<int64_t>(dtype_size(dtype));
}

bool StridedView::is_dense() const {
  int64_t expect = 1;
  for (size_t k = shape.size(); k-- > 0;) {
    if (shape[k] == 1) continue;
    if (shape[k] == 0) return true;
    if (strides[k] != expect) return false;
    expect *= shape[k];
  }
  return true;
}

TensorView StridedView::as_dense() const { return TensorView{first(), dtype, shape}; }

std::vector<int64_t> dense_strides(const std::vector<int64_t>& shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (size_t k = shape.size(); k-- > 1;) s[k - 1] = s[k] * shape[k];
  return s;
}

StridedView strided_of(const TensorView& t) { return StridedView{t.data, t.dtype, t.shape, dense_strides(t.shape), 0}; }

namespace {

/** dst's iteration space with src's strides aligned to it, size-1 dims dropped and contiguous dims merged. */
struct CopyPlan {
  std::vector<int64_t> shape, sstr, dstr;
  int64_t numel = 0;
};

CopyPlan plan_copy(const char* op, const StridedView& src, const StridedView& dst) {
  const size_t r = dst.shape.size();
  ACL_SIM_REQUIRE(src.strides.size() == src.shape.size() && dst.strides.size() == r, ACL_ERROR_OP_INPUT_NOT_MATCH, op,
                  ": a view has ", src.strides.size(), "/", dst.strides.size(), " strides for rank ", src.shape.size(),
                  "/", r);
  for (size_t k = 0; k + r < src.shape.size(); ++k)
    ACL_SIM_REQUIRE(src.shape[k] == 1, ACL_ERROR_OP_INPUT_NOT_MATCH, op, ": shape ", shape_str(src.shape),
                    " does not broadcast to ", shape_str(dst.shape));
  CopyPlan p;
  p.numel = prod(dst.shape);
  for (size_t d = 0; d < r; ++d) {
    int64_t n = dst.shape[d];
    int64_t ss = 0;
    size_t back = r - d;  // position from the right
    if (back <= src.shape.size()) {
      size_t sd = src.shape.size() - back;
      ACL_SIM_REQUIRE(src.shape[sd] == n || src.shape[sd] == 1, ACL_ERROR_OP_INPUT_NOT_MATCH, op, ": shape ",
                      shape_str(src.shape), " does not broadcast to ", shape_str(dst.shape));
      ss = src.shape[sd] == 1 ? 0 : src.strides[sd];
    }
    if (n == 1) continue;
    if (!p.shape.empty() && p.sstr.back() == ss * n && p.dstr.back() == dst.strides[d] * n) {
      p.shape.back() *= n;  // outer dim d-1 steps exactly over n of dim d: merge
      p.sstr.back() = ss;
      p.dstr.back() = dst.strides[d];
      continue;
    }
    p.shape.push_back(n);
    p.sstr.push_back(ss);
    p.dstr.push_back(dst.strides[d]);
  }
  if (p.shape.empty()) {
    p.shape = {1};
    p.sstr = {0};
    p.dstr = {0};
  }
  return p;
}

/** Byte range [lo, hi) touched by a view. */
std::pair<const char*, const char*> extent(const StridedView& v) {
  const int64_t es = static_cast<int64_t>(dtype_size(v.dtype));
  int64_t lo = 0, hi = 0;
  for (size_t k = 0; k < v.shape.size(); ++k) {
    if (v.shape[k] == 0) return {nullptr, nullptr};
    int64_t span = (v.shape[k] - 1) * v.strides[k];
    (span < 0 ? lo : hi) += span;
  }
  const char* f = static_cast<const char*>(v.first());
  return {f + lo * es, f + (hi + 1) * es};
}

bool overlaps(const StridedView& a, const StridedView& b) {
  auto [alo, ahi] = extent(a);
  auto [blo, bhi] = extent(b);
  return alo && blo && alo < bhi && blo < ahi;
}

/** Runs f(src_off, dst_off, len) over every innermost run of the plan, in parallel blocks of rows. */
template <class F>
void for_each_row(const CopyPlan& p, F&& f) {
  if (p.numel == 0) return;
  const int rank = static_cast<int>(p.shape.size());
  const int64_t inner = p.shape.back();
  const int64_t rows = p.numel / inner;
  parallel_blocks(rows, rows_grain(inner), [&](int64_t b, int64_t e) {
    std::vector<int64_t> idx(static_cast<size_t>(rank), 0);
    int64_t so = 0, dof = 0;
    int64_t r = b;
    for (int d = rank - 2; d >= 0; --d) {
      idx[d] = r % p.shape[d];
      r /= p.shape[d];
      so += idx[d] * p.sstr[d];
      dof += idx[d] * p.dstr[d];
    }
    for (int64_t row = b; row < e; ++row) {
      f(so, dof, inner);
      for (int d = rank - 2; d >= 0; --d) {
        so += p.sstr[d];
        dof += p.dstr[d];
        if (++idx[d] < p.shape[d]) break;
        so -= p.sstr[d] * p.shape[d];
        dof -= p.dstr[d] * p.shape[d];
        idx[d] = 0;
      }
    }
  });
}

template <class U>
void copy_same(const CopyPlan& p, const U* s, U* d) {
  const int64_t ss = p.sstr.back(), ds = p.dstr.back();
  for_each_row(p, [&](int64_t so, int64_t dof, int64_t n) {
    const U* sp = s + so;
    U* dp = d + dof;
    if (ss == 1 && ds == 1) std::memcpy(dp, sp, static_cast<size_t>(n) * sizeof(U));
    else if (ss == 0) for (int64_t i = 0; i < n; ++i) dp[i * ds] = *sp;
    else for (int64_t i = 0; i < n; ++i) dp[i * ds] = sp[i * ss];
  });
}

template <class S, class D>
void copy_cast(const CopyPlan& p, const S* s, D* d) {
  const int64_t ss = p.sstr.back(), ds = p.dstr.back();
  for_each_row(p, [&](int64_t so, int64_t dof, int64_t n) {
    const S* sp = s + so;
    D* dp = d + dof;
    if (ss == 1 && ds == 1) return cast_block(sp, dp, n);
    constexpr int64_t kTile = 256;
    S sbuf[kTile];
    D dbuf[kTile];
    for (int64_t i0 = 0; i0 < n; i0 += kTile) {
      const int64_t m = std::min(kTile, n - i0);
      for (int64_t i = 0; i < m; ++i) sbuf[i] = sp[(i0 + i) * ss];
      cast_block(sbuf, dbuf, m);
      for (int64_t i = 0; i < m; ++i) dp[(i0 + i) * ds] = dbuf[i];
    }
  });
}

void check_view(const char* op, const StridedView& v, const char* what) {
  ACL_SIM_REQUIRE(dtype_size(v.dtype) != 0, ACL_ERROR_UNSUPPORTED_DATA_TYPE, op, ": ", what, " dtype ",
                  dtype_name(v.dtype), " is not supported here");
  ACL_SIM_REQUIRE(v.strides.size() == v.shape.size(), ACL_ERROR_OP_INPUT_NOT_MATCH, op, ": ", what, " has ",
                  v.strides.size(), " strides for rank ", v.shape.size());
}

}  // namespace

void strided_copy(const char* op, const StridedView& src, const StridedView& dst) {
  check_view(op, src, "source");
  check_view(op, dst, "destination");
  CopyPlan p = plan_copy(op, src, dst);
  if (p.numel == 0) return;
  if (overlaps(src, dst)) {
    CopyPlan same = plan_copy(op, src, src);
    bool identical = src.dtype == dst.dtype && src.first() == dst.first() && same.shape == p.shape &&
                     same.sstr == p.dstr && p.sstr == p.dstr;
    if (identical) return;  // copying a view onto itself
    // Stage the source so that writes cannot clobber elements still to be read.
    StridedView staged{nullptr, src.dtype, src.shape, dense_strides(src.shape), 0};
    std::vector<uint64_t> buf((static_cast<size_t>(src.numel()) * dtype_size(src.dtype) + 7) / 8);
    staged.data = buf.data();
    strided_copy(op, src, staged);
    return strided_copy(op, staged, dst);
  }
  if (src.dtype == dst.dtype) {  // a pure move: dispatch on the element size only
    OpContext ctx;
    ctx.op_type = op;
    dispatch_elem_size(ctx, dtype_size(src.dtype), [&](auto tag) {
      using U = decltype(tag);
      copy_same(p, static_cast<const U*>(src.first()), static_cast<U*>(dst.first()));
    });
    return;
  }
  dispatch_dtype(src.dtype, op, [&](auto stag) {
    using S = decltype(stag);
    dispatch_dtype(dst.dtype, op, [&](auto dtag) {
      using D = decltype(dtag);
      copy_cast(p, static_cast<const S*>(src.first()), static_cast<D*>(dst.first()));
    });
  });
}

void strided_fill(const char* op, const StridedView& dst, double value) {
  check_view(op, dst, "destination");
  uint64_t one = 0;
  dispatch_dtype(dst.dtype, op, [&](auto tag) {
    using T = decltype(tag);
    store_from_double(reinterpret_cast<T*>(&one), value);
  });
  StridedView scalar{&one, dst.dtype, {}, {}, 0};
  strided_copy(op, scalar, dst);
}

}  // namespace acl_sim::kern
