// Elementwise unary aclnn operators (aclnn/ops/unary.h).
#include "aclnn/ops/unary.h"
#include "aclnnop/aclnn_abs.h"
#include "capi/aclnn_guard.h"

using namespace acl_sim::aclnn;

extern "C" {

ACLNN_API aclnnStatus aclnnAbsGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                               aclOpExecutor** executor) {
  return acl_sim::capi::api_call("aclnnAbsGetWorkspaceSize", [&] {
    prepare("aclnnAbs", workspaceSize, executor,
            [&] { return plan_unary("aclnnAbs", "Abs", tensor_arg(self, "self"), tensor_arg(out, "out")); });
  });
}
ACLNN_EXECUTE(Abs)

}  // extern "C"
