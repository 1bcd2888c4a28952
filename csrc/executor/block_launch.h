// One kernel launch: blockDim logical blocks run over the shared host pool
// (ThreadPool::instance()), each with its block index and a UB arena, as ONE
// task of the launch's stream. Used by every launch path: the CANN binary
// API (aclrtLaunchKernelWithConfig), ACLRT_LAUNCH_KERNEL and Python.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "acl_sim/kernel/block_context.h"

namespace acl_sim {

class Stream;
struct SocProfile;

/** CANN's blockDim limit: 1..65535 blocks per launch. */
constexpr uint32_t kMaxBlockDim = 65535;
/** Parameters a kernel entry may take (8-byte slots). */
constexpr size_t kMaxKernelArgs = 32;

/** Everything a launch task needs; owns its argument copies. */
struct LaunchSpec {
  std::string name;                    // kernel name for messages
  void* entry = nullptr;               // extern "C" kernel function
  acl_sim_enter_block_fn enter = nullptr;  // module hook installing the block context (may be null)
  uint32_t block_dim = 0;
  std::vector<uint64_t> slots;         // one 8-byte slot per kernel parameter
  // Placeholder data copied at launch time; slots point into these buffers.
  std::vector<std::shared_ptr<void>> owned;
  // Keeps the kernel's shared object loaded until the task has run.
  std::shared_ptr<void> keep_alive;
};

/** Throws ACL_ERROR_RT_PARAM_INVALID (107000) unless 1 <= block_dim <= 65535 and args fit. */
void validate_launch(const char* fn, uint32_t block_dim, size_t num_args);

/**
 * Run every block of @p spec on the calling thread and the pool, with UB
 * capped at @p soc.ub_size. The first block fault is rethrown as
 * acl_sim::Error (ACL_ERROR_RT_AICORE_EXCEPTION, message naming kernel, block
 * and sizes) after the remaining blocks were skipped.
 */
void run_blocks(const LaunchSpec& spec, const SocProfile& soc);

/** Enqueue run_blocks(spec) as one task of @p stream (stream order; errors surface at synchronize). */
void enqueue_launch(Stream& stream, LaunchSpec spec);

/** Call @p entry as void(uint64_t x n) with @p slots. n <= kMaxKernelArgs. */
void invoke_kernel_entry(void* entry, const uint64_t* slots, size_t n);

}  // namespace acl_sim
