#include "kernels/gemm_tensor_io.h"

#include <algorithm>

#include "executor/thread_pool.h"
#include "kernels/node_cache.h"
#include "kernels/packed_weights.h"

namespace acl_sim {
namespace {

// Conversions run at memory speed, a few GB/s per core: below this many values a fork costs more than it saves.
constexpr size_t kParallelValues = size_t{1} << 16;
constexpr size_t kChunkValues = size_t{1} << 14;

template <class F>
void over_chunks(size_t n, F&& f) {
  if (n < kParallelValues) return f(size_t{0}, n);
  const size_t chunks = (n + kChunkValues - 1) / kChunkValues;
  ThreadPool::instance().parallel_for(chunks, [&](size_t c) {
    const size_t first = c * kChunkValues;
    f(first, std::min(n, first + kChunkValues) - first);
  });
}

}  // namespace

void widen_to_f32(int dtype, const uint16_t* src, float* dst, size_t n) {
  over_chunks(n, [&](size_t first, size_t count) {
    if (dtype == ACL_FLOAT16) half_to_float_n(src + first, dst + first, count);
    else bf16_to_float_n(src + first, dst + first, count);
  });
}

void narrow_from_f32(int dtype, const float* src, uint16_t* dst, size_t n) {
  over_chunks(n, [&](size_t first, size_t count) {
    if (dtype == ACL_FLOAT16) float_to_half_n(src + first, dst + first, count);
    else float_to_bf16_n(src + first, dst + first, count);
  });
}

F32Input::F32Input(const TensorView& t) {
  if (t.dtype == ACL_FLOAT) {
    data_ = static_cast<const float*>(t.data);
    return;
  }
  const size_t n = static_cast<size_t>(t.numel());
  storage_.reset(new float[n]);
  widen_to_f32(t.dtype, static_cast<const uint16_t*>(t.data), storage_.get(), n);
  data_ = storage_.get();
}

F32Input::F32Input(const OpContext& ctx, size_t k) {
  const TensorView& t = ctx.inputs[k];
  if (t.dtype == ACL_FLOAT || !ctx.cache || !ctx.input_is_weight(k) || k >= NodeCache::kInputSlots) {
    *this = F32Input(t);
    return;
  }
  const size_t n = static_cast<size_t>(t.numel());
  data_ = packed_once(ctx.cache->input_slot(k), n, [&](float* dst) {
    widen_to_f32(t.dtype, static_cast<const uint16_t*>(t.data), dst, n);
  });
}

F32Output::F32Output(TensorView& t) : view_(&t) {
  if (t.dtype == ACL_FLOAT) {
    data_ = static_cast<float*>(t.data);
    return;
  }
  storage_.reset(new float[static_cast<size_t>(t.numel())]);
  data_ = storage_.get();
}

void F32Output::commit() {
  if (view_->dtype == ACL_FLOAT) return;
  narrow_from_f32(view_->dtype, data_, static_cast<uint16_t*>(view_->data), static_cast<size_t>(view_->numel()));
}

}  // namespace acl_sim
