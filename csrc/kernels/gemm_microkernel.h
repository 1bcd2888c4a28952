// Register-tiled GEMM micro-kernels (internal to the GEMM driver).
//
// A micro-kernel computes one MR x width tile of C from an A micro-panel and a
// packed B strip (kc steps of `width` floats), keeping the whole tile in
// vector registers. A is read either packed (kc steps of MR floats, what the
// driver builds for strided or scaled A) or in place from a row-major matrix
// (lda != 0): conv weights and MatMul activations then cost no packing pass,
// which is how MLAS treats A as well.
#pragma once

#include <cstdint>

namespace acl_sim {

/**
 * What a micro-kernel applies to its tile in registers as it stores it (on the last K slice): the row's bias,
 * then Relu; and whether it prefetches A (in place or packed) ahead of its k loop. A separate pass over the
 * finished tile cost 14% of the kernel's time on a 1x1 conv over 64 channels (AVX2); the GEMM driver still takes
 * that pass for the other epilogues (column bias, a residual that is not C itself, other activations).
 */
struct TileEpilogue {
  const float* row_bias = nullptr;  // one value per row of the tile (row i: row_bias[i]), or null
  bool relu = false;                // max(v, 0) after the bias, NaN -> 0 as bias_activation does
  bool prefetch_a = false;          // the first strip of an in-place A panel: A may still be in memory
  bool prefetch_packed_a = false;   // the same for a packed A panel (Winograd's U)
  // Non-null: the finished values are stored as binary16 (round to nearest even) at out_half + (c - c_origin)
  // instead of as floats at c, so an fp16 output costs no float store and no narrowing pass over it (a 1x1
  // conv over 16 channels spent 40% of its kernel time narrowing finished rows).
  uint16_t* out_half = nullptr;
  const float* c_origin = nullptr;
  // Non-null (with out_half): a binary16 residual at residual_half + (c - c_origin), added before the bias and Relu
  // (it may be out_half itself: each element is read before its own result overwrites it).
  const uint16_t* residual_half = nullptr;
};

/**
 * c[i*ldc + j] (=|+=) sum_k A(i, k) * b[k*width + j] for i < m_valid, j < n_valid,
 * with A(i, k) = a[k*MR + i] when lda == 0 (packed) or a[i*lda + k] otherwise
 * (rows past m_valid are never read then). accumulate=false overwrites C;
 * rows/columns past the valid counts are never touched. ep (may be null) is applied after the accumulation.
 */
using MicroKernelFn = void (*)(int64_t kc, const float* a, int64_t lda, const float* b, float* c, int64_t ldc,
                               int m_valid, int n_valid, bool accumulate, const TileEpilogue* ep);

/**
 * As MicroKernelFn on a full widest strip, with B read in place from a row-major matrix (row k of the strip:
 * b_src[k*ldb .. k*ldb + width)) and written to b_pack as the packed strip the next panels read: the packing
 * pass folded into the first panel's sweep, so B crosses the memory hierarchy once, not three times (read,
 * write packed, read packed).
 */
using PackingKernelFn = void (*)(int64_t kc, const float* a, int64_t lda, const float* b_src, int64_t ldb,
                                 float* b_pack, float* c, int64_t ldc, int m_valid, bool accumulate,
                                 const TileEpilogue* ep);

/** As PackingKernelFn with a binary16 source (b_src[k*ldb + j]), widened as the kernel reads it into b_pack. */
using PackingHalfKernelFn = void (*)(int64_t kc, const float* a, int64_t lda, const uint16_t* b_src, int64_t ldb,
                                     float* b_pack, float* c, int64_t ldc, int m_valid, bool accumulate,
                                     const TileEpilogue* ep);

struct MicroKernelSet {
  const char* name;
  int mr;                  // rows per micro-tile
  int lanes;               // floats per vector
  int max_nv;              // widest kernel, in vectors
  MicroKernelFn fn[4];     // fn[nv-1] handles strips of nv vectors (nv in [1, max_nv])
  int half_width;          // 0, or the width of a narrower tail kernel (AVX-512: one 8-float ymm vector)
  MicroKernelFn half;      // strips of half_width floats (ragged right edges such as 49 = 48 + 1 output pixels)
  bool direct_a;           // the kernels accept lda != 0
  MicroKernelFn column;    // null, or strips of one column (b: kc floats), as MR dot products along k: a
                           // last column alone (49 = 48 + 1 output pixels) would otherwise cost a whole vector
                           // kernel, whose MR broadcasts per k make it a third of a full strip's time
  int tall_mr;             // 0, or the rows of the tall kernels below (AVX2: 6)
  MicroKernelFn tall[2];   // tall[nv-1]: strips of nv vectors over tall_mr rows (AVX2: 12 accumulators on 16-wide
                           // strips, where fn[1] has 8)
  PackingKernelFn packing;  // null, or the widest kernel (fn[max_nv-1]) packing B as it reads it
  PackingHalfKernelFn packing_half;  // null, or the same reading an fp16 B (HalfRowsPanelSource)
};

/** The best set for this host (cpu_features().isa). */
const MicroKernelSet& micro_kernels();

}  // namespace acl_sim
