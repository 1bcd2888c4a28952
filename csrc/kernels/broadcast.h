// ONNX multidirectional broadcasting as a loop plan.
//
// plan_broadcast() right-aligns every input against the (given) output shape,
// gives each input a stride of 0 on broadcast dimensions, drops size-1 output
// dimensions and merges neighbours that stay contiguous for every input. Most
// real cases collapse to 1-3 dimensions, so the innermost loop is long and
// each input's innermost stride is 0 (a scalar) or 1 (contiguous): the row
// kernels specialise on those two cases and vectorise.
#pragma once

#include <array>
#include <vector>

#include "kernels/elementwise_common.h"

namespace acl_sim::kern {

constexpr int kMaxBroadcastInputs = 3;

struct BroadcastPlan {
  std::vector<int64_t> shape;                              // collapsed output shape, rank >= 1
  std::array<std::vector<int64_t>, kMaxBroadcastInputs> strides;  // element strides per collapsed dim
  int num_inputs = 0;
  int64_t numel = 0;
};

/** Plans `inputs` (up to 3 shapes) broadcast to `out`. Throws ACL_ERROR_OP_INPUT_NOT_MATCH naming the op
 *  when a shape does not broadcast to out (out is authoritative: ATC inferred it). */
BroadcastPlan plan_broadcast(const OpContext& ctx, const std::vector<const std::vector<int64_t>*>& inputs,
                             const std::vector<int64_t>& out);

/** Offsets (in elements) of one contiguous run of the output. */
struct RowRun {
  std::array<int64_t, kMaxBroadcastInputs> in_off;  // first element of each input
  std::array<int64_t, kMaxBroadcastInputs> in_step;  // 0 or 1: each input's stride along the run
  int64_t out_off;
  int64_t len;
};

/** Calls f(const RowRun&) for every innermost run of the output, in blocks of about kBlockElems
 *  elements over the ThreadPool (long rows are split). f runs concurrently on disjoint output ranges. */
template <class F>
void for_each_run(const BroadcastPlan& p, F&& f) {
  if (p.numel == 0) return;
  const int rank = static_cast<int>(p.shape.size());
  const int64_t inner = p.shape.back();
  const int64_t rows = p.numel / inner;
  const int64_t chunk = std::min(inner, kBlockElems);
  const int64_t per_row = (inner + chunk - 1) / chunk;
  const int64_t units = rows * per_row;
  const int64_t grain = per_row > 1 ? 1 : rows_grain(inner);
  parallel_blocks(units, grain, [&](int64_t begin, int64_t end) {
    std::vector<int64_t> idx(static_cast<size_t>(rank), 0);
    std::array<int64_t, kMaxBroadcastInputs> base{};
    int64_t cur_row = -1;
    for (int64_t u = begin; u < end; ++u) {
      int64_t row = u / per_row, c = u % per_row;
      if (row != cur_row) {
        if (row == cur_row + 1 && cur_row >= 0) {
          // Odometer step over the outer dimensions.
          for (int d = rank - 2; d >= 0; --d) {
            for (int k = 0; k < p.num_inputs; ++k) base[k] += p.strides[k][d];
            if (++idx[d] < p.shape[d]) break;
            for (int k = 0; k < p.num_inputs; ++k) base[k] -= p.strides[k][d] * p.shape[d];
            idx[d] = 0;
          }
        } else {
          int64_t r = row;
          base.fill(0);
          for (int d = rank - 2; d >= 0; --d) {
            idx[d] = r % p.shape[d];
            r /= p.shape[d];
            for (int k = 0; k < p.num_inputs; ++k) base[k] += idx[d] * p.strides[k][d];
          }
        }
        cur_row = row;
      }
      RowRun run;
      int64_t col = c * chunk;
      for (int k = 0; k < kMaxBroadcastInputs; ++k) {
        run.in_step[k] = k < p.num_inputs ? p.strides[k][rank - 1] : 0;
        run.in_off[k] = k < p.num_inputs ? base[k] + col * run.in_step[k] : 0;
      }
      run.out_off = row * inner + col;
      run.len = std::min(chunk, inner - col);
      f(run);
    }
  });
}

/** out = in broadcast to out's shape (Expand, and the single-input case of variadic ops). Any dtype. */
void broadcast_copy(const OpContext& ctx, const TensorView& in, TensorView& out);

}  // namespace acl_sim::kern
