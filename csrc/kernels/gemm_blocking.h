// How the GEMM driver cuts one product into tiles (internal to the driver).
//
// K is walked in slices of kc; N is cut into blocks of whole micro-kernel strips
// whose packed kc x width slice of B (a "slot") takes at most half of L2; M is cut
// into blocks of whole MR-row panels. A tile is one (M block, N block) pair and one
// thread-pool index. Every tile packs its own B slice (gemm.cpp says why), so tiles that
// share an N block pack it again: the split weighs that packing against balance.
#pragma once

#include <cstdint>

#include "kernels/gemm_microkernel.h"

namespace acl_sim {

struct GemmBlocking {
  int64_t M = 0, N = 0;
  int64_t mr = 1, widest = 1;  // panel height and widest strip of the micro-kernel set
  int64_t kc = 1;              // K slice depth (the last slice may be shorter)
  int64_t k_slices = 0;
  int64_t m_blocks = 1, n_blocks = 1;

  /** First row of M block b (b in [0, m_blocks]; m_begin(m_blocks) == M): near-equal, on the MR grid. */
  int64_t m_begin(int64_t b) const { return grid_begin(b, m_blocks, M, mr); }
  /** First column of N block b: near-equal shares on the widest-strip grid. */
  int64_t n_begin(int64_t b) const { return grid_begin(b, n_blocks, N, widest); }
  /** Columns of the widest N block. */
  int64_t max_block_cols() const;

  static int64_t grid_begin(int64_t b, int64_t blocks, int64_t size, int64_t unit) {
    if (b >= blocks) return size;
    // round(b * size / (blocks * unit)) * unit; blocks <= size / unit keeps every block non-empty.
    const int64_t q = (2 * b * size + blocks * unit) / (2 * blocks * unit) * unit;
    return q < size ? q : size;
  }
};

/**
 * How many M blocks (of whole mr-row panels) and N blocks (of whole `widest` strips) a product of
 * `flops` cuts into for `threads` threads, at least mb_min x nb_min: the split that gives the busiest
 * thread the least work, its tile count near a few per thread. Returns {m_blocks, n_blocks}; the
 * blocks are GemmBlocking::grid_begin's near-equal shares. Shared by the GEMM and the direct conv.
 * col_cost: what a column costs a tile per k beyond its FMAs (default mr / 8). reread: what re-reading A costs
 * an extra N block, as columns' worth of work x 24 (default widest: the GEMM re-reads its A panels per N block).
 */
struct TileSplit {
  int64_t m_blocks, n_blocks;
};
TileSplit choose_tile_split(int64_t M, int64_t N, int64_t mr, int64_t widest, double flops, int64_t threads,
                            int64_t mb_min, int64_t nb_min, double col_cost = -1, double reread = -1);

/**
 * The blocking for an M x N x K product run by `threads` threads (1: the caller alone), its B
 * source's pack_cost per packed value (BPanelSource::pack_cost).
 * ACL_SIM_GEMM_KC / ACL_SIM_GEMM_NC override the slice depth and the N block width
 * limit, ACL_SIM_GEMM_MC caps the M block height (benchmark knobs).
 */
GemmBlocking choose_gemm_blocking(int64_t M, int64_t N, int64_t K, const MicroKernelSet& mk, int64_t threads,
                                  double pack_cost = 1.0);

}  // namespace acl_sim
