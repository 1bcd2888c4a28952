// Host callbacks: aclrtSubscribeReport ... aclrtLaunchCallback.
#include "capi/rt_common.h"
#include "runtime/context.h"
#include "runtime/report.h"
#include "runtime/stream.h"

using namespace acl_sim;
using namespace acl_sim::capi;

extern "C" {

ACL_FUNC_VISIBILITY aclError aclrtSubscribeReport(uint64_t threadId, aclrtStream stream) {
  return api_call("aclrtSubscribeReport", [&] {
    rt();
    ReportRegistry::instance().subscribe(threadId, *resolve_stream(stream));
  });
}

ACL_FUNC_VISIBILITY aclError aclrtUnSubscribeReport(uint64_t threadId, aclrtStream stream) {
  return api_call("aclrtUnSubscribeReport", [&] {
    rt();
    ReportRegistry::instance().unsubscribe(threadId, *resolve_stream(stream));
  });
}

ACL_FUNC_VISIBILITY aclError aclrtProcessReport(int32_t timeout) {
  // Timeouts and "not subscribed yet" are routine for the polling loop: logged at INFO only.
  return api_call_quiet("aclrtProcessReport", [&] {
    ACL_SIM_REQUIRE(timeout == -1 || timeout > 0, ACL_ERROR_INVALID_PARAM, "timeout must be -1 (forever) or > 0 ms, got ",
                    timeout);
    // initialized(), not rt(): while aclFinalize drains the streams, report threads still run callbacks.
    ACL_SIM_REQUIRE(Runtime::get().initialized(), ACL_ERROR_UNINITIALIZE, "AscendCL is not initialized: call aclInit first");
    ReportRegistry::instance().process(timeout);
  });
}

ACL_FUNC_VISIBILITY aclError aclrtLaunchCallback(aclrtCallback fn, void* userData, aclrtCallbackBlockType blockType,
                                                 aclrtStream stream) {
  return api_call("aclrtLaunchCallback", [&] {
    ACL_SIM_REQUIRE(fn != nullptr, ACL_ERROR_INVALID_PARAM, "fn must not be NULL");
    ACL_SIM_REQUIRE(blockType == ACL_CALLBACK_BLOCK || blockType == ACL_CALLBACK_NO_BLOCK, ACL_ERROR_INVALID_PARAM,
                    "blockType ", static_cast<int>(blockType), " is not ACL_CALLBACK_BLOCK or ACL_CALLBACK_NO_BLOCK");
    rt();
    ReportRegistry::instance().launch(fn, userData, blockType == ACL_CALLBACK_BLOCK, *resolve_stream(stream));
  });
}

}  // extern "C"
