// Col2Im (opset 18): the inverse of im2col. input [N, C * prod(block_shape), L] holds, for
// every sliding block position (L of them), the block's values; they are summed back into an
// image [N, C, *image_shape] (overlapping blocks add up). strides / dilations / pads as in Conv,
// any number of spatial axes.
//
// One pool task per (n, c) plane: for every kernel offset and every block row (all block
// coordinates but the last), the valid range of the last block coordinate is computed once, so
// the inner loop is a branch-free strided accumulate. fp32 / fp16 / bf16 compute in fp32,
// double in double.
#include <algorithm>

#include "kernels/elementwise_common.h"
#include "kernels/gemm_tensor_io.h"

namespace acl_sim::kern {
namespace {

struct Col2ImPlan {
  int nsp = 0;
  std::vector<int64_t> image, kernel, stride, dilation, pad_begin, pad_end, blocks;
  int64_t kernel_size = 1, block_count = 1, image_size = 1;
};

/** [lo, hi) of block coordinates b on one axis whose tap at kernel offset k lands inside the image. */
inline void valid_blocks(const Col2ImPlan& P, int a, int64_t k, int64_t* lo, int64_t* hi) {
  // pos = b * s - p + k * d must lie in [0, image).
  const int64_t s = P.stride[a], base = k * P.dilation[a] - P.pad_begin[a], n = P.blocks[a];
  int64_t l = base >= 0 ? 0 : (-base + s - 1) / s;
  int64_t h = P.image[a] - 1 - base < 0 ? 0 : (P.image[a] - 1 - base) / s + 1;
  *lo = std::min(l, n);
  *hi = std::max(*lo, std::min(h, n));
}

template <class T>
void col2im_plane(const Col2ImPlan& P, const T* col, T* img) {
  std::fill(img, img + P.image_size, T(0));
  const int last = P.nsp - 1;
  const int64_t nb_last = P.blocks[last], s_last = P.stride[last];
  const int64_t rows = P.block_count / nb_last;  // block coordinates over every axis but the last
  std::vector<int64_t> koff(static_cast<size_t>(P.nsp)), bco(static_cast<size_t>(P.nsp));
  for (int64_t kk = 0; kk < P.kernel_size; ++kk) {
    for (int64_t r = kk, a = last; a >= 0; --a) koff[a] = r % P.kernel[a], r /= P.kernel[a];
    int64_t lo, hi;
    valid_blocks(P, last, koff[last], &lo, &hi);
    if (lo >= hi) continue;
    const T* ck = col + kk * P.block_count;
    for (int64_t row = 0; row < rows; ++row) {
      // Image offset of this block row on the leading axes; skip rows whose tap falls outside.
      int64_t off = 0;
      bool inside = true;
      for (int64_t r = row, a = last - 1; a >= 0; --a) bco[a] = r % P.blocks[a], r /= P.blocks[a];
      for (int a = 0; a < last; ++a) {
        const int64_t pos = bco[a] * P.stride[a] - P.pad_begin[a] + koff[a] * P.dilation[a];
        if (pos < 0 || pos >= P.image[a]) {
          inside = false;
          break;
        }
        off = off * P.image[a] + pos;
      }
      if (!inside) continue;
      const int64_t base = off * P.image[last] + koff[last] * P.dilation[last] - P.pad_begin[last];
      const T* src = ck + row * nb_last;
      for (int64_t b = lo; b < hi; ++b) img[base + b * s_last] += src[b];
    }
  }
}

void run_col2im(OpContext& ctx) {
  require_io(ctx, 3, 1);
  const TensorView& x = input(ctx, 0);
  TensorView& y = output(ctx, 0);
  const Attrs& at = attrs_of(ctx);
  Col2ImPlan P;
  P.image = tensor_as_ints(input(ctx, 1), ctx.op_type, "image_shape");
  P.kernel = tensor_as_ints(input(ctx, 2), ctx.op_type, "block_shape");
  P.nsp = static_cast<int>(P.image.size());
  const size_t n = P.image.size();
  ACL_SIM_REQUIRE(n >= 1 && P.kernel.size() == n, ACL_ERROR_OP_INPUT_NOT_MATCH, ctx.op_type,
                  ": image_shape ", shape_str(P.image), " and block_shape ", shape_str(P.kernel),
                  " must have the same non-zero length");
  ACL_SIM_REQUIRE(x.shape.size() == 3, ACL_ERROR_OP_INPUT_NOT_MATCH, ctx.op_type,
                  ": input must be [N, C * prod(block_shape), L], got ", shape_str(x.shape));
  auto per_axis = [&](const char* name, int64_t def, size_t count) {
    std::vector<int64_t> v = at.get_ints(name, std::vector<int64_t>(count, def));
    if (v.empty()) v.assign(count, def);
    ACL_SIM_REQUIRE(v.size() == count, ACL_ERROR_OP_ATTR_NOT_MATCH, ctx.op_type, ": attribute '", name, "' has ",
                    v.size(), " values, expected ", count);
    return v;
  };
  P.stride = per_axis("strides", 1, n);
  P.dilation = per_axis("dilations", 1, n);
  std::vector<int64_t> pads = per_axis("pads", 0, 2 * n);
  P.pad_begin.assign(pads.begin(), pads.begin() + static_cast<int64_t>(n));
  P.pad_end.assign(pads.begin() + static_cast<int64_t>(n), pads.end());
  for (size_t a = 0; a < n; ++a) {
    ACL_SIM_REQUIRE(P.image[a] >= 1 && P.kernel[a] >= 1 && P.stride[a] >= 1 && P.dilation[a] >= 1 &&
                        P.pad_begin[a] >= 0 && P.pad_end[a] >= 0,
                    ACL_ERROR_OP_ATTR_NOT_MATCH, ctx.op_type,
                    ": image_shape / block_shape / strides / dilations must be >= 1 and pads >= 0");
    const int64_t span = P.dilation[a] * (P.kernel[a] - 1) + 1;
    const int64_t nb = (P.image[a] + P.pad_begin[a] + P.pad_end[a] - span) / P.stride[a] + 1;
    ACL_SIM_REQUIRE(nb >= 1, ACL_ERROR_OP_INPUT_NOT_MATCH, ctx.op_type, ": the block does not fit the image on axis ",
                    a);
    P.blocks.push_back(nb);
    P.kernel_size *= P.kernel[a];
    P.block_count *= nb;
    P.image_size *= P.image[a];
  }
  ACL_SIM_REQUIRE(x.shape[1] % P.kernel_size == 0, ACL_ERROR_OP_INPUT_NOT_MATCH, ctx.op_type, ": input dim 1 (",
                  x.shape[1], ") is not a multiple of prod(block_shape) = ", P.kernel_size);
  ACL_SIM_REQUIRE(x.shape[2] == P.block_count, ACL_ERROR_OP_INPUT_NOT_MATCH, ctx.op_type, ": input has ", x.shape[2],
                  " blocks, the geometry gives ", shape_str(P.blocks), " = ", P.block_count);
  const int64_t N = x.shape[0], C = x.shape[1] / P.kernel_size;
  std::vector<int64_t> expect = {N, C};
  expect.insert(expect.end(), P.image.begin(), P.image.end());
  require_same_dtype(ctx, x, y, "input and output");
  require_shape(ctx, y, expect, "output");
  const int64_t planes = N * C, col_plane = P.kernel_size * P.block_count;
  const int64_t grain = std::max<int64_t>(1, kBlockElems / std::max<int64_t>(1, col_plane));
  if (x.dtype == ACL_DOUBLE) {
    const auto* col = static_cast<const double*>(x.data);
    auto* img = static_cast<double*>(y.data);
    parallel_blocks(planes, grain, [&](int64_t p0, int64_t p1) {
      for (int64_t p = p0; p < p1; ++p) col2im_plane<double>(P, col + p * col_plane, img + p * P.image_size);
    });
    return;
  }
  ACL_SIM_REQUIRE(::acl_sim::is_float_dtype(x.dtype), ACL_ERROR_UNSUPPORTED_DATA_TYPE, ctx.op_type,
                  ": unsupported dtype ", dtype_name(x.dtype), " (float types only)");
  F32Input col(ctx, 0);
  F32Output img(y);
  parallel_blocks(planes, grain, [&](int64_t p0, int64_t p1) {
    for (int64_t p = p0; p < p1; ++p)
      col2im_plane<float>(P, col.data() + p * col_plane, img.data() + p * P.image_size);
  });
  img.commit();
}

}  // namespace

ACL_SIM_REGISTER_OP(Col2Im, run_col2im);

}  // namespace acl_sim::kern
