#include "aclnn/executor.h"

#include "acl/acl_rt.h"
#include "aclnn/status.h"
#include "runtime/context.h"
#include "runtime/device.h"
#include "runtime/runtime.h"
#include "runtime/stream.h"

namespace acl_sim::aclnn {

HandleTable<aclOpExecutor>& executors() {
  static HandleTable<aclOpExecutor> t;
  return t;
}

void prepare(const char* op, uint64_t* workspace_size, aclOpExecutor** executor, const std::function<Plan()>& body) {
  require_present(workspace_size, "workspaceSize");
  require_present(executor, "executor");
  Runtime::get().require_initialized();
  Context* ctx = current_context();
  ACL_SIM_REQUIRE(ctx != nullptr, ACLNN_ERR_RUNTIME_ERROR, op,
                  ": the calling thread has no context (call aclrtSetDevice first)");
  auto ex = std::make_shared<aclOpExecutor>();
  ex->op = op;
  ex->device = ctx->device().id();
  ex->plan = body();
  ACL_SIM_REQUIRE(static_cast<bool>(ex->plan.run), ACLNN_ERR_INNER, op, ": the operator planned no work");
  uint64_t ws = ex->plan.workspace;
  *executor = executors().add(std::move(ex));
  *workspace_size = ws;
}

void launch(const char* op, void* workspace, uint64_t workspace_size, aclOpExecutor* executor, aclrtStream stream) {
  require_present(executor, "executor");
  std::shared_ptr<aclOpExecutor> ex = executors().find(executor);
  ACL_SIM_REQUIRE(ex != nullptr, ACLNN_ERR_PARAM_INVALID, "executor ", static_cast<const void*>(executor),
                  " is not a live aclOpExecutor (already executed, destroyed, or never created)");
  ACL_SIM_REQUIRE(std::string(ex->op) == op, ACLNN_ERR_PARAM_INVALID, "executor was created by ", ex->op,
                  "GetWorkspaceSize, not by ", op, "GetWorkspaceSize");
  uint64_t need = ex->plan.workspace;
  ACL_SIM_REQUIRE(workspace_size >= need, ACLNN_ERR_PARAM_INVALID, "workspaceSize ", workspace_size, " is less than the ",
                  need, " bytes ", op, "GetWorkspaceSize asked for");
  if (need > 0) require_present(workspace, "workspace");
  std::shared_ptr<Stream> s;
  try {
    Runtime::get().require_initialized();
    s = resolve_stream(stream);
    if (need > 0) {
      Device* d = Runtime::get().find_device_of(workspace);
      ACL_SIM_REQUIRE(d != nullptr, ACL_ERROR_RT_PARAM_INVALID, "workspace ", workspace, " is not device memory");
      d->pool().check_range(workspace, need);
    }
  } catch (const Error& e) {
    fail(ACLNN_ERR_RUNTIME_ERROR, e.what(), " (runtime error ", e.code(), ")");
  }
  ACL_SIM_REQUIRE(s->device().id() == ex->device, ACLNN_ERR_PARAM_INVALID, "stream is on device ", s->device().id(),
                  " but the operands were prepared on device ", ex->device);
  if (!ex->repeatable.load()) executors().remove(executor);
  RunContext rc{workspace, workspace_size};
  s->enqueue("aclnn", [ex = std::move(ex), rc] { ex->plan.run(rc); });
}

}  // namespace acl_sim::aclnn
