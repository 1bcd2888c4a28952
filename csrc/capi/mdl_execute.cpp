// aclmdlExecute / aclmdlExecuteAsync: validate the datasets against the model
// (counts, sizes, the dynamic profile chosen through ascend_mbatch_shape_data),
// allocate (0, 0) output buffers, then run Model::run as a stream task.
// aclmdlExecute runs that task on the calling thread when the default stream is
// idle (Stream::run_and_wait), so a synchronous execute costs what the graph
// costs: no hand-off to a drainer, no wake-ups, no allocation per call.
#include <cstring>
#include <vector>

#include "acl/acl_mdl.h"
#include "capi/api_guard.h"
#include "capi/data_buffer_view.h"
#include "capi/mdl_dynamic.h"
#include "capi/mdl_state.h"
#include "common/error.h"
#include "runtime/context.h"
#include "runtime/device.h"
#include "runtime/runtime.h"
#include "runtime/stream.h"

using acl_sim::capi::api_call;

namespace acl_sim {
namespace {

struct PreparedRun {
  std::shared_ptr<LoadedModel> lm;
  std::shared_ptr<aclmdlDataset> out_ds;  // kept for run-time output dims (publish_output_dims)
  size_t profile = 0;
  std::vector<void*> inputs, outputs;
};

/** Model::run; a model with run-time output dims also records them for aclmdlGetCurOutputDims and
 *  the output dataset's tensor descs. */
void execute(const PreparedRun& run) {
  const Model& m = *run.lm->model;
  if (!m.has_runtime_output_dims()) {
    m.run(run.profile, run.inputs, run.outputs);
    return;
  }
  std::vector<std::vector<int64_t>> dims;
  m.run(run.profile, run.inputs, run.outputs, &dims);
  publish_output_dims(*run.out_ds, m.io(), dims);
  run.lm->profile->record(std::move(dims));
}

// Fills @p run (its vectors keep their capacity from earlier calls).
void prepare(uint32_t model_id, const aclmdlDataset* input, aclmdlDataset* output, PreparedRun& run) {
  Runtime::get().require_initialized();
  run.inputs.clear();
  run.outputs.clear();
  run.lm = ModelTable::instance().require(model_id);
  const Model& m = *run.lm->model;
  const ModelIO& io = m.io();
  auto in_ds = require_dataset(input, "input");
  auto out_ds = require_dataset(output, "output");
  run.out_ds = out_ds;
  ACL_SIM_REQUIRE(in_ds->buffers.size() == io.inputs.size(), ACL_ERROR_MODEL_INPUT_NOT_MATCH, "the model has ",
                  io.inputs.size(), " inputs", io.dynamic.kind != DynamicKind::None ? " (including ascend_mbatch_shape_data)" : "",
                  ", the input dataset has ", in_ds->buffers.size(), " buffers");
  ACL_SIM_REQUIRE(out_ds->buffers.size() == io.outputs.size(), ACL_ERROR_MODEL_OUTPUT_NOT_MATCH, "the model has ",
                  io.outputs.size(), " outputs, the output dataset has ", out_ds->buffers.size(), " buffers");
  run.profile = selected_profile(m, *in_ds);

  const std::vector<size_t>& in_sizes = m.input_sizes(run.profile);
  for (size_t i = 0; i < io.inputs.size(); ++i) {
    capi::BufferView b = capi::view_data_buffer(in_ds->buffers[i], "input buffer");
    ACL_SIM_REQUIRE(b.addr != nullptr || in_sizes[i] == 0, ACL_ERROR_MODEL_INPUT_NOT_MATCH, "input ", i, " ('",
                    io.inputs[i].name, "') buffer has a NULL address");
    ACL_SIM_REQUIRE(b.size >= in_sizes[i], ACL_ERROR_MODEL_INPUT_NOT_MATCH, "input ", i, " ('", io.inputs[i].name,
                    "') expects ", in_sizes[i], " bytes, buffer has ", b.size);
    run.inputs.push_back(b.addr);
  }
  const std::vector<size_t>& out_sizes = m.output_sizes(run.profile);
  for (size_t i = 0; i < io.outputs.size(); ++i) {
    aclDataBuffer* buf = out_ds->buffers[i];
    capi::BufferView b = capi::view_data_buffer(buf, "output buffer");
    if (b.addr == nullptr && b.size == 0) {
      // CANN allocates outputs given as (0, 0); the user frees them and resets the buffer.
      size_t size = io.outputs[i].size;
      ACL_SIM_REQUIRE(size > 0, ACL_ERROR_INVALID_PARAM, "output ", i, " has size 0: it cannot be allocated");
      void* p = require_context().device().pool().allocate(size);  // as aclrtMalloc(HUGE_FIRST)
      capi::update_data_buffer(buf, p, size, "output buffer");
      b = {p, size};
    }
    ACL_SIM_REQUIRE(b.addr != nullptr, ACL_ERROR_MODEL_OUTPUT_NOT_MATCH, "output ", i, " ('", io.outputs[i].name,
                    "') buffer has a NULL address");
    ACL_SIM_REQUIRE(b.size >= out_sizes[i], ACL_ERROR_MODEL_OUTPUT_NOT_MATCH, "output ", i, " ('",
                    io.outputs[i].name, "') expects ", out_sizes[i], " bytes, buffer has ", b.size);
    run.outputs.push_back(b.addr);
  }
}

void run_now(const PreparedRun& run) {
  run.lm->profile->current.store(static_cast<int64_t>(run.profile));
  run.lm->begin_run();
  struct Done {
    LoadedModel* lm;
    ~Done() { lm->end_run(); }
  } done{run.lm.get()};
  execute(run);
}

void enqueue(PreparedRun run, Stream& stream) {
  run.lm->profile->current.store(static_cast<int64_t>(run.profile));
  run.lm->begin_run();
  std::shared_ptr<LoadedModel> lm = run.lm;
  try {
    stream.enqueue("model_execute", [run = std::move(run)] {
      struct Done {
        LoadedModel* lm;
        ~Done() { lm->end_run(); }
      } done{run.lm.get()};
      execute(run);
    });
  } catch (...) {
    lm->end_run();
    throw;
  }
}

}  // namespace
}  // namespace acl_sim

extern "C" {

aclError aclmdlExecute(uint32_t modelId, const aclmdlDataset* input, aclmdlDataset* output) {
  return api_call("aclmdlExecute", [&] {
    // One PreparedRun per thread, reused so that steady-state executes allocate nothing; a nested
    // call (none is expected) falls back to its own.
    thread_local acl_sim::PreparedRun cached;
    thread_local bool cached_busy = false;
    acl_sim::PreparedRun local;
    acl_sim::PreparedRun& run = cached_busy ? local : cached;
    struct Release {
      acl_sim::PreparedRun& run;
      bool owns;
      ~Release() {
        run.lm.reset();  // the model may be unloaded after this call returns
        run.out_ds.reset();
        if (owns) cached_busy = false;
      }
    } release{run, !cached_busy};
    cached_busy = true;
    acl_sim::prepare(modelId, input, output, run);
    std::shared_ptr<acl_sim::Stream> s = acl_sim::resolve_stream(nullptr);
    if (s->capture()) {  // a capturing stream records a self-contained task (aclmdlRI replays it later)
      acl_sim::enqueue(run, *s);
      return;
    }
    s->run_and_wait("model_execute", [&run] { acl_sim::run_now(run); });
  });
}

aclError aclmdlExecuteAsync(uint32_t modelId, const aclmdlDataset* input, aclmdlDataset* output, aclrtStream stream) {
  return api_call("aclmdlExecuteAsync", [&] {
    acl_sim::PreparedRun run;
    acl_sim::prepare(modelId, input, output, run);
    acl_sim::enqueue(std::move(run), *acl_sim::resolve_stream(stream));
  });
}

}  // extern "C"
