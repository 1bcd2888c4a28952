#include "kernels/gemm_tensor_io.h"

#include <algorithm>

#include "kernels/node_cache.h"
#include "kernels/packed_weights.h"
#include "kernels/thread_scratch.h"

namespace acl_sim {
namespace {

// Conversions run at memory speed, a few GB/s per core: below this many values a fork costs more than it saves.
constexpr size_t kParallelValues = size_t{1} << 16;
constexpr size_t kChunkValues = size_t{1} << 14;

thread_local Scratch<float> t_input_stage[NodeCache::kInputSlots];
thread_local Scratch<float> t_output_stage;
thread_local Scratch<float> t_plane_input, t_plane_output;

template <class F>
void over_chunks(size_t n, bool parallel, F&& f) {
  if (!parallel || n < kParallelValues) return f(size_t{0}, n);
  const size_t chunks = (n + kChunkValues - 1) / kChunkValues;
  ThreadPool::instance().parallel_for(chunks, [&](size_t c) {
    const size_t first = c * kChunkValues;
    f(first, std::min(n, first + kChunkValues) - first);
  });
}

}  // namespace

void widen_to_f32(int dtype, const uint16_t* src, float* dst, size_t n, bool parallel) {
  over_chunks(n, parallel, [&](size_t first, size_t count) {
    half_or_bf16_to_float_n(dtype != ACL_FLOAT16, src + first, dst + first, count);
  });
}

void narrow_from_f32(int dtype, const float* src, uint16_t* dst, size_t n, bool parallel) {
  over_chunks(n, parallel, [&](size_t first, size_t count) {
    float_to_half_or_bf16_n(dtype != ACL_FLOAT16, src + first, dst + first, count);
  });
}

float* plane_task_input(size_t n) { return t_plane_input.get(n); }
float* plane_task_output(size_t n) { return t_plane_output.get(n); }

F32Input::F32Input(const OpContext& ctx, size_t k) {
  const TensorView& t = ctx.inputs[k];
  if (t.dtype == ACL_FLOAT) {
    data_ = static_cast<const float*>(t.data);
    return;
  }
  const size_t n = static_cast<size_t>(t.numel());
  const auto* src = static_cast<const uint16_t*>(t.data);
  if (ctx.cache && ctx.input_is_weight(k) && k < NodeCache::kInputSlots) {
    data_ = packed_once(ctx.cache->input_slot(k), n, [&](float* dst) { widen_to_f32(t.dtype, src, dst, n); });
    return;
  }
  float* dst;
  if (k < NodeCache::kInputSlots) {
    dst = t_input_stage[k].get(n);
  } else {
    storage_.reset(new float[n]);
    dst = storage_.get();
  }
  widen_to_f32(t.dtype, src, dst, n);
  data_ = dst;
}

F32Output::F32Output(TensorView& t) : view_(&t) {
  data_ = t.dtype == ACL_FLOAT ? static_cast<float*>(t.data) : t_output_stage.get(static_cast<size_t>(t.numel()));
}

void F32Output::commit() {
  if (view_->dtype == ACL_FLOAT) return;
  narrow_from_f32(view_->dtype, data_, static_cast<uint16_t*>(view_->data), static_cast<size_t>(view_->numel()));
}

}  // namespace acl_sim
