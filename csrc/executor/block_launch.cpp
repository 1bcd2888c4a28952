#include "executor/block_launch.h"

#include <exception>
#include <utility>

#include "acl/error_codes/rt_error_codes.h"
#include "common/clock.h"
#include "common/error.h"
#include "executor/executor_observer.h"
#include "executor/thread_pool.h"
#include "executor/ub_arena.h"
#include "runtime/device.h"
#include "runtime/soc_profile.h"
#include "runtime/stream.h"

namespace acl_sim {
namespace {

// The block this thread is running, so a fault raised from kernel code can say which one.
thread_local const acl_sim_block_ctx* t_running = nullptr;

/** The fault hook handed to kernel code: unwinds the block with an Error naming it. */
[[noreturn]] void block_fail(int code, const char* message) {
  const acl_sim_block_ctx* c = t_running;
  if (c) throw Error(code, str(message, " (block ", c->block_idx, " of ", c->block_num, ")"));
  throw Error(code, message ? message : "kernel fault");
}

struct BlockJob {
  const LaunchSpec* spec;
  size_t ub_size;
  const char* soc_name;
  ExecutorObserver* observer;  // told of every block when observer_tag is set
  const void* observer_tag;
};

void run_one_block(void* p, size_t index) {
  const BlockJob& job = *static_cast<const BlockJob*>(p);
  const LaunchSpec& spec = *job.spec;
  acl_sim_block_ctx ctx{};
  ctx.abi_version = ACL_SIM_KERNEL_ABI_VERSION;
  ctx.block_idx = static_cast<uint32_t>(index);
  ctx.block_num = spec.block_dim;
  ctx.ub_base = ub_arena_for_this_thread(job.ub_size);
  ctx.ub_size = job.ub_size;
  ctx.ub_used = 0;
  ctx.kernel_name = spec.name.c_str();
  ctx.soc_name = job.soc_name;
  ctx.fail = &block_fail;

  // Install the context in the kernel module and here; restore both however the block ends.
  struct Scope {
    acl_sim_enter_block_fn enter;
    acl_sim_block_ctx* prev_module;
    const acl_sim_block_ctx* prev_running;
    ~Scope() {
      if (enter) enter(prev_module);
      t_running = prev_running;
    }
  } scope{spec.enter, spec.enter ? spec.enter(&ctx) : nullptr, t_running};
  t_running = &ctx;

  struct BlockReport {  // however the block ends
    const BlockJob& job;
    size_t index;
    uint64_t start;
    ~BlockReport() {
      if (job.observer_tag)
        job.observer->launch_block(job.observer_tag, *job.spec, static_cast<uint32_t>(index),
                                   ThreadPool::current_worker(), start, monotonic_ns());
    }
  } block_report{job, index, job.observer_tag ? monotonic_ns() : 0};
  try {
    invoke_kernel_entry(spec.entry, spec.slots.data(), spec.slots.size());
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    fail(ACL_ERROR_RT_AICORE_EXCEPTION, "kernel '", spec.name, "' threw in block ", index, " of ", spec.block_dim,
         ": ", e.what());
  } catch (...) {
    fail(ACL_ERROR_RT_AICORE_EXCEPTION, "kernel '", spec.name, "' threw an unknown exception in block ", index, " of ",
         spec.block_dim);
  }
}

}  // namespace

void validate_launch(const char* fn, uint32_t block_dim, size_t num_args) {
  ACL_SIM_REQUIRE(block_dim >= 1 && block_dim <= kMaxBlockDim, ACL_ERROR_RT_PARAM_INVALID, "blockDim ", block_dim,
                  " is outside [1, ", kMaxBlockDim, "]");
  ACL_SIM_REQUIRE(num_args <= kMaxKernelArgs, ACL_ERROR_RT_PARAM_INVALID, num_args,
                  " kernel arguments; acl_sim passes at most ", kMaxKernelArgs);
}

void run_blocks(const LaunchSpec& spec, const SocProfile& soc) {
  ExecutorObserver* observer = executor_observer();
  const void* tag = observer ? observer->launch_begin(spec, ThreadPool::instance().concurrency()) : nullptr;
  BlockJob job{&spec, soc.ub_size, soc.name, observer, tag};
  const uint64_t start = tag ? monotonic_ns() : 0;
  ThreadPool::instance().parallelize(spec.block_dim, &run_one_block, &job);
  if (tag) observer->launch_end(tag, spec, start, monotonic_ns());
}

void enqueue_launch(Stream& stream, LaunchSpec spec) {
  const SocProfile* soc = &stream.device().profile();
  auto shared = std::make_shared<const LaunchSpec>(std::move(spec));
  stream.enqueue("kernel_launch", [shared, soc] { run_blocks(*shared, *soc); });
}

}  // namespace acl_sim
