// Transpose, DepthToSpace and SpaceToDepth (the latter two are reshapes
// around a 6-D transpose).
#include "kernels/data_movement.h"
#include "kernels/transpose8x8.h"

namespace acl_sim::kern {

std::vector<int64_t> strides_of(const std::vector<int64_t>& shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d) s[d] = s[d + 1] * shape[d + 1];
  return s;
}

namespace {

/** Splits a linear index over `shape` (excluding dims marked skip) into an input offset. */
int64_t offset_of(int64_t idx, const std::vector<int64_t>& shape, const std::vector<int64_t>& in_stride,
                  int skip_a, int skip_b) {
  int64_t off = 0;
  for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
    if (d == skip_a || d == skip_b) continue;
    off += (idx % shape[d]) * in_stride[d];
    idx /= shape[d];
  }
  return off;
}

#if defined(ACL_SIM_ISA_X86)
/** out[i * ostride + j] = in[j * istride + i] for i in [p0, p1), j in [q0, q1): 8x8 blocks transposed in
 *  AVX registers (unpack / shuffle / permute), scalar edges. 4-byte elements. */
ACL_SIM_TARGET_AVX2 void transpose_tile_avx2(const uint32_t* in, int64_t istride, uint32_t* out, int64_t ostride,
                                             int64_t p0, int64_t p1, int64_t q0, int64_t q1) {
  int64_t i = p0;
  for (; i + 8 <= p1; i += 8) {
    int64_t j = q0;
    for (; j + 8 <= q1; j += 8) {
      __m256 r[8];
      for (int k = 0; k < 8; ++k) r[k] = _mm256_loadu_ps(reinterpret_cast<const float*>(in + (j + k) * istride + i));
      transpose8x8(r);
      for (int k = 0; k < 8; ++k) _mm256_storeu_ps(reinterpret_cast<float*>(out + (i + k) * ostride + j), r[k]);
    }
    for (int64_t ii = i; ii < i + 8; ++ii)
      for (int64_t jj = j; jj < q1; ++jj) out[ii * ostride + jj] = in[jj * istride + ii];
  }
  for (; i < p1; ++i)
    for (int64_t j = q0; j < q1; ++j) out[i * ostride + j] = in[j * istride + i];
}
#endif

template <class U>
void transpose_typed(const U* src, U* dst, const std::vector<int64_t>& out_shape, const std::vector<int64_t>& in_stride) {
  const int rank = static_cast<int>(out_shape.size());
  const int64_t total = prod(out_shape);
  const int q = rank - 1;
  if (in_stride[q] == 1) {
    // The last axis stays last: copy whole rows.
    const int64_t row = out_shape[q];
    const int64_t rows = total / row;
    parallel_blocks(rows, rows_grain(row), [&](int64_t b, int64_t e) {
      for (int64_t r = b; r < e; ++r)
        std::memcpy(dst + r * row, src + offset_of(r, out_shape, in_stride, q, q), static_cast<size_t>(row) * sizeof(U));
    });
    return;
  }
  // p: the output dim that walks the input contiguously.
  int p = 0;
  for (int d = 0; d < rank; ++d)
    if (in_stride[d] == 1) p = d;
  const std::vector<int64_t> out_stride = strides_of(out_shape);
  const bool use_avx2 = cpu_features().isa != KernelIsa::kScalar;
  constexpr int64_t kTile = 32;
  const int64_t np = out_shape[p], nq = out_shape[q];
  const int64_t tp = (np + kTile - 1) / kTile, tq = (nq + kTile - 1) / kTile;
  const int64_t outer = total / (np * nq);
  const int64_t sp_in = in_stride[p], sq_in = in_stride[q], sp_out = out_stride[p];
  std::vector<int64_t> outer_shape, outer_in, outer_out;
  for (int d = 0; d < rank; ++d)
    if (d != p && d != q) outer_shape.push_back(out_shape[d]), outer_in.push_back(in_stride[d]), outer_out.push_back(out_stride[d]);
  parallel_blocks(outer * tp * tq, std::max<int64_t>(1, kBlockElems / (kTile * kTile)), [&](int64_t b, int64_t e) {
    for (int64_t u = b; u < e; ++u) {
      int64_t o = u / (tp * tq), t = u % (tp * tq);
      int64_t p0 = (t / tq) * kTile, q0 = (t % tq) * kTile;
      int64_t in_off = 0, out_off = 0, idx = o;
      for (int64_t d = static_cast<int64_t>(outer_shape.size()) - 1; d >= 0; --d) {
        int64_t i = idx % outer_shape[d];
        idx /= outer_shape[d];
        in_off += i * outer_in[d];
        out_off += i * outer_out[d];
      }
      int64_t p1 = std::min(np, p0 + kTile), q1 = std::min(nq, q0 + kTile);
      if constexpr (sizeof(U) == 4) {
#if defined(ACL_SIM_ISA_X86)
        if (use_avx2 && sp_in == 1) {
          transpose_tile_avx2(reinterpret_cast<const uint32_t*>(src + in_off), sq_in,
                              reinterpret_cast<uint32_t*>(dst + out_off), sp_out, p0, p1, q0, q1);
          continue;
        }
#endif
      }
      for (int64_t i = p0; i < p1; ++i) {
        const U* s = src + in_off + i * sp_in;
        U* dd = dst + out_off + i * sp_out;
        for (int64_t j = q0; j < q1; ++j) dd[j] = s[j * sq_in];
      }
    }
  });
}

}  // namespace

/** Throws ACL_ERROR_OP_ATTR_NOT_MATCH unless perm is a permutation of 0..rank-1. */
void check_perm(const OpContext& ctx, const std::vector<int64_t>& perm, size_t rank) {
  ACL_SIM_REQUIRE(perm.size() == rank, ACL_ERROR_OP_ATTR_NOT_MATCH, ctx.op_type, ": perm has ", perm.size(),
                  " entries for rank ", rank);
  std::vector<bool> seen(rank, false);
  for (int64_t p : perm) {
    ACL_SIM_REQUIRE(p >= 0 && p < static_cast<int64_t>(rank) && !seen[p], ACL_ERROR_OP_ATTR_NOT_MATCH, ctx.op_type,
                    ": perm is not a permutation of 0..", rank - 1);
    seen[p] = true;
  }
}

void transpose_bytes(const OpContext& ctx, const void* src, void* dst, size_t elem, const std::vector<int64_t>& in_shape,
                     const std::vector<int64_t>& perm) {
  const size_t rank = in_shape.size();
  check_perm(ctx, perm, rank);
  int64_t total = prod(in_shape);
  if (total == 0) return;
  // Drop size-1 dims (renumbering perm), then merge input dims that stay adjacent in the output.
  std::vector<int64_t> keep_index(rank, -1), shape;
  for (size_t d = 0; d < rank; ++d)
    if (in_shape[d] != 1) keep_index[d] = static_cast<int64_t>(shape.size()), shape.push_back(in_shape[d]);
  std::vector<int64_t> pm;
  for (int64_t p : perm)
    if (keep_index[p] >= 0) pm.push_back(keep_index[p]);
  // Merge: groups of input dims consecutive in both orders.
  std::vector<int64_t> group_of(shape.size());
  std::vector<std::vector<int64_t>> groups;  // in output order: list of input dims
  for (size_t j = 0; j < pm.size(); ++j) {
    if (j > 0 && pm[j] == pm[j - 1] + 1) groups.back().push_back(pm[j]);
    else groups.push_back({pm[j]});
  }
  // Input-order rank of each group gives the merged input shape.
  std::vector<size_t> order(groups.size());
  for (size_t g = 0; g < groups.size(); ++g) order[g] = g;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return groups[a][0] < groups[b][0]; });
  std::vector<int64_t> merged_in(groups.size()), gsize(groups.size());
  for (size_t g = 0; g < groups.size(); ++g) {
    gsize[g] = 1;
    for (int64_t d : groups[g]) gsize[g] *= shape[d];
  }
  for (size_t r = 0; r < order.size(); ++r) merged_in[r] = gsize[order[r]];
  std::vector<int64_t> in_strides = strides_of(merged_in), out_shape(groups.size()), out_in_stride(groups.size());
  for (size_t r = 0; r < order.size(); ++r) {
    out_shape[order[r]] = gsize[order[r]];
    out_in_stride[order[r]] = in_strides[r];
  }
  if (out_shape.size() <= 1) {
    parallel_copy(dst, src, static_cast<size_t>(total) * elem);
    return;
  }
  dispatch_elem_size(ctx, elem, [&](auto tag) {
    using U = decltype(tag);
    transpose_typed(static_cast<const U*>(src), static_cast<U*>(dst), out_shape, out_in_stride);
  });
}

namespace {

void run_transpose(OpContext& ctx) {
  require_io(ctx, 1, 1);
  const TensorView& x = input(ctx, 0);
  TensorView& y = output(ctx, 0);
  require_same_dtype(ctx, x, y, "input and output");
  const int64_t rank = static_cast<int64_t>(x.shape.size());
  std::vector<int64_t> perm = attrs_of(ctx).get_ints("perm", {});
  if (perm.empty())
    for (int64_t d = rank - 1; d >= 0; --d) perm.push_back(d);  // default: reverse the dims
  check_perm(ctx, perm, x.shape.size());
  std::vector<int64_t> out_shape;
  for (int64_t p : perm) out_shape.push_back(x.shape[p]);
  require_shape(ctx, y, out_shape, "output");
  transpose_bytes(ctx, x.data, y.data, dtype_size(x.dtype), x.shape, perm);
}

// DepthToSpace: DCR views [N, b, b, C/b^2, H, W] -> perm 0,3,4,1,5,2; CRD views [N, C/b^2, b, b, H, W] -> 0,1,4,2,5,3.
void run_depth_to_space(OpContext& ctx) {
  require_io(ctx, 1, 1);
  const TensorView& x = input(ctx, 0);
  TensorView& y = output(ctx, 0);
  require_same_dtype(ctx, x, y, "input and output");
  ACL_SIM_REQUIRE(x.shape.size() == 4, ACL_ERROR_OP_INPUT_NOT_MATCH, "DepthToSpace: input must be 4-D, got ",
                  shape_str(x.shape));
  int64_t b = attrs_of(ctx).get_int("blocksize", 0);
  std::string mode = attrs_of(ctx).get_string("mode", "DCR");
  int64_t n = x.shape[0], c = x.shape[1], h = x.shape[2], w = x.shape[3];
  ACL_SIM_REQUIRE(b > 0 && c % (b * b) == 0, ACL_ERROR_OP_ATTR_NOT_MATCH, "DepthToSpace: blocksize ", b,
                  " does not divide channels ", c);
  ACL_SIM_REQUIRE(mode == "DCR" || mode == "CRD", ACL_ERROR_OP_ATTR_NOT_MATCH, "DepthToSpace: unknown mode '", mode, "'");
  require_shape(ctx, y, {n, c / (b * b), h * b, w * b}, "output");
  if (mode == "DCR")
    transpose_bytes(ctx, x.data, y.data, dtype_size(x.dtype), {n, b, b, c / (b * b), h, w}, {0, 3, 4, 1, 5, 2});
  else
    transpose_bytes(ctx, x.data, y.data, dtype_size(x.dtype), {n, c / (b * b), b, b, h, w}, {0, 1, 4, 2, 5, 3});
}

// SpaceToDepth views [N, C, H/b, b, W/b, b] -> perm 0,3,5,1,2,4 (DCR) or 0,1,3,5,2,4 (CRD).
void run_space_to_depth(OpContext& ctx) {
  require_io(ctx, 1, 1);
  const TensorView& x = input(ctx, 0);
  TensorView& y = output(ctx, 0);
  require_same_dtype(ctx, x, y, "input and output");
  ACL_SIM_REQUIRE(x.shape.size() == 4, ACL_ERROR_OP_INPUT_NOT_MATCH, "SpaceToDepth: input must be 4-D, got ",
                  shape_str(x.shape));
  int64_t b = attrs_of(ctx).get_int("blocksize", 0);
  int64_t n = x.shape[0], c = x.shape[1], h = x.shape[2], w = x.shape[3];
  ACL_SIM_REQUIRE(b > 0 && h % b == 0 && w % b == 0, ACL_ERROR_OP_ATTR_NOT_MATCH, "SpaceToDepth: blocksize ", b,
                  " does not divide ", h, "x", w);
  std::string mode = attrs_of(ctx).get_string("mode", "DCR");
  ACL_SIM_REQUIRE(mode == "DCR" || mode == "CRD", ACL_ERROR_OP_ATTR_NOT_MATCH, "SpaceToDepth: unknown mode '", mode, "'");
  require_shape(ctx, y, {n, c * b * b, h / b, w / b}, "output");
  std::vector<int64_t> perm = mode == "DCR" ? std::vector<int64_t>{0, 3, 5, 1, 2, 4} : std::vector<int64_t>{0, 1, 3, 5, 2, 4};
  transpose_bytes(ctx, x.data, y.data, dtype_size(x.dtype), {n, c, h / b, b, w / b, b}, perm);
}

}  // namespace

ACL_SIM_REGISTER_OP(Transpose, run_transpose);
ACL_SIM_REGISTER_OP(DepthToSpace, run_depth_to_space);
ACL_SIM_REGISTER_OP(SpaceToDepth, run_space_to_depth);

}  // namespace acl_sim::kern
