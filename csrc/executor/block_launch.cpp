#include "executor/block_launch.h"

#include <exception>
#include <utility>

#include "acl/error_codes/rt_error_codes.h"
#include "common/error.h"
#include "executor/thread_pool.h"
#include "executor/ub_arena.h"
#include "prof/profiler.h"
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
  bool profiling;
  int trace_pid;  // the device's trace process, for per-block spans on core tracks
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

  const uint64_t block_start = job.profiling ? prof::now_ns() : 0;
  struct BlockSpan {  // recorded however the block ends
    const BlockJob& job;
    size_t index;
    uint64_t start;
    ~BlockSpan() {
      if (!job.profiling) return;
      const int64_t core = prof::kCoreTidBase + static_cast<int64_t>(ThreadPool::current_worker());
      prof::span(job.spec->name, "block", job.trace_pid, core, start, prof::now_ns(),
                 "\"block\":" + std::to_string(index) + ",\"block_dim\":" + std::to_string(job.spec->block_dim));
    }
  } block_span{job, index, block_start};
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
  const bool profiling = prof::enabled();
  BlockJob job{&spec, soc.ub_size, soc.name, profiling, profiling ? prof::current_track().pid : 0};
  if (profiling) prof::name_core_tracks(job.trace_pid, ThreadPool::instance().concurrency());
  const uint64_t start = profiling ? prof::now_ns() : 0;
  ThreadPool::instance().parallelize(spec.block_dim, &run_one_block, &job);
  if (profiling) {  // one op record per launch, on the stream's track
    const prof::Track track = prof::current_track();
    prof::OpRecord rec;
    rec.name = spec.name;
    rec.type = spec.name;
    rec.block_dim = spec.block_dim;
    rec.start_ns = start;
    rec.end_ns = prof::now_ns();
    rec.pid = track.pid;
    rec.tid = track.tid;
    prof::op(rec);
  }
}

void enqueue_launch(Stream& stream, LaunchSpec spec) {
  const SocProfile* soc = &stream.device().profile();
  auto shared = std::make_shared<const LaunchSpec>(std::move(spec));
  stream.enqueue("kernel_launch", [shared, soc] { run_blocks(*shared, *soc); });
}

}  // namespace acl_sim
