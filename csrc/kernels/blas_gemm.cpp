// CANN GEMM (aclblas) on the packed fp32 GEMM; see blas_gemm.h.
#include "kernels/blas_gemm.h"

#include <algorithm>
#include <cstring>

#include "acl/acl_base.h"
#include "common/error.h"
#include "executor/thread_pool.h"
#include "common/fp16.h"
#include "kernels/gemm.h"
#include "kernels/op_registry.h"
#include "kernels/thread_scratch.h"

namespace acl_sim {
namespace {

constexpr int64_t kFractalRows = 16;

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

int64_t fractal_c0(int dtype) { return dtype == ACL_INT8 ? 32 : 16; }

// Offset of element (r, c) of an R x C matrix stored FRACTAL_NZ with column block c0:
// [ceil(C/c0)][ceil(R/16)][16][c0].
int64_t nz_offset(int64_t r, int64_t c, int64_t rows, int64_t c0) {
  const int64_t row_blocks = ceil_div(rows, kFractalRows);
  return ((c / c0) * row_blocks + r / kFractalRows) * kFractalRows * c0 + (r % kFractalRows) * c0 + (c % c0);
}

float load(const void* p, int dtype, int64_t i) {
  if (dtype == ACL_FLOAT16) return half_to_float(static_cast<const uint16_t*>(p)[i]);
  if (dtype == ACL_INT8) return static_cast<float>(static_cast<const int8_t*>(p)[i]);
  return static_cast<const float*>(p)[i];
}

// The logical rows x cols matrix of an operand as dense row-major fp32, into dst (rows x cols floats).
// `transposed_nz` marks FRACTAL_Z (int8 B), which is the NZ layout of the transpose.
void dense_f32(const void* src, int dtype, BlasLayout layout, int64_t rows, int64_t cols, bool transposed_nz,
               float* out) {
  const int64_t c0 = fractal_c0(dtype);
  ThreadPool::instance().parallel_for(static_cast<size_t>(rows), [&](size_t ri) {
    const int64_t r = static_cast<int64_t>(ri);
    float* dst = out + r * cols;
    if (layout == BlasLayout::kRowMajor && dtype == ACL_FLOAT16) {
      half_to_float_n(static_cast<const uint16_t*>(src) + r * cols, dst, static_cast<size_t>(cols));
      return;
    }
    for (int64_t c = 0; c < cols; ++c) {
      int64_t off;
      if (layout == BlasLayout::kRowMajor) off = r * cols + c;
      else if (layout == BlasLayout::kTransposed) off = c * rows + r;
      else if (transposed_nz) off = nz_offset(c, r, cols, c0);
      else off = nz_offset(r, c, rows, c0);
      dst[c] = load(src, dtype, off);
    }
  });
}

// Per-thread operand buffers: a steady stream of GEMM calls allocates nothing (a zero-filled std::vector per
// operand and call cost 64 x 4096 x 1024 hgemm ~2 ms on one thread, more than its product).
thread_local Scratch<float> t_a, t_b, t_c;

int64_t c_offset(const BlasGemmArgs& g, int64_t i, int64_t j) {
  return g.c_fractal ? nz_offset(i, j, g.m, kFractalRows) : i * g.n + j;
}

// Every partial sum of this many int8 x int8 products is an integer below 2^24, exact in fp32.
constexpr int64_t kExactInt8Slice = 1024;

// acc[m x n] = A * B exactly, for A and B holding int8 values (as fp32).
std::vector<int64_t> int_product(const BlasGemmArgs& g, const float* A, const float* B) {
  const size_t mn = static_cast<size_t>(g.m * g.n);
  std::vector<int64_t> acc(mn, 0);
  std::vector<float> part(mn);
  for (int64_t k0 = 0; k0 < g.k; k0 += kExactInt8Slice) {
    const int64_t kc = std::min(kExactInt8Slice, g.k - k0);
    gemm_f32(g.m, g.n, kc, 1.f, MatrixRef{A + k0, g.k, 1}, MatrixRef{B + k0 * g.n, g.n, 1}, 0.f, part.data(), g.n);
    for (size_t i = 0; i < mn; ++i) acc[i] += static_cast<int64_t>(part[i]);
  }
  return acc;
}

void int_epilogue(const BlasGemmArgs& g, const std::vector<int64_t>& acc) {
  if (g.dtype_c == ACL_INT32) {
    const int64_t alpha = *static_cast<const int32_t*>(g.alpha), beta = *static_cast<const int32_t*>(g.beta);
    const int32_t* cin = static_cast<const int32_t*>(g.c_in);
    int32_t* cout = static_cast<int32_t*>(g.c_out);
    for (int64_t i = 0; i < g.m; ++i)
      for (int64_t j = 0; j < g.n; ++j) {
        const int64_t o = c_offset(g, i, j);
        int64_t v = alpha * acc[static_cast<size_t>(i * g.n + j)];
        if (beta != 0) v += beta * cin[o];
        cout[o] = static_cast<int32_t>(static_cast<uint32_t>(v));  // wraps like the int32 datapath
      }
    return;
  }
  const float alpha = *static_cast<const float*>(g.alpha), beta = *static_cast<const float*>(g.beta);
  const float* cin = static_cast<const float*>(g.c_in);
  float* cout = static_cast<float*>(g.c_out);
  for (int64_t i = 0; i < g.m; ++i)
    for (int64_t j = 0; j < g.n; ++j) {
      const int64_t o = c_offset(g, i, j);
      float v = alpha * static_cast<float>(acc[static_cast<size_t>(i * g.n + j)]);
      if (beta != 0.f) v += beta * cin[o];
      cout[o] = v;
    }
}

// C = alpha A B + beta C on the fp32 GEMM, B either dense fp32 (B_dense) or the fp16 rows of g.b widened as they
// are packed (B_dense null).
void run_float_product(const BlasGemmArgs& g, const float* A, const float* B_dense, float alpha, float beta, float* C) {
  if (B_dense) {
    gemm_f32(g.m, g.n, g.k, alpha, MatrixRef{A, g.k, 1}, MatrixRef{B_dense, g.n, 1}, beta, C, g.n);
    return;
  }
  const HalfRowsPanelSource b(static_cast<const uint16_t*>(g.b), g.n, false);
  gemm_f32(g.m, g.n, g.k, alpha, MatrixRef{A, g.k, 1}, b, beta, C, g.n);
}

void float_gemm(const BlasGemmArgs& g, const float* A, const float* B) {
  const float alpha = load(g.alpha, g.dtype_c, 0), beta = load(g.beta, g.dtype_c, 0);
  const size_t mn = static_cast<size_t>(g.m * g.n);
  if (g.dtype_c == ACL_FLOAT && !g.c_fractal) {  // C in place: the GEMM applies alpha and beta itself
    float* out = static_cast<float*>(g.c_out);
    if (beta != 0.f && g.c_in != g.c_out) std::memcpy(out, g.c_in, mn * sizeof(float));
    run_float_product(g, A, B, alpha, beta, out);
    return;
  }
  // fp16 or fractal C: widened into a dense fp32 C (only read when beta != 0), narrowed back row by row.
  float* c = t_c.get(mn);
  const bool row_major_half = g.dtype_c == ACL_FLOAT16 && !g.c_fractal;
  ThreadPool& pool = ThreadPool::instance();
  if (beta != 0.f)
    pool.parallel_for(static_cast<size_t>(g.m), [&](size_t ri) {
      const int64_t i = static_cast<int64_t>(ri);
      if (row_major_half) {
        half_to_float_n(static_cast<const uint16_t*>(g.c_in) + i * g.n, c + i * g.n, static_cast<size_t>(g.n));
        return;
      }
      for (int64_t j = 0; j < g.n; ++j) c[i * g.n + j] = load(g.c_in, g.dtype_c, c_offset(g, i, j));
    });
  run_float_product(g, A, B, alpha, beta, c);
  pool.parallel_for(static_cast<size_t>(g.m), [&](size_t ri) {
    const int64_t i = static_cast<int64_t>(ri);
    if (row_major_half) {
      float_to_half_n(c + i * g.n, static_cast<uint16_t*>(g.c_out) + i * g.n, static_cast<size_t>(g.n));
      return;
    }
    for (int64_t j = 0; j < g.n; ++j) {
      const float v = c[i * g.n + j];
      const int64_t o = c_offset(g, i, j);
      if (g.dtype_c == ACL_FLOAT16) static_cast<uint16_t*>(g.c_out)[o] = float_to_half(v);
      else static_cast<float*>(g.c_out)[o] = v;
    }
  });
}

// ---- registry op: the translated form of CANN's "GEMM" (op/op_translate_blas.cpp) ----
// inputs: a, b, c, alpha, beta; output: c. Attrs: m, n, k, layout_a, layout_b, c_fractal.
void run_blas_gemm(OpContext& ctx) {
  ACL_SIM_REQUIRE(ctx.inputs.size() == 5 && ctx.outputs.size() == 1, ACL_ERROR_OP_INPUT_NOT_MATCH,
                  "BlasGemm takes 5 inputs and 1 output");
  BlasGemmArgs g;
  g.m = ctx.attrs->get_int("m", 0);
  g.n = ctx.attrs->get_int("n", 0);
  g.k = ctx.attrs->get_int("k", 0);
  g.layout_a = static_cast<BlasLayout>(ctx.attrs->get_int("layout_a", 0));
  g.layout_b = static_cast<BlasLayout>(ctx.attrs->get_int("layout_b", 0));
  g.c_fractal = ctx.attrs->get_int("c_fractal", 0) != 0;
  g.dtype_ab = ctx.inputs[0].dtype;
  g.dtype_c = ctx.outputs[0].dtype;
  g.a = ctx.inputs[0].data;
  g.b = ctx.inputs[1].data;
  g.c_in = ctx.inputs[2].data;
  g.alpha = ctx.inputs[3].data;
  g.beta = ctx.inputs[4].data;
  g.c_out = ctx.outputs[0].data;
  blas_gemm(g);
}

}  // namespace

bool blas_dtypes_supported(int ab, int c) {
  return (ab == ACL_FLOAT16 && (c == ACL_FLOAT16 || c == ACL_FLOAT)) || (ab == ACL_INT8 && (c == ACL_FLOAT || c == ACL_INT32));
}

std::vector<int64_t> blas_stored_dims(BlasOperand which, BlasLayout layout, int64_t m, int64_t n, int64_t k,
                                      int dtype) {
  const int64_t rows = which == BlasOperand::kB ? k : m;
  const int64_t cols = which == BlasOperand::kA ? k : n;
  if (layout == BlasLayout::kRowMajor) return {rows, cols};
  if (layout == BlasLayout::kTransposed) return {cols, rows};
  const int64_t c0 = which == BlasOperand::kC ? kFractalRows : fractal_c0(dtype);
  if (which == BlasOperand::kB && dtype == ACL_INT8)  // FRACTAL_Z: the NZ layout of B's transpose
    return {ceil_div(rows, c0), ceil_div(cols, kFractalRows), kFractalRows, c0};
  return {ceil_div(cols, c0), ceil_div(rows, kFractalRows), kFractalRows, c0};
}

void blas_gemm(const BlasGemmArgs& g) {
  ACL_SIM_REQUIRE(blas_dtypes_supported(g.dtype_ab, g.dtype_c), ACL_ERROR_UNSUPPORTED_DATA_TYPE,
                  "GEMM: A/B dtype ", g.dtype_ab, " with C dtype ", g.dtype_c,
                  " is not supported (float16->float16, float16->float32, int8->float32, int8->int32)");
  if (g.m == 0 || g.n == 0) return;
  const bool int8 = g.dtype_ab == ACL_INT8;
  float* A = t_a.get(static_cast<size_t>(g.m * g.k));
  dense_f32(g.a, g.dtype_ab, g.layout_a, g.m, g.k, false, A);
  // A row-major fp16 B is widened by the GEMM's packing (HalfRowsPanelSource), unless the product has so few rows
  // that the GEMM streams B unpacked (gemm_small_m, which wants fp32 rows).
  const bool b_in_packing = !int8 && g.layout_b == BlasLayout::kRowMajor && g.m > 4;
  float* B = nullptr;
  if (!b_in_packing) {
    B = t_b.get(static_cast<size_t>(g.k * g.n));
    dense_f32(g.b, g.dtype_ab, g.layout_b, g.k, g.n, int8, B);
  }
  if (int8) int_epilogue(g, int_product(g, A, B));
  else float_gemm(g, A, B);
}

ACL_SIM_REGISTER_OP(BlasGemm, run_blas_gemm);

}  // namespace acl_sim
