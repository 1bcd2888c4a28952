// The direct conv's strip kernel on weights packed once per loaded model, with
// the strip's last columns folded in.
//
// Output planes of 7x7 (49 positions) and 14x14 (196 = 4 x 48 + 4) leave a
// strip of 1-4 columns after the 48-column ones. Computed on its own, that
// strip is bound by its 8 weight broadcasts per k for only 8 FMAs, so a 1x1
// conv on a 7x7 plane took 1.5x as long as on a 6x8 one (single thread). With
// the weights packed as [panel][k][8] the kernel also loads a panel's 8
// weights of one k as a vector, and the extra columns cost one FMA per k and
// column (over the 8 rows) next to the strip's 24: a 49-column strip runs at
// 48/49 of a 48-column one's speed. AVX-512 only (its 8 x 48 tile); AVX2
// sends pointwise convs to the packed GEMM, and so does AVX-512 for wide-output
// ones on large planes (direct_conv_applies).
#pragma once

#include <cstdint>

namespace acl_sim {

/** Rows per weight panel of the packed layout (the micro-kernel's MR). */
constexpr int64_t kDirectPanelRows = 8;
/** Columns of the strip the packed kernels compute besides their 1-2 extra ones. */
constexpr int64_t kDirectPackedStrip = 48;
/** Extra columns a packed strip kernel can fold in. */
constexpr int64_t kDirectMaxExtra = 2;

/** True when this host's kernels have the packed strip kernels (AVX-512). */
bool direct_packed_available();

/** Floats direct_pack_weights writes for m_rows x k weights. */
int64_t direct_packed_size(int64_t m_rows, int64_t k);

/** w [m_rows, k] row-major -> panels of 8 rows, [panel][k][8] (rows past m_rows are 0). */
void direct_pack_weights(const float* w, int64_t m_rows, int64_t k, float* dst);

/**
 * c[i*ldc + j] (= or +=) sum_{k < kc} ap[k*8 + i] * b[off[k] + j] for rows i < m_valid and columns
 * j < 48 + extra (extra in [0, kDirectMaxExtra]); ap is one panel's slice [kc][8]. next (or nullptr) is the
 * slice computed after this one, prefetched meanwhile: packed weights come from DRAM once per inference, and
 * one contiguous stream per panel is too short for the hardware prefetcher to run ahead of (a 1x1 2048->512
 * conv at 7x7 took 1.2x the in-place weights' time in a model without it).
 */
struct DirectStripEpilogue;
using DirectPackedStripFn = void (*)(int64_t kc, const float* ap, const float* next, const float* b,
                                     const int64_t* off, float* c, int64_t ldc, int m_valid, bool accumulate,
                                     const DirectStripEpilogue* ep);

/** The same over a binary16 b read in place, each value widened as it is loaded. */
using DirectPackedStripHalfBFn = void (*)(int64_t kc, const float* ap, const float* next, const uint16_t* b,
                                          const int64_t* off, float* c, int64_t ldc, int m_valid, bool accumulate,
                                          const DirectStripEpilogue* ep);

/**
 * The conv's epilogue done in registers at the strip's last K slice, before the store (ep non-null):
 * c = max(acc + bias[i] + residual[i*ldr + j], 0 if relu). Saves the pass that re-reads the finished
 * output tile; bias / residual are nullptr when absent.
 */
struct DirectStripEpilogue {
  const float* bias = nullptr;      // the panel's rows
  const float* residual = nullptr;  // at the strip's first column, rows ldr apart
  int64_t ldr = 0;
  bool relu = false;
  // Non-null: the finished values are stored as binary16 (round to nearest even) at half + i*ldc + j instead of
  // as floats at c (an fp16 output: its fp32 staging is then never written on the last K slice).
  uint16_t* half = nullptr;
};
DirectPackedStripFn direct_packed_strip_kernel(int64_t extra);
/** Its binary16-b twin (where direct_packed_available()). */
DirectPackedStripHalfBFn direct_packed_strip_kernel_half_b(int64_t extra);

}  // namespace acl_sim
