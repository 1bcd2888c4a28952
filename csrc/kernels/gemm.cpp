// GEMM driver: blocking, packing and threading around the micro-kernels.
//
// The output is cut into tiles (gemm_blocking.h); each tile is one thread-pool
// index. A tile walks K in kc slices and, per MR-row micro-panel of A (read in
// place, or packed just in time into an L1-sized buffer), sweeps the slice's packed
// B strips with the micro-kernel. Each tile packs its own kc x block slice of B
// into a buffer of the running thread, so no thread waits for another and no
// packed line crosses cores (from a row-major B, the slice's first A panel packs
// the full strips in its kernels as it reads them). Tiles that share an N block (M splits) pack the same
// slice again; the tile split (gemm_blocking.h) charges that, so it splits N where
// it can. (Stops 8-22 shared one packed slice between the tiles of an N block;
// on an Intel Xeon with AVX-512 the other core's packed lines cost more than
// packing them again: 64x576x3136 took 1.25 ms shared, 0.79 ms private.)
// A loaded model's constant B is packed once instead (pack_b_panels, whole-K
// strips): its tiles then pack nothing and read their strips in place.
// The epilogue runs per micro-panel right after its last K slice, while
// those C rows are still in cache.
#include "kernels/gemm.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "common/fp16.h"
#include "executor/thread_pool.h"
#include "kernels/gemm_blocking.h"
#include "kernels/gemm_microkernel.h"
#include "kernels/gemm_pack.h"
#include "kernels/gemm_small_m.h"
#include "kernels/thread_scratch.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace acl_sim {
namespace {

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }
int64_t round_up(int64_t a, int64_t b) { return ceil_div(a, b) * b; }

// The running thread's A micro-panel and B slice, and a widened row of an fp16 residual.
thread_local Scratch<float> t_pack_a, t_pack_b, t_residual_row;

/** ACL_SIM_GEMM_PACK_A=1 packs A even where the kernels could read it in place (for benchmarking both). */
bool direct_a_disabled() {
  static const bool off = [] {
    const char* v = std::getenv("ACL_SIM_GEMM_PACK_A");
    return v && std::atoi(v) == 1;
  }();
  return off;
}

struct GemmJob {
  int64_t M, N, K;
  float alpha, beta;
  const MatrixRef* A;
  const BPanelSource* B;
  float* C;
  int64_t ldc;
  const GemmEpilogue* ep;
  const MicroKernelSet* mk;
  GemmBlocking blk;
  bool direct_a;  // the micro-kernels read A in place (row-major, alpha 1): no packing pass
  const float* a_packed = nullptr;  // or A comes packed once (pack_a_panels)
  int64_t slice_floats = 0;  // kc x the widest block's packed width
  int64_t shared_tail = 0;   // the product's last few columns, which every N block runs for a share of its rows
  const float* b_rows = nullptr;  // B as a row-major matrix, row pitch ldb: its full strips are packed by the
  int64_t ldb = 0;                // first panel's kernels as they read them (MicroKernelSet::packing)
  const uint16_t* b_half_rows = nullptr;  // or B as a row-major binary16 matrix (MicroKernelSet::packing_half)
  const float* b_packed = nullptr;  // or B packed once (pack_b_panels): no tile packs anything
};

/**
 * Width of the strip starting at column offset j of an nc-wide tile: the widest kernel, narrowed at the
 * edge (to the half-width tail kernel when that covers the rest, so 56 columns cost 48 + 8, not 64; a single
 * last column to the column kernel, so 49 cost 48 + 1).
 */
int64_t strip_width(int64_t remaining, const MicroKernelSet& mk) {
  const int64_t widest = mk.max_nv * mk.lanes;
  if (remaining >= widest) return widest;
  if (mk.column && remaining == 1) return 1;
  if (mk.half_width && remaining <= mk.half_width) return mk.half_width;
  return round_up(remaining, mk.lanes);
}

MicroKernelFn kernel_for(int64_t width, const MicroKernelSet& mk) {
  if (width == 1 && mk.column) return mk.column;
  return width == mk.half_width ? mk.half : mk.fn[width / mk.lanes - 1];
}

// A block's last 2-4 columns run as that many one-column strips (the column kernel, A read in place) instead
// of an 8- or 16-wide strip with mostly zero columns: a 256x1024x196 GEMM (N = 196 = 4 x 48 + 4 per block)
// spent 6% of its samples in the 8-wide tail kernel, a third of a full strip's time for 4 columns (AVX-512,
// perf); 2-4 columns cost less as dot products along k, 8 already did not (N = 56, 200: 1.05-1.1x).
constexpr int64_t kColumnTail = 4;

/** Where one K slice of one tile's N block lives and how it is cut into strips. */
struct SliceGeom {
  int64_t n0, nc, k0, kc;
  int64_t nstrips, last_width;  // whole widest strips, the last one narrowed to last_width
  int64_t columns;              // then this many one-column strips (packed after the others)
  int64_t col_n0;               // the first of them in C
  int64_t col_m0, col_m1;       // for the rows of these panels only
  bool columns_shared;          // they are the product's shared tail, outside [n0, n0 + nc)
  int64_t packed_by_kernel;     // the first this many strips are packed by the first panel's kernels
  // The slice's packed B: strip s (width w) at strips + s * strip_pitch + b_row * w, one-column strip t at
  // cols + t * col_pitch + b_row. Packed per tile, b_row is 0; packed once (whole-K strips), it is k0.
  const float* strips = nullptr;
  const float* cols = nullptr;
  int64_t strip_pitch = 0, col_pitch = 0, b_row = 0;
};

/**
 * The last N % widest columns of a B packed once: 2..kColumnTail of them as one-column strips (when the set has
 * the column kernel, as run_tile's own columns), else one strip of strip_width.
 */
struct PackedBTail {
  int64_t cols = 0;
  bool as_columns = false;
  int64_t floats_per_k = 0;  // what the tail takes per row of K
};

PackedBTail packed_b_tail(int64_t N, const MicroKernelSet& mk) {
  PackedBTail t;
  t.cols = N % (static_cast<int64_t>(mk.max_nv) * mk.lanes);
  t.as_columns = mk.column && t.cols >= 2 && t.cols <= kColumnTail;
  t.floats_per_k = t.cols == 0 ? 0 : t.as_columns ? t.cols : strip_width(t.cols, mk);
  return t;
}

void apply_epilogue(const GemmJob& job, int64_t m0, int64_t rows, int64_t n0, int64_t nc) {
  const GemmEpilogue& ep = *job.ep;
  float* res_row = ep.residual_half ? t_residual_row.get(static_cast<size_t>(nc)) : nullptr;
  for (int64_t i = m0; i < m0 + rows; ++i) {
    float* row = job.C + i * job.ldc + n0;
    const float* res = ep.residual ? ep.residual + i * job.ldc + n0 : nullptr;
    if (res_row) {
      const uint16_t* h = ep.residual_half + i * job.ldc + n0;
      half_or_bf16_to_float_n(ep.half_is_bf16, h, res_row, static_cast<size_t>(nc));
      res = res_row;
    }
    const float rb = ep.row_bias ? ep.row_bias[i] : 0.f;
    if (ep.col_bias) {
      if (res)
        for (int64_t j = 0; j < nc; ++j) row[j] += res[j];
      if (rb != 0.f)
        for (int64_t j = 0; j < nc; ++j) row[j] += rb;
      bias_row_activation(row, static_cast<size_t>(nc), ep.col_bias + n0, ep.act);
    } else {
      residual_bias_activation(row, res, static_cast<size_t>(nc), rb, ep.act);  // one vectorised pass
    }
  }
}

/** C's finished rows [m0, m0 + rows) x [n0, n0 + nc) narrowed into the epilogue's out_half, while in cache. */
void narrow_rows(const GemmJob& job, int64_t m0, int64_t rows, int64_t n0, int64_t nc) {
  const GemmEpilogue& ep = *job.ep;
  for (int64_t i = m0; i < m0 + rows; ++i)
    float_to_half_or_bf16_n(ep.half_is_bf16, job.C + i * job.ldc + n0, ep.out_half + i * job.ldc + n0,
                            static_cast<size_t>(nc));
}

/**
 * The first kNextPanelLines lines of the next A panel's rows (A read in place), asked for as this panel starts:
 * the kernels' own prefetch (TileEpilogue::prefetch_a) runs 64 floats ahead of k, so a panel's first lines were
 * demand misses, from DRAM for a model's weights. Stop 31 (AMD EPYC Zen 3, AVX2, 2 threads, light_resnet50,
 * in-model A/B, 30 pairs, both orders): its 1x1 convs 0.96-0.99x the time with 4 or 8 lines, 8 ahead of 4 by
 * 0.985x, 32 lines 1.015x of 8; the model 0.98-0.99x.
 */
constexpr int64_t kNextPanelLines = 8;

void prefetch_next_panel(const MatrixRef& A, int64_t row0, int64_t rows, int64_t k0, int64_t kc) {
  const int64_t floats = std::min(kNextPanelLines * 16, kc);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t l = 0; l < floats; l += 16) __builtin_prefetch(A.data + (row0 + r) * A.rs + k0 + l, 0, 3);
}

/** One K slice of a tile: every MR-row panel of A against every strip of the packed slice, then the
 * epilogue on the last slice. */
void sweep_slice(const GemmJob& job, const SliceGeom& sg, int64_t m0, int64_t mc, float* a_pack, bool last_slice) {
  const MicroKernelSet& mk = *job.mk;
  const int64_t widest = job.blk.widest, kc = sg.kc, k0 = sg.k0;
  const bool accumulate = k0 > 0 || job.beta != 0.f;
  const GemmEpilogue& gep = *job.ep;
  // Row bias and Relu go into the kernel's stores; anything else takes the pass over the finished rows.
  // A binary16 residual too when the output is binary16 (TileEpilogue::residual_half).
  const bool fp16_out = gep.out_half && !gep.half_is_bf16;
  const bool in_kernel = last_slice && has_epilogue(gep) && !gep.col_bias && !gep.residual &&
                         (!gep.residual_half || fp16_out) && (gep.act.none() || gep.act.plain_relu());
  const bool epilogue = !in_kernel && has_epilogue(gep);
  // An fp16 output with no epilogue pass left: the kernels store binary16 themselves (TileEpilogue::out_half);
  // bf16, and values the pass still has to see, take narrow_rows after it.
  const bool half_in_kernel = last_slice && fp16_out && !epilogue;
  TileEpilogue te;
  te.relu = in_kernel && !gep.act.none();
  if (half_in_kernel) {
    te.out_half = gep.out_half;
    te.residual_half = gep.residual_half;
    te.c_origin = job.C;
  }
  const bool strip_ep = in_kernel || half_in_kernel;
  for (int64_t i = 0; i < mc; i += mk.mr) {
    const int m_valid = static_cast<int>(std::min<int64_t>(mk.mr, mc - i));
    const float* a_panel;
    int64_t lda = 0;
    if (job.a_packed) {
      a_panel = job.a_packed + (m0 + i) * job.K + k0 * mk.mr;  // panel (m0 + i) / mr, step k0
    } else if (job.direct_a) {
      a_panel = job.A->data + (m0 + i) * job.A->rs + k0;
      lda = job.A->rs;
    } else {
      // Each A micro-panel is used once per K slice, so it is packed just in
      // time into an L1-sized buffer instead of packing the whole A block
      // (which would evict the B slice from L2).
      pack_a(*job.A, job.alpha, m0 + i, m_valid, k0, kc, mk.mr, a_pack);
      a_panel = a_pack;
    }
    te.row_bias = in_kernel && gep.row_bias ? gep.row_bias + m0 + i : nullptr;
    if (job.direct_a && i + mk.mr < mc)
      prefetch_next_panel(*job.A, m0 + i + mk.mr, std::min<int64_t>(mk.mr, mc - i - mk.mr), k0, kc);
    float* c_row = job.C + (m0 + i) * job.ldc + sg.n0;
    for (int64_t s = 0; s < sg.nstrips; ++s) {
      const int64_t width = s + 1 < sg.nstrips ? widest : sg.last_width;
      const float* b = sg.strips + s * sg.strip_pitch + sg.b_row * width;
      const int n_valid = static_cast<int>(std::min(widest, sg.nc - s * widest));
      te.prefetch_a = s == 0;
      if (i == 0 && s < sg.packed_by_kernel && job.b_half_rows)
        mk.packing_half(kc, a_panel, lda, job.b_half_rows + k0 * job.ldb + sg.n0 + s * widest, job.ldb,
                        const_cast<float*>(b), c_row + s * widest, job.ldc, m_valid, accumulate,
                        strip_ep || s == 0 ? &te : nullptr);
      else if (i == 0 && s < sg.packed_by_kernel)
        mk.packing(kc, a_panel, lda, job.b_rows + k0 * job.ldb + sg.n0 + s * widest, job.ldb, const_cast<float*>(b),
                   c_row + s * widest, job.ldc, m_valid, accumulate, strip_ep || s == 0 ? &te : nullptr);
      else
        kernel_for(width, mk)(kc, a_panel, lda, b, c_row + s * widest, job.ldc, m_valid, n_valid, accumulate,
                              strip_ep || s == 0 ? &te : nullptr);
    }
    te.prefetch_a = false;
    const bool runs_columns = m0 + i >= sg.col_m0 && m0 + i < sg.col_m1;  // this panel's rows have them
    for (int64_t t = 0; runs_columns && t < sg.columns; ++t)
      mk.column(kc, a_panel, lda, sg.cols + t * sg.col_pitch + sg.b_row, job.C + (m0 + i) * job.ldc + sg.col_n0 + t,
                job.ldc, m_valid, 1, accumulate, strip_ep ? &te : nullptr);
    if (last_slice && epilogue) {
      apply_epilogue(job, m0 + i, m_valid, sg.n0, sg.nc);
      if (sg.columns_shared && runs_columns) apply_epilogue(job, m0 + i, m_valid, sg.col_n0, sg.columns);
    }
    if (last_slice && gep.out_half && !half_in_kernel) {
      narrow_rows(job, m0 + i, m_valid, sg.n0, sg.nc);
      if (sg.columns_shared && runs_columns) narrow_rows(job, m0 + i, m_valid, sg.col_n0, sg.columns);
    }
  }
}

void run_tile(GemmJob& job, size_t index) {
  const MicroKernelSet& mk = *job.mk;
  const GemmBlocking& blk = job.blk;
  const int64_t nb = static_cast<int64_t>(index) / blk.m_blocks;
  const int64_t mb = static_cast<int64_t>(index) % blk.m_blocks;
  const int64_t m0 = blk.m_begin(mb), mc = blk.m_begin(mb + 1) - m0;
  const int64_t n0 = blk.n_begin(nb);
  const int64_t nc = blk.n_begin(nb + 1) - n0 - (nb + 1 == blk.n_blocks ? job.shared_tail : 0);
  if (mc <= 0 || nc <= 0) return;
  float* C = job.C;
  const int64_t ldc = job.ldc;
  const bool epilogue = has_epilogue(*job.ep);

  if (job.beta != 0.f && job.beta != 1.f) {
    for (int64_t i = 0; i < mc; ++i) {
      float* row = C + (m0 + i) * ldc + n0;
      for (int64_t j = 0; j < nc; ++j) row[j] *= job.beta;
    }
  }
  if (job.K == 0) {
    if (job.beta == 0.f)
      for (int64_t i = 0; i < mc; ++i) std::memset(C + (m0 + i) * ldc + n0, 0, nc * sizeof(float));
    if (epilogue) apply_epilogue(job, m0, mc, n0, nc);
    if (job.ep->out_half) narrow_rows(job, m0, mc, n0, nc);
    return;
  }

  // The block's strips: whole widest ones, then the edge (narrower kernel, or one-column strips).
  const int64_t widest = blk.widest;
  const int64_t rem = nc % widest;
  const PackedBTail packed_tail = job.b_packed ? packed_b_tail(job.N, mk) : PackedBTail{};
  const int64_t own_columns = job.b_packed ? (n0 + nc == job.N && packed_tail.as_columns ? packed_tail.cols : 0)
                              : job.direct_a && mk.column && rem >= 2 && rem <= kColumnTail ? rem : 0;
  const int64_t main_nc = nc - own_columns;
  const int64_t main_rem = main_nc % widest;
  SliceGeom sg{n0, nc, 0, 0, ceil_div(main_nc, widest), main_rem ? strip_width(main_rem, mk) : widest, own_columns,
               n0 + main_nc, m0, m0 + mc, false, 0};
  // With B in place, every full-width strip is packed by the first panel's kernel; the rest here.
  if (job.b_rows || job.b_half_rows) sg.packed_by_kernel = main_nc / widest;
  const int64_t packed_here = sg.packed_by_kernel * widest;
  if (job.shared_tail) {  // this tile's share of the tail: rows split by N block, on the MR grid
    sg.columns = job.shared_tail;
    sg.columns_shared = true;
    sg.col_n0 = job.N - job.shared_tail;
    sg.col_m0 = m0 + GemmBlocking::grid_begin(nb, blk.n_blocks, mc, mk.mr);
    sg.col_m1 = m0 + GemmBlocking::grid_begin(nb + 1, blk.n_blocks, mc, mk.mr);
    if (sg.col_m1 <= sg.col_m0) sg.columns = 0;
  }
  float* a_pack = job.direct_a || job.a_packed ? nullptr : t_pack_a.get(static_cast<size_t>(mk.mr * blk.kc));
  if (job.b_packed) {  // whole-K strips: the block's first at its column, the tail's columns after every strip
    sg.strips = job.b_packed + n0 * job.K;
    sg.strip_pitch = widest * job.K;
    sg.cols = job.b_packed + (job.N - packed_tail.cols) * job.K;
    sg.col_pitch = job.K;
    for (int64_t ks = 0; ks < blk.k_slices; ++ks) {
      sg.k0 = sg.b_row = ks * blk.kc;
      sg.kc = std::min(blk.kc, job.K - sg.k0);
      sweep_slice(job, sg, m0, mc, a_pack, ks + 1 == blk.k_slices);
    }
    return;
  }
  float* slice = t_pack_b.get(static_cast<size_t>(job.slice_floats));
  sg.strips = slice;
  for (int64_t ks = 0; ks < blk.k_slices; ++ks) {
    sg.k0 = ks * blk.kc;
    sg.kc = std::min(blk.kc, job.K - sg.k0);
    sg.strip_pitch = widest * sg.kc;
    sg.cols = slice + main_nc * sg.kc;
    sg.col_pitch = sg.kc;
    if (main_nc > packed_here)
      job.B->pack_strips(sg.k0, sg.kc, n0 + packed_here, main_nc - packed_here, widest, sg.last_width,
                         slice + packed_here * sg.kc);
    if (sg.columns > 0) job.B->pack_strips(sg.k0, sg.kc, sg.col_n0, sg.columns, 1, 1, slice + main_nc * sg.kc);
    sweep_slice(job, sg, m0, mc, a_pack, ks + 1 == blk.k_slices);
  }
}

void run_gemm(int64_t M, int64_t N, int64_t K, float alpha, const MatrixRef& A, const float* a_packed,
              const BPanelSource& B, const float* b_packed, float beta, float* C, int64_t ldc,
              const GemmEpilogue& ep, bool parallel) {
  if (M <= 0 || N <= 0) return;
  const MicroKernelSet& mk = micro_kernels();
  const int64_t threads = parallel ? static_cast<int64_t>(ThreadPool::instance().concurrency()) : 1;
  GemmJob job;
  job.M = M;
  job.N = N;
  job.K = K;
  job.alpha = alpha;
  job.beta = beta;
  job.A = &A;
  job.B = &B;
  job.C = C;
  job.ldc = ldc;
  job.ep = &ep;
  job.mk = &mk;
  // A packed-once B keeps the split of B packed per tile: charging its tiles less per column (pack cost 0.25)
  // made no difference to the 1024^3 MatMul and cost the transformer 3% (stop 37, in-model A/B, 60 pairs).
  job.blk = choose_gemm_blocking(M, N, K, mk, threads, B.pack_cost());
  job.a_packed = a_packed;
  job.direct_a = !a_packed && mk.direct_a && A.cs == 1 && A.rs >= K && alpha == 1.f && !direct_a_disabled();
  job.b_packed = b_packed;
  const GemmBlocking& blk = job.blk;

  // A ragged right edge of a few columns (49 = 2 x 24 + 1 on AVX2) would make the last N block the slowest
  // by their one-column kernels: every block runs them for a share of its rows instead, right after the
  // same A panel's strips. Stop 26, AVX2 (Intel Xeon, 2 threads, in-model A/B, 60 pairs): the one-node 3x3
  // 512->512 conv at 7x7 0.97-0.99x the time; light_resnet50 and densenet121 unchanged (0.999-1.004).
  const int64_t tail = N % blk.widest;
  const int64_t last_block = N - blk.n_begin(blk.n_blocks - 1);
  if (!b_packed && job.direct_a && mk.column && blk.n_blocks > 1 && K > 0 && (beta == 0.f || beta == 1.f) && tail >= 1 &&
      tail <= kColumnTail && last_block > tail)
    job.shared_tail = tail;
  // A row-major B is packed by the first panel's kernels as they read it (MicroKernelSet::packing) instead of a
  // pass of its own before them. Stop 26 (Intel Xeon, 2 threads): AVX-512 64x256x3136 0.90x the time,
  // 128x512x784 0.95x, 1024^3 0.99-1.01x; in-model A/B (20-30 pairs) resnet50 0.993 (its 1x1 convs to 64 and
  // 128 channels at 56x56 and 28x28 0.91-0.95x), densenet121 0.988, PP-OCR rec 0.990, det 1.004; AVX2 0.97-0.99x
  // on those GEMMs, the models 0.993-1.006.
  if (mk.packing && !b_packed) job.b_rows = B.rows(&job.ldb);
  // An fp16 B the same way, widened by the kernels as they read it (HalfRowsPanelSource: an fp16 model's pointwise
  // convs, aclblas's hgemm), instead of a packing pass that widens it before them.
  if (mk.packing_half && !b_packed && !job.b_rows) job.b_half_rows = B.half_rows(&job.ldb);
  job.slice_floats = round_up(blk.kc * (ceil_div(blk.max_block_cols(), blk.widest) * blk.widest + job.shared_tail), 16);
  const size_t tiles = static_cast<size_t>(blk.n_blocks * blk.m_blocks);
  if (tiles == 1 || threads == 1) {
    for (size_t i = 0; i < tiles; ++i) run_tile(job, i);
  } else {
    ThreadPool::instance().parallel_for(tiles, [&job](size_t i) { run_tile(job, i); });
  }
}

}  // namespace

void gemm_f32(int64_t M, int64_t N, int64_t K, float alpha, const MatrixRef& A, const BPanelSource& B, float beta,
              float* C, int64_t ldc, const GemmEpilogue& ep, bool parallel) {
  run_gemm(M, N, K, alpha, A, nullptr, B, nullptr, beta, C, ldc, ep, parallel);
}

void gemm_f32_packed_a(int64_t M, int64_t N, int64_t K, const float* a_packed, const BPanelSource& B, float beta,
                       float* C, int64_t ldc, const GemmEpilogue& ep, bool parallel) {
  run_gemm(M, N, K, 1.f, MatrixRef{}, a_packed, B, nullptr, beta, C, ldc, ep, parallel);
}

int64_t packed_a_floats(int64_t M, int64_t K) { return round_up(M, micro_kernels().mr) * K; }

void pack_a_panels(const MatrixRef& A, int64_t M, int64_t K, float* dst) {
  pack_a(A, 1.f, 0, M, 0, K, micro_kernels().mr, dst);
}

void gemm_f32(int64_t M, int64_t N, int64_t K, float alpha, const MatrixRef& A, const MatrixRef& B, float beta,
              float* C, int64_t ldc, const GemmEpilogue& ep, bool parallel) {
  gemm_f32_packed_b(M, N, K, alpha, A, B, nullptr, beta, C, ldc, ep, parallel);
}

bool gemm_uses_packed_b(int64_t M, int64_t K, const MatrixRef& A, const MatrixRef& B) {
  return M > 0 && K > 0 && !gemm_small_m_applies(M, K, A, B);
}

int64_t packed_b_floats(int64_t N, int64_t K) {
  const PackedBTail t = packed_b_tail(N, micro_kernels());
  return (N - t.cols + t.floats_per_k) * K;
}

void pack_b_panels(const MatrixRef& B, int64_t N, int64_t K, float* dst) {
  const MicroKernelSet& mk = micro_kernels();
  const int64_t widest = static_cast<int64_t>(mk.max_nv) * mk.lanes;
  const PackedBTail t = packed_b_tail(N, mk);
  const int64_t full = N - t.cols;
  const MatrixPanelSource source(B);
  if (full > 0) source.pack_strips(0, K, 0, full, widest, widest, dst);
  if (t.cols > 0) {
    const int64_t width = t.as_columns ? 1 : t.floats_per_k;
    source.pack_strips(0, K, full, t.cols, width, width, dst + full * K);
  }
}

void gemm_f32_packed_b(int64_t M, int64_t N, int64_t K, float alpha, const MatrixRef& A, const MatrixRef& B,
                       const float* b_packed, float beta, float* C, int64_t ldc, const GemmEpilogue& ep,
                       bool parallel) {
  if (M <= 0 || N <= 0) return;
  const bool half_io = ep.out_half || ep.residual_half;  // only the tiled path narrows and reads fp16
  if (!half_io && gemm_small_m(M, N, K, alpha, A, B, beta, C, ldc, ep, parallel)) return;
  MatrixPanelSource source(B);
  run_gemm(M, N, K, alpha, A, nullptr, source, K > 0 ? b_packed : nullptr, beta, C, ldc, ep, parallel);
}

const char* gemm_kernel_name() { return micro_kernels().name; }

}  // namespace acl_sim
