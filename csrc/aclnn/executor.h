// aclOpExecutor: what aclnnXxxGetWorkspaceSize captured (copies of every operand) and the work to
// run, and the two phases every aclnn operator shares:
//
//   prepare(op, body)           GetWorkspaceSize: body validates the operands and returns a Plan
//                               (workspace bytes + the work, owning copies of what it needs);
//                               prepare registers the executor and returns its handle.
//   launch(op, ws, n, ex, s)    execute: validates the executor (live, made by @p op), the workspace
//                               and the stream, consumes the executor (unless repeatable) and
//                               enqueues the work on the stream. The task holds the executor, so
//                               it lives until the work ran (and a captured stream can replay it).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>

#include "aclnn/aclnn_base.h"
#include "common/handle_table.h"

namespace acl_sim::aclnn {

/** What the work sees when it runs (on a stream task). */
struct RunContext {
  void* workspace = nullptr;     // the caller's workspace (device memory), workspace_size bytes
  uint64_t workspace_size = 0;
};

/** GetWorkspaceSize's result: bytes of workspace the work needs, and the work itself. */
struct Plan {
  uint64_t workspace = 0;
  std::function<void(const RunContext&)> run;
};

}  // namespace acl_sim::aclnn

struct aclOpExecutor {
  const char* op = "";  // "aclnnAdd": the operator whose execute call may consume it
  int32_t device = -1;  // device of the calling thread's context at GetWorkspaceSize
  acl_sim::aclnn::Plan plan;
  std::atomic<bool> repeatable{false};
};

namespace acl_sim::aclnn {

HandleTable<aclOpExecutor>& executors();

/** GetWorkspaceSize's common part (throws ACLNN_* codes): checks the out-pointers, runs @p body
 *  (validation + capture), registers the executor. */
void prepare(const char* op, uint64_t* workspace_size, aclOpExecutor** executor, const std::function<Plan()>& body);

/** The execute call's whole body (throws ACLNN_* codes); see the file comment. */
void launch(const char* op, void* workspace, uint64_t workspace_size, aclOpExecutor* executor, aclrtStream stream);

}  // namespace acl_sim::aclnn
