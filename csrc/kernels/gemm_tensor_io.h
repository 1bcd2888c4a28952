// fp32 staging for the compute-heavy ops (MatMul, Gemm, Conv, ConvTranspose,
// pooling): fp16 / bf16 tensors are widened to fp32 (F16C bulk path, a loaded
// model's constant weights once per model), computed with fp32 accumulation,
// and narrowed back with round-to-nearest-even.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "acl/acl_base.h"
#include "common/error.h"
#include "common/fp16.h"
#include "executor/thread_pool.h"
#include "kernels/op_registry.h"

namespace acl_sim {

/** The dtypes the fp32-staged ops take: float32, float16, bfloat16 (no float64). */
inline bool is_staged_float_dtype(int dtype) { return dtype == ACL_FLOAT || dtype == ACL_FLOAT16 || dtype == ACL_BF16; }

/** Widens n fp16 (dtype ACL_FLOAT16) or bf16 values to fp32; over the pool's threads when n is large and `parallel`
 *  (false inside a parallel region). */
void widen_to_f32(int dtype, const uint16_t* src, float* dst, size_t n, bool parallel = true);

/** Narrows n fp32 values to fp16 or bf16 (round to nearest even); threads as widen_to_f32. */
void narrow_from_f32(int dtype, const float* src, uint16_t* dst, size_t n, bool parallel = true);

/**
 * Input k of an op seen as fp32: the tensor itself when it is fp32, else a widened copy. A loaded model's
 * constant fp16 / bf16 weight is widened once, into the node's cache (NodeCache::input_slot), not on every run:
 * resnet50 compiled with --precision_mode=force_fp16 widened its 25 M weights on one thread per inference, 1.4x
 * the fp32 model's time. Anything else is widened per call into this thread's staging buffer for input k (grow-
 * only, so a steady-state run allocates nothing: fresh buffers cost a page fault per 4 KiB, 6% of that model's
 * time); one F32Input per input and op at a time on a thread.
 */
class F32Input {
 public:
  F32Input() = default;
  F32Input(const OpContext& ctx, size_t k);
  const float* data() const { return data_; }

 private:
  const float* data_ = nullptr;
  std::unique_ptr<float[]> storage_;  // inputs past the staging slots
};

/**
 * An output written as fp32: the tensor itself when fp32, else this thread's output staging buffer, narrowed by
 * commit(). One F32Output at a time on a thread.
 */
class F32Output {
 public:
  explicit F32Output(TensorView& t);
  float* data() { return data_; }
  /** Narrows into the real output when it is not fp32. Call once, after computing. */
  void commit();

 private:
  TensorView* view_;
  float* data_ = nullptr;
};

/** This thread's scratch for a task's widened input planes / its fp32 outputs (for_each_plane_range). */
float* plane_task_input(size_t n);
float* plane_task_output(size_t n);

/**
 * The one parallel region of an op over independent planes of input 0 (in_size values each) into output 0
 * (out_size each), `per_task` planes a pool index: fn(x, y, first, last) with fp32 views x, y of planes
 * [first, last). fp16 / bf16 planes are widened and their outputs narrowed by the task itself, on the thread
 * that runs it, instead of by whole-tensor passes with forks of their own (squeezenet's fp16 MaxPools took
 * 2x their fp32 time that way).
 */
/**
 * fp16 / bf16 planes are staged this many values at a time (at least one plane): widened in L1's share, not a
 * task's whole range (squeezenet's fp16 GlobalAveragePool over 1000 planes of 13x13, three tasks of 387 planes,
 * took 0.75x the time staged this way; stop 42, in-model A/B, Zen 4, 40 pairs).
 */
constexpr int64_t kPlaneStageValues = 4096;
/** One parallel region over planes [0, planes), `per_task` a pool index: fn(first, last) per task. */
template <class Fn>
void for_each_plane_task(int64_t planes, int64_t per_task, Fn&& fn) {
  const int64_t tasks = (planes + per_task - 1) / per_task;
  ThreadPool::instance().parallel_for(static_cast<size_t>(tasks), [&](size_t t) {
    const int64_t first = static_cast<int64_t>(t) * per_task;
    fn(first, std::min(planes, first + per_task));
  });
}

template <class Fn>
void for_each_plane_range(const OpContext& ctx, int64_t planes, int64_t per_task, int64_t in_size, int64_t out_size,
                          Fn&& fn) {
  const TensorView& tx = ctx.inputs[0];
  const TensorView& ty = ctx.outputs[0];
  const int dtype = tx.dtype;
  for_each_plane_task(planes, per_task, [&](int64_t first, int64_t last) {
    if (dtype == ACL_FLOAT) {
      fn(static_cast<const float*>(tx.data) + first * in_size, static_cast<float*>(ty.data) + first * out_size, first,
         last);
      return;
    }
    // Staged a few planes at a time, so the widened planes are still in L1 when fn reads them.
    const int64_t step = std::max<int64_t>(1, kPlaneStageValues / std::max<int64_t>(1, in_size));
    for (int64_t p0 = first; p0 < last; p0 += step) {
      const int64_t p1 = std::min(last, p0 + step);
      const size_t n_in = static_cast<size_t>((p1 - p0) * in_size);
      const size_t n_out = static_cast<size_t>((p1 - p0) * out_size);
      float* x = plane_task_input(n_in);
      float* y = plane_task_output(n_out);
      widen_to_f32(dtype, static_cast<const uint16_t*>(tx.data) + p0 * in_size, x, n_in, false);
      fn(x, y, p0, p1);
      narrow_from_f32(dtype, y, static_cast<uint16_t*>(ty.data) + p0 * out_size, n_out, false);
    }
  });
}

/**
 * Checks that the op has at least `min_in` inputs (the first `required` present),
 * at least `min_out` outputs, and that every present input and every output is
 * one float dtype (fp32/fp16/bf16), shared by all. Returns that dtype.
 */
inline int require_float_io(const OpContext& ctx, size_t required, size_t min_out) {
  ACL_SIM_REQUIRE(ctx.inputs.size() >= required, ACL_ERROR_OP_INPUT_NOT_MATCH, ctx.op_type, " expects at least ",
                  required, " inputs, got ", ctx.inputs.size());
  ACL_SIM_REQUIRE(ctx.outputs.size() >= min_out, ACL_ERROR_OP_OUTPUT_NOT_MATCH, ctx.op_type, " expects at least ",
                  min_out, " outputs, got ", ctx.outputs.size());
  for (size_t i = 0; i < required; ++i)
    ACL_SIM_REQUIRE(ctx.inputs[i].present(), ACL_ERROR_OP_INPUT_NOT_MATCH, ctx.op_type, ": input ", i,
                    " is required");
  const int dtype = ctx.inputs[0].dtype;
  ACL_SIM_REQUIRE(is_staged_float_dtype(dtype), ACL_ERROR_OP_INPUT_NOT_MATCH, ctx.op_type,
                  ": input 0 has unsupported dtype ", dtype, " (supported: float32, float16, bfloat16)");
  for (size_t i = 0; i < ctx.inputs.size(); ++i) {
    if (!ctx.inputs[i].present()) continue;
    ACL_SIM_REQUIRE(ctx.inputs[i].dtype == dtype, ACL_ERROR_OP_INPUT_NOT_MATCH, ctx.op_type, ": input ", i,
                    " has dtype ", ctx.inputs[i].dtype, " but input 0 has ", dtype);
  }
  for (size_t i = 0; i < min_out; ++i) {
    ACL_SIM_REQUIRE(ctx.outputs[i].present() || ctx.outputs[i].numel() == 0, ACL_ERROR_OP_OUTPUT_NOT_MATCH,
                    ctx.op_type, ": output ", i, " has no buffer");
    ACL_SIM_REQUIRE(ctx.outputs[i].dtype == dtype, ACL_ERROR_OP_OUTPUT_NOT_MATCH, ctx.op_type, ": output ", i,
                    " has dtype ", ctx.outputs[i].dtype, " but the inputs have ", dtype);
  }
  return dtype;
}

inline std::string shape_str(const std::vector<int64_t>& s) {
  std::string out = "[";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? "," : "") + std::to_string(s[i]);
  return out + "]";
}

}  // namespace acl_sim
