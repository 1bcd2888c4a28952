// ONNX GlobalAveragePool, GlobalMaxPool and GlobalLpPool: one reduction over
// all spatial positions of each (n, c) plane; fp32/fp16/bf16.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "common/fp16.h"
#include "kernels/conv_geometry.h"
#include "kernels/gemm_tensor_io.h"
#include "kernels/op_registry.h"
#include "kernels/pool_taps.h"

namespace acl_sim {
namespace {

enum class GlobalKind { kAvg, kMax, kLp };

void run_global(OpContext& ctx, GlobalKind kind) {
  const char* op = ctx.op_type;
  require_float_io(ctx, 1, 1);
  const TensorView& tx = ctx.inputs[0];
  ACL_SIM_REQUIRE(tx.shape.size() >= 3, ACL_ERROR_OP_INPUT_NOT_MATCH, op, ": X must be [N, C, spatial...], got ",
                  dims_str(tx.shape));
  std::vector<int64_t> expect(tx.shape.size(), 1);
  expect[0] = tx.shape[0];
  expect[1] = tx.shape[1];
  ACL_SIM_REQUIRE(ctx.outputs[0].shape == expect, ACL_ERROR_OP_OUTPUT_NOT_MATCH, op, ": output shape ",
                  dims_str(ctx.outputs[0].shape), " must be ", dims_str(expect));
  const int64_t planes = tx.shape[0] * tx.shape[1];
  int64_t size = 1;
  for (size_t i = 2; i < tx.shape.size(); ++i) size *= tx.shape[i];
  const double p = static_cast<double>(ctx.attrs->get_int("p", 2));
  if (planes == 0) return;
  const int64_t per_task = std::max<int64_t>(1, 65536 / std::max<int64_t>(1, size));
  // fp16 planes are reduced as they lie (plane_sum_f16 / plane_max_f16), not staged.
  if (tx.dtype == ACL_FLOAT16 && kind != GlobalKind::kLp && size > 0 && pool_plane_kernels_available()) {
    const auto* x = static_cast<const uint16_t*>(tx.data);
    auto* y = static_cast<uint16_t*>(ctx.outputs[0].data);
    for_each_plane_task(planes, per_task, [&](int64_t first, int64_t last) {
      for (int64_t pl = first; pl < last; ++pl) {
        const uint16_t* xp = x + pl * size;
        y[pl] = float_to_half(kind == GlobalKind::kMax ? plane_max_f16(xp, size)
                                                       : plane_sum_f16(xp, size) / static_cast<float>(size));
      }
    });
    return;
  }
  for_each_plane_range(ctx, planes, per_task, size, 1, [&](const float* xs, float* ys, int64_t first, int64_t last) {
    for (int64_t pl = first; pl < last; ++pl) {
      const float* x = xs + (pl - first) * size;
      float& y = ys[pl - first];
      if (size == 0) {
        y = kind == GlobalKind::kMax ? -std::numeric_limits<float>::infinity() : 0.f;
      } else if (kind == GlobalKind::kAvg) {
        y = plane_sum_f32(x, size) / static_cast<float>(size);
      } else if (kind == GlobalKind::kMax) {
        y = plane_max_f32(x, size);
      } else {
        double acc = 0.0;
        for (int64_t i = 0; i < size; ++i) acc += std::pow(std::fabs(double(x[i])), p);
        y = static_cast<float>(std::pow(acc, 1.0 / p));
      }
    }
  });
}

void run_global_average_pool(OpContext& ctx) { run_global(ctx, GlobalKind::kAvg); }
void run_global_max_pool(OpContext& ctx) { run_global(ctx, GlobalKind::kMax); }
void run_global_lp_pool(OpContext& ctx) { run_global(ctx, GlobalKind::kLp); }

}  // namespace

ACL_SIM_REGISTER_OP(GlobalAveragePool, run_global_average_pool);
ACL_SIM_REGISTER_OP(GlobalMaxPool, run_global_max_pool);
ACL_SIM_REGISTER_OP(GlobalLpPool, run_global_lp_pool);

}  // namespace acl_sim
