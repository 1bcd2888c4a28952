// GEMM driver: blocking, packing and threading around the micro-kernels.
//
// The output is cut into tiles (gemm_blocking.h); each tile is one thread-pool
// index. A tile walks K in kc slices and, per MR-row micro-panel of A (read in
// place, or packed just in time into an L1-sized buffer), sweeps the slice's packed
// B strips with the micro-kernel. Every kc x block slice of B ("slot") is packed
// once per call into a buffer the tiles share: the tiles of one N block (which
// run side by side on the pool) claim pieces of the slot and pack them together,
// and wait only for the pieces they use next, a few microseconds at most: a piece
// whose packer is descheduled (busy host) is packed again privately instead. So
// there is no barrier, and a thread that is not running holds nobody up. The epilogue runs per micro-panel right after its last K slice, while
// those C rows are still in cache.
#include "kernels/gemm.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <chrono>

#include "executor/thread_pool.h"
#include "kernels/gemm_blocking.h"
#include "kernels/gemm_microkernel.h"
#include "kernels/gemm_pack.h"
#include "kernels/gemm_small_m.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace acl_sim {
namespace {

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }
int64_t round_up(int64_t a, int64_t b) { return ceil_div(a, b) * b; }

/** A grow-only 64-byte-aligned scratch buffer per thread and purpose. */
struct Scratch {
  float* data = nullptr;
  size_t capacity = 0;
  ~Scratch() { std::free(data); }
  float* get(size_t n) {
    if (n > capacity) {
      std::free(data);
      data = nullptr;
      capacity = std::max(n, capacity * 2);
      data = static_cast<float*>(std::aligned_alloc(64, round_up(static_cast<int64_t>(capacity * sizeof(float)), 64)));
      if (!data) {
        capacity = 0;
        throw std::bad_alloc();
      }
    }
    return data;
  }
};
// t_pack_a: the running thread's A micro-panel; t_pack_b: its B slot when the slot is its alone;
// t_slots_b: the calling thread's shared B slots.
thread_local Scratch t_pack_a, t_pack_b, t_slots_b;

/** ACL_SIM_GEMM_PACK_A=1 packs A even where the kernels could read it in place (for benchmarking both). */
bool direct_a_disabled() {
  static const bool off = [] {
    const char* v = std::getenv("ACL_SIM_GEMM_PACK_A");
    return v && std::atoi(v) == 1;
  }();
  return off;
}

// Packed B per parallel region at most (the N blocks beyond it run in further regions).
constexpr int64_t kSlotBudgetFloats = int64_t{2} << 20;  // 8 MB
constexpr int kMaxPieces = 64;

/** Who packs which piece of a slot, and which pieces are ready. */
struct SlotState {
  std::atomic<int32_t> next{0};
  std::atomic<uint8_t> done[kMaxPieces];
};

/** A grow-only array of slot states per calling thread. */
struct SlotStates {
  std::unique_ptr<SlotState[]> data;
  size_t capacity = 0;
  SlotState* get(size_t n, int pieces) {
    if (n > capacity) {
      data.reset(new SlotState[n]);
      capacity = n;
    }
    for (size_t i = 0; i < n; ++i) {
      data[i].next.store(0, std::memory_order_relaxed);
      for (int p = 0; p < pieces; ++p) data[i].done[p].store(0, std::memory_order_relaxed);
    }
    return data.get();
  }
};
thread_local SlotStates t_slot_states;

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
  // This parallel region: N blocks [nb0, nb0 + nbs). With one M block, each slot is used by one
  // tile only and lives in the running thread's t_pack_b (L2-resident, reused); otherwise the
  // region's slots (k-slice-minor) and their states are shared.
  int64_t nb0 = 0, nbs = 0;
  bool shared = false;
  float* slots = nullptr;
  int64_t slot_floats = 0;  // kc x the widest block's packed width
  SlotState* states = nullptr;
  int64_t piece_strips = 1;  // strips per piece of a slot
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

/**
 * Spins until another tile has packed a piece of a shared slot, for at most ~20 us (a piece takes a
 * few us). False when it is still not done: its packer is descheduled (a busy host) or failed, and
 * the caller packs a private copy rather than wait for a thread that is not running.
 */
bool piece_ready(const std::atomic<uint8_t>& done) {
  // ACL_SIM_GEMM_PIECE_WAIT_US overrides the bound (0: never wait; tests take the private path so).
  static const int64_t wait_us = [] {
    const char* v = std::getenv("ACL_SIM_GEMM_PIECE_WAIT_US");
    return v && *v ? std::atoll(v) : int64_t{20};
  }();
  if (done.load(std::memory_order_acquire)) return true;
  if (wait_us <= 0) return false;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::microseconds(wait_us);
  for (;;) {
    for (int spin = 0; spin < 64; ++spin) {
      if (done.load(std::memory_order_acquire)) return true;
#if defined(__x86_64__)
      _mm_pause();
#endif
    }
    if (std::chrono::steady_clock::now() > deadline) return false;
  }
}

/** Where one K slice of one tile's N block lives and how it is cut into strips and pieces. */
struct SliceGeom {
  int64_t n0, nc, k0, kc;
  int64_t nstrips, last_width;  // whole widest strips, the last one narrowed to last_width
  int64_t g;                    // strips per piece
};

/** Pack piece p (strips [p*g, p*g + g)) of a slice into base, at its place in the slot layout. */
void pack_piece(const GemmJob& job, const SliceGeom& sg, int64_t p, float* base) {
  const int64_t w = job.blk.widest, s0 = p * sg.g;
  job.B->pack_strips(sg.k0, sg.kc, sg.n0 + s0 * w, std::min(sg.g * w, sg.nc - s0 * w), w,
                     s0 + sg.g >= sg.nstrips ? sg.last_width : w, base + s0 * w * sg.kc);
}

void apply_epilogue(const GemmJob& job, int64_t m0, int64_t rows, int64_t n0, int64_t nc) {
  const GemmEpilogue& ep = *job.ep;
  for (int64_t i = m0; i < m0 + rows; ++i) {
    float* row = job.C + i * job.ldc + n0;
    const float* res = ep.residual ? ep.residual + i * job.ldc + n0 : nullptr;
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

bool has_epilogue(const GemmEpilogue& ep) { return ep.row_bias || ep.col_bias || ep.residual || !ep.act.none(); }

/**
 * One K slice of a tile: every MR-row panel of A against every strip of the packed slot, then the
 * epilogue on the last slice. With a shared slot (st), the first panel checks each piece before
 * its first use; a piece still not ready is packed into `own` (this thread's buffer, same layout)
 * and read from there.
 */
void sweep_slice(const GemmJob& job, const SliceGeom& sg, int64_t m0, int64_t mc, const float* slot,
                 const SlotState* st, float* own, float* a_pack, bool last_slice) {
  const MicroKernelSet& mk = *job.mk;
  const int64_t widest = job.blk.widest, kc = sg.kc, k0 = sg.k0;
  const bool accumulate = k0 > 0 || job.beta != 0.f;
  const GemmEpilogue& gep = *job.ep;
  // Row bias and Relu go into the kernel's stores; anything else takes the pass over the finished rows.
  const bool in_kernel = last_slice && has_epilogue(gep) && !gep.col_bias && !gep.residual &&
                         (gep.act.none() || gep.act.plain_relu());
  const bool epilogue = !in_kernel && has_epilogue(gep);
  TileEpilogue te;
  te.relu = in_kernel && !gep.act.none();
  uint64_t private_pieces = 0;
  for (int64_t i = 0; i < mc; i += mk.mr) {
    const int m_valid = static_cast<int>(std::min<int64_t>(mk.mr, mc - i));
    const float* a_panel;
    int64_t lda = 0;
    if (job.direct_a) {
      a_panel = job.A->data + (m0 + i) * job.A->rs + k0;
      lda = job.A->rs;
    } else {
      // Each A micro-panel is used once per K slice, so it is packed just in
      // time into an L1-sized buffer instead of packing the whole A block
      // (which would evict the B slot from L2).
      pack_a(*job.A, job.alpha, m0 + i, m_valid, k0, kc, mk.mr, a_pack);
      a_panel = a_pack;
    }
    te.row_bias = in_kernel && gep.row_bias ? gep.row_bias + m0 + i : nullptr;
    float* c_row = job.C + (m0 + i) * job.ldc + sg.n0;
    for (int64_t s = 0; s < sg.nstrips; ++s) {
      const int64_t p = s / sg.g;
      if (st && i == 0 && s % sg.g == 0 && !piece_ready(st->done[p])) {
        pack_piece(job, sg, p, own);
        private_pieces |= uint64_t{1} << p;
      }
      const float* b = ((private_pieces >> p) & 1 ? own : slot) + s * widest * kc;
      const int64_t width = s + 1 < sg.nstrips ? widest : sg.last_width;
      const int n_valid = static_cast<int>(std::min(widest, sg.nc - s * widest));
      kernel_for(width, mk)(kc, a_panel, lda, b, c_row + s * widest, job.ldc, m_valid, n_valid, accumulate,
                            in_kernel ? &te : nullptr);
    }
    if (last_slice && epilogue) apply_epilogue(job, m0 + i, m_valid, sg.n0, sg.nc);
  }
}

void run_tile(GemmJob& job, size_t index) {
  const MicroKernelSet& mk = *job.mk;
  const GemmBlocking& blk = job.blk;
  const int64_t nb_local = static_cast<int64_t>(index) / blk.m_blocks;
  const int64_t mb = static_cast<int64_t>(index) % blk.m_blocks;
  const int64_t m0 = blk.m_begin(mb), mc = blk.m_begin(mb + 1) - m0;
  const int64_t n0 = blk.n_begin(job.nb0 + nb_local), nc = blk.n_begin(job.nb0 + nb_local + 1) - n0;
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
    return;
  }

  // The block's strips: whole widest ones, then the edge (narrower kernel); grouped into pieces.
  const int64_t widest = blk.widest;
  const int64_t nstrips = ceil_div(nc, widest), rem = nc % widest;
  SliceGeom sg{n0, nc, 0, 0, nstrips, rem ? strip_width(rem, mk) : widest, job.piece_strips};
  const int32_t npieces = static_cast<int32_t>(ceil_div(nstrips, sg.g));
  float* a_pack = job.direct_a ? nullptr : t_pack_a.get(static_cast<size_t>(mk.mr * blk.kc));
  float* own = t_pack_b.get(static_cast<size_t>(job.slot_floats));

  for (int64_t ks = 0; ks < blk.k_slices; ++ks) {
    sg.k0 = ks * blk.kc;
    sg.kc = std::min(blk.kc, job.K - sg.k0);
    const bool last_slice = ks + 1 == blk.k_slices;
    if (!job.shared) {
      job.B->pack_strips(sg.k0, sg.kc, n0, nc, widest, sg.last_width, own);
      sweep_slice(job, sg, m0, mc, own, nullptr, own, a_pack, last_slice);
      continue;
    }
    SlotState& st = job.states[nb_local * blk.k_slices + ks];
    float* slot = job.slots + (nb_local * blk.k_slices + ks) * job.slot_floats;
    // Pack the pieces nobody has claimed yet; the other tiles of this N block do the same.
    for (int32_t p; (p = st.next.fetch_add(1, std::memory_order_relaxed)) < npieces;) {
      pack_piece(job, sg, p, slot);
      st.done[p].store(1, std::memory_order_release);
    }
    sweep_slice(job, sg, m0, mc, slot, &st, own, a_pack, last_slice);
  }
}

}  // namespace

void gemm_f32(int64_t M, int64_t N, int64_t K, float alpha, const MatrixRef& A, const BPanelSource& B, float beta,
              float* C, int64_t ldc, const GemmEpilogue& ep, bool parallel) {
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
  job.blk = choose_gemm_blocking(M, N, K, mk, threads);
  job.direct_a = mk.direct_a && A.cs == 1 && A.rs >= K && alpha == 1.f && !direct_a_disabled();
  const GemmBlocking& blk = job.blk;

  // Pieces of a shared slot: a strip for costly sources (im2col), two for matrices (longer reads).
  const int64_t max_strips = ceil_div(blk.max_block_cols(), blk.widest);
  job.piece_strips = B.costly() ? 1 : 2;
  job.piece_strips = std::max(job.piece_strips, ceil_div(max_strips, kMaxPieces));
  job.slot_floats = round_up(blk.kc * max_strips * blk.widest, 16);
  job.shared = blk.m_blocks > 1;
  const int64_t per_block = std::max<int64_t>(1, blk.k_slices * job.slot_floats);
  const int64_t blocks_per_region = job.shared ? std::max<int64_t>(1, kSlotBudgetFloats / per_block) : blk.n_blocks;
  const int pieces = static_cast<int>(ceil_div(max_strips, job.piece_strips));

  for (int64_t nb0 = 0; nb0 < blk.n_blocks; nb0 += blocks_per_region) {
    job.nb0 = nb0;
    job.nbs = std::min(blocks_per_region, blk.n_blocks - nb0);
    const int64_t nslots = job.nbs * blk.k_slices;
    if (job.shared && nslots) {
      job.slots = t_slots_b.get(static_cast<size_t>(nslots * job.slot_floats));
      job.states = t_slot_states.get(static_cast<size_t>(nslots), pieces);
    }
    const size_t tiles = static_cast<size_t>(job.nbs * blk.m_blocks);
    if (tiles == 1 || threads == 1) {
      for (size_t i = 0; i < tiles; ++i) run_tile(job, i);
    } else {
      ThreadPool::instance().parallel_for(tiles, [&job](size_t i) { run_tile(job, i); });
    }
  }
}

void gemm_f32(int64_t M, int64_t N, int64_t K, float alpha, const MatrixRef& A, const MatrixRef& B, float beta,
              float* C, int64_t ldc, const GemmEpilogue& ep, bool parallel) {
  if (M <= 0 || N <= 0) return;
  if (gemm_small_m(M, N, K, alpha, A, B, beta, C, ldc, ep, parallel)) return;
  MatrixPanelSource source(B);
  gemm_f32(M, N, K, alpha, A, source, beta, C, ldc, ep, parallel);
}

const char* gemm_kernel_name() { return micro_kernels().name; }

}  // namespace acl_sim
