#include "kernels/gemm_blocking.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>

#include "kernels/cpu_features.h"

namespace acl_sim {
namespace {

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

int64_t env_int(const char* name, int64_t def) {
  const char* v = std::getenv(name);
  if (!v) return def;
  const int64_t x = std::atoll(v);
  return x > 0 ? x : def;
}

int64_t l2_bytes() { return cpu_features().l2_bytes; }

/** Largest block of grid_begin's split: what the busiest tile of that dimension holds. */
int64_t max_block(int64_t blocks, int64_t size, int64_t unit) {
  int64_t most = 0;
  for (int64_t b = 0; b < blocks; ++b)
    most = std::max(most, GemmBlocking::grid_begin(b + 1, blocks, size, unit) - GemmBlocking::grid_begin(b, blocks, size, unit));
  return most;
}

/** choose_tile_split's arguments, the key of its per-thread memo. */
struct SplitQuery {
  int64_t M, N, mr, w, threads, mb_min, nb_min;
  double flops, col_cost, reread;
  bool operator==(const SplitQuery& o) const {
    return M == o.M && N == o.N && mr == o.mr && w == o.w && threads == o.threads && mb_min == o.mb_min &&
           nb_min == o.nb_min && flops == o.flops && col_cost == o.col_cost && reread == o.reread;
  }
  size_t hash() const {
    uint64_t h = 1469598103934665603ull;
    for (int64_t v : {M, N, mr, w, threads, mb_min, nb_min}) h = (h ^ static_cast<uint64_t>(v)) * 1099511628211ull;
    return static_cast<size_t>(h ^ (h >> 29));
  }
};

TileSplit search_tile_split(const SplitQuery& query) {
  const int64_t M = query.M, N = query.N, mr = query.mr, w = query.w, threads = query.threads;
  const int64_t mb_min = query.mb_min, nb_min = query.nb_min;
  const double flops = query.flops, col_cost = query.col_cost, reread = query.reread;
  if (threads <= 1 || flops < 1e6) return {mb_min, nb_min};
  const int64_t n_units = std::max<int64_t>(1, N / w), m_units = std::max<int64_t>(1, M / mr);

  // Tiles wanted: one per thread for small products, several for big ones, so a pool thread
  // descheduled by a busy host holds back a small tile, not a half.
  const int64_t want = flops < 1e7 ? threads : (flops < 5e7 ? 2 : 4) * threads;
  // Search the split that gives the busiest thread the least work: ceil(tiles / threads) tiles of
  // the largest tile's rows x columns. Narrow tiles pay a little more (A is re-read per N block),
  // short ones col_cost per column (what reading or packing B costs the tile, in FMAs per k).
  // Among splits within 1% of the cheapest, the tile count closest
  // to `want` wins: on an idle host they differ by that much, on a busy one a thread
  // descheduled mid-tile holds the whole product back by one tile. (3% until stop 25: in-model A/B on
  // AVX2, 15-30 pairs, 1% took resnet50's 1x1 convs 0.988-0.991x the time, all nodes 0.992-0.995, vgg19
  // 0.989, densenet121 0.997, PP-OCR 1.002-1.006; AVX-512 0.991-1.002. More M tiles each pack B again.)
  const int64_t mb_hi = std::min(m_units, mb_min + std::min<int64_t>(8 * threads, 32));
  const int64_t nb_hi = std::min(n_units, nb_min + std::min<int64_t>(4 * threads, 16));
  struct Candidate {
    int64_t mb, nb;
    double cost;
  };
  Candidate cands[33 * 17];
  int64_t rows_of[33];  // max_block per M split, worked out once (this runs per op and call)
  for (int64_t mb = mb_min; mb <= mb_hi; ++mb) rows_of[mb - mb_min] = max_block(mb, M, mr);
  int n = 0;
  double cheapest = 0;
  for (int64_t nb = nb_min; nb <= nb_hi; ++nb) {
    const int64_t cols = max_block(nb, N, w);
    for (int64_t mb = mb_min; mb <= mb_hi; ++mb) {
      const int64_t rows = rows_of[mb - mb_min];
      const double share = static_cast<double>(ceil_div(mb * nb, threads)) * rows * cols;
      const double cost = share * (1.0 + reread / (24.0 * cols) + col_cost / rows);
      cands[n++] = {mb, nb, cost};
      cheapest = n == 1 ? cost : std::min(cheapest, cost);
    }
  }
  int64_t best_mb = mb_min, best_nb = nb_min, best_dist = -1;
  double best_cost = 0;
  for (int i = 0; i < n; ++i) {
    const Candidate& c = cands[i];
    if (c.cost > cheapest * 1.01) continue;
    const int64_t dist = std::abs(c.mb * c.nb - want);
    if (best_dist < 0 || dist < best_dist || (dist == best_dist && c.cost < best_cost)) {
      best_mb = c.mb;
      best_nb = c.nb;
      best_dist = dist;
      best_cost = c.cost;
    }
  }
  return {best_mb, best_nb};
}

}  // namespace

int64_t GemmBlocking::max_block_cols() const { return max_block(n_blocks, N, widest); }

TileSplit choose_tile_split(int64_t M, int64_t N, int64_t mr, int64_t w, double flops, int64_t threads,
                            int64_t mb_min, int64_t nb_min, double col_cost, double reread) {
  if (col_cost < 0) col_cost = mr / 8.0;
  if (reread < 0) reread = static_cast<double>(w);
  // The search weighs up to 33 x 17 splits, ~1.5 us, and a model asks the same question of the same layer on
  // every run (light_resnet50: 53 convs): answers are remembered per thread, in a small table where a
  // colliding question overwrites the old answer. Stop 27, two processes alternating executes (Intel Xeon, 2
  // threads, 480-2300 pairs): light_resnet50 0.995-0.996x the time, densenet121 0.995x, the transformer 0.981x.
  const SplitQuery q{M, N, mr, w, threads, mb_min, nb_min, flops, col_cost, reread};
  struct Slot {
    SplitQuery q;
    TileSplit split;
    bool used = false;
  };
  thread_local Slot memo[128];
  Slot& slot = memo[q.hash() % 128];
  if (slot.used && slot.q == q) return slot.split;
  slot = Slot{q, search_tile_split(q), true};
  return slot.split;
}

GemmBlocking choose_gemm_blocking(int64_t M, int64_t N, int64_t K, const MicroKernelSet& mk, int64_t threads,
                                  double pack_cost) {
  // K slices of 512 for 4-row kernels (AVX2: half as many passes over C per product), 256 for 8-row ones.
  // AVX2, 2 threads, in-process A/B on this project's GEMMs: 512 took 0.94-0.99x the time of 256 (1024^3,
  // 512^3, 512x4608x49, 128x3072x768; 1x1 convs' 2048x512x49 and 1024x256x196 even) and 0.97x on
  // light_resnet50's convs; 1024 gained nothing more, 384 half as much. On AVX-512 512 was mixed (0.97-1.03x).
  // ACL_SIM_GEMM_KC overrides it (read per call, for A/B runs).
  // Narrow products (N up to a few hundred columns: convs on 7x7 and 14x14 planes) take deeper slices, as
  // deep as a K x N slice of B that fits in L2 allows: fewer passes over C and fewer, longer kernel calls.
  // Stop 25, in-model A/B (Intel Xeon, 2 MiB L2, 20 pairs): AVX2 resnet50 all nodes 0.978 (3x3 512->512 at
  // 7x7 0.88-0.90x, 1x1 2048->512 at 7x7 0.90-0.92x, 3x3/2 512 0.89x, 1x1 1024->256 at 14x14 0.97x),
  // densenet121 0.993, vgg19 0.996, PP-OCR 0.988-1.004; AVX-512 0.98-1.008. A 512 KiB budget gave AVX2
  // resnet50 0.985.
  // Stop 33 (AMD EPYC Zen 4, 1 MiB L2, AVX2, 2 threads, 80-100 alternated calls, two runs): slices of 1024 took
  // 1024^3 0.975-0.981x the time of 512, 64x576x3136 0.982-0.986x, 128x768x3072 0.986-0.988x, 128x3072x768
  // 0.976-0.995x (512^3, one slice either way: 0.987x, the method's noise); in-model light_resnet50 1.002x,
  // densenet121 0.993x (20 pairs, `ACL_SIM_GEMM_KC=1024`). So 1024 where L2 holds 1 MiB or more (stop 25's
  // Intel host, 2 MiB: even with 512); 512 below (Zen 3's 512 KiB: not measured).
  const int64_t widest = static_cast<int64_t>(mk.max_nv) * mk.lanes;
  const int64_t narrow_kc = l2_bytes() / (4 * ceil_div(std::max<int64_t>(N, 1), widest) * widest);
  const int64_t wide_kc = mk.mr <= 4 ? (l2_bytes() >= (1 << 20) ? 1024 : 512) : 256;
  const int64_t kc_max = env_int("ACL_SIM_GEMM_KC", std::max<int64_t>(wide_kc, narrow_kc));
  static const int64_t mc_max = env_int("ACL_SIM_GEMM_MC", int64_t{1} << 40);
  static const int64_t nc_env = env_int("ACL_SIM_GEMM_NC", 0);
  GemmBlocking b;
  b.M = M;
  b.N = N;
  b.mr = mk.mr;
  b.widest = widest;
  b.k_slices = K > 0 ? ceil_div(K, kc_max) : 0;
  b.kc = K > 0 ? ceil_div(K, b.k_slices) : 1;

  // N blocks: a kc x width slot of packed B in at most half of L2 (the rest holds C rows and A panels).
  const int64_t w = b.widest;
  const int64_t nc_max = nc_env ? nc_env : std::max(2 * w, l2_bytes() / 2 / (b.kc * 4) / w * w);
  const int64_t n_units = std::max<int64_t>(1, N / w), m_units = std::max<int64_t>(1, M / b.mr);
  const int64_t nb_min = std::min(n_units, ceil_div(N, nc_max));
  const int64_t mb_min = std::min(m_units, ceil_div(M, mc_max));
  b.n_blocks = nb_min;
  b.m_blocks = mb_min;
  // Every tile packs its own B slice: a column of a matrix costs a tile about 2 x mr FMAs per k beyond its own
  // (AVX-512 and AVX2, 2 threads on an Intel Xeon: against mr, 0.80-0.90x the time on 64x576x3136, 128x1152x784,
  // 256x2304x196 and 512x4608x49, the same on 1024^3 and the transformer's shapes), an im2col column more
  // (AVX2, 3x3 512->512 at 7x7: M split, each tile gathering all 49 columns, took 1.2x the time of an N split).
  const TileSplit split = choose_tile_split(M, N, b.mr, w, 2.0 * M * N * std::max<int64_t>(K, 1), threads, mb_min,
                                            nb_min, 2.0 * b.mr * pack_cost);
  b.m_blocks = split.m_blocks;
  b.n_blocks = split.n_blocks;
  return b;
}

}  // namespace acl_sim
