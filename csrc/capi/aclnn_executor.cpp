// aclOpExecutor management and aclnnInit/aclnnFinalize (aclnn/aclnn_base.h).
#include "aclnn/executor.h"
#include "aclnn/status.h"
#include "capi/api_guard.h"

using namespace acl_sim;
using namespace acl_sim::aclnn;
using acl_sim::capi::api_call;

extern "C" {

ACLNN_API aclnnStatus aclSetAclOpExecutorRepeatable(aclOpExecutor* executor) {
  return api_call("aclSetAclOpExecutorRepeatable", [&] {
    require_present(executor, "executor");
    auto ex = executors().find(executor);
    ACLNN_REQUIRE(ex != nullptr, "executor ", static_cast<const void*>(executor), " is not a live aclOpExecutor");
    ex->repeatable.store(true);
  });
}

ACLNN_API aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor* executor) {
  return api_call("aclDestroyAclOpExecutor", [&] {
    require_present(executor, "executor");
    ACLNN_REQUIRE(executors().remove(executor) != nullptr, "executor ", static_cast<const void*>(executor),
                  " is not a live aclOpExecutor (already executed or destroyed)");
  });
}

// acl_sim's operators need no operator package: init and finalize only validate.
ACLNN_API aclnnStatus aclnnInit(const char*) { return ACLNN_SUCCESS; }
ACLNN_API aclnnStatus aclnnFinalize(void) { return ACLNN_SUCCESS; }

}  // extern "C"
