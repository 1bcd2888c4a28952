// The C boundary of the aclnn operators: every aclnn entry point runs through api_call (codes +
// aclGetRecentErrMsg), and these macros give each operator's execute function, and the pair of
// functions of an operator acl_sim declares but does not implement yet.
#pragma once

#include "aclnn/aclnn_base.h"
#include "aclnn/executor.h"
#include "aclnn/status.h"
#include "aclnn/tensor_arg.h"
#include "capi/api_guard.h"

#define ACLNN_UNPAREN(...) __VA_ARGS__

/** aclnn<Name>(workspace, workspaceSize, executor, stream): validates and enqueues the executor's work. */
#define ACLNN_EXECUTE(Name)                                                                                       \
  ACLNN_API aclnnStatus aclnn##Name(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,              \
                                    aclrtStream stream) {                                                          \
    return ::acl_sim::capi::api_call("aclnn" #Name, [&] {                                                          \
      ::acl_sim::aclnn::launch("aclnn" #Name, workspace, workspaceSize, executor, stream);                         \
    });                                                                                                            \
  }

/** Both entry points of an implemented operator: aclnn<Name>GetWorkspaceSize(Params..., workspaceSize, executor)
 *  runs prepare() with the Plan that the expression after Params builds (it sees `op`, "aclnn<Name>", and the
 *  parameters), and aclnn<Name> is ACLNN_EXECUTE. */
#define ACLNN_OPERATOR(Name, Params, ...)                                                                        \
  ACLNN_API aclnnStatus aclnn##Name##GetWorkspaceSize(ACLNN_UNPAREN Params, uint64_t* workspaceSize,              \
                                                      aclOpExecutor** executor) {                                  \
    return ::acl_sim::capi::api_call("aclnn" #Name "GetWorkspaceSize", [&] {                                       \
      ::acl_sim::aclnn::prepare("aclnn" #Name, workspaceSize, executor, [&] {                                      \
        [[maybe_unused]] const char* op = "aclnn" #Name;                                                           \
        return __VA_ARGS__;                                                                                        \
      });                                                                                                          \
    });                                                                                                            \
  }                                                                                                                \
  ACLNN_EXECUTE(Name)
