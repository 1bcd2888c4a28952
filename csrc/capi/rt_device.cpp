// Devices: aclrtSetDevice ... aclrtSynchronizeDevice.
#include <cstdlib>

#include "capi/rt_common.h"
#include "runtime/context.h"

using namespace acl_sim;
using namespace acl_sim::capi;

extern "C" {

ACL_FUNC_VISIBILITY aclError aclrtSetDevice(int32_t deviceId) {
  return api_call("aclrtSetDevice", [&] {
    Device& dev = rt().device(deviceId);
    set_current_context(dev.retain_default_context());
  });
}

ACL_FUNC_VISIBILITY aclError aclrtResetDevice(int32_t deviceId) {
  return api_call("aclrtResetDevice", [&] {
    Runtime& r = rt();
    if (deviceId < 0 || static_cast<uint32_t>(deviceId) >= r.device_count())
      fail(ACL_ERROR_RT_INVALID_DEVICEID, "device id ", deviceId, " is out of range [0, ", r.device_count(), ")");
    Device* dev = r.opened_device(deviceId);
    if (!dev) return;  // never set: nothing to release
    std::shared_ptr<Context> def = dev->default_context();
    dev->release_default_context();
    // The calling thread gives up its binding to this device's default context.
    if (def && current_context_ptr() == def) set_current_context(nullptr);
  });
}

ACL_FUNC_VISIBILITY aclError aclrtGetDevice(int32_t* deviceId) {
  return api_call("aclrtGetDevice", [&] {
    require_not_null(deviceId, "deviceId");
    rt();
    *deviceId = require_context().device().id();
  });
}

ACL_FUNC_VISIBILITY aclError aclrtGetDeviceCount(uint32_t* count) {
  return api_call("aclrtGetDeviceCount", [&] {
    require_not_null(count, "count");
    *count = rt().device_count();
  });
}

ACL_FUNC_VISIBILITY aclError aclrtGetRunMode(aclrtRunMode* runMode) {
  return api_call("aclrtGetRunMode", [&] {
    require_not_null(runMode, "runMode");
    *runMode = ACL_HOST;  // the program runs on the host; devices sit behind (simulated) PCIe
  });
}

ACL_FUNC_VISIBILITY aclError aclrtSynchronizeDevice(void) {
  return api_call("aclrtSynchronizeDevice", [&] {
    rt();
    require_context().device().synchronize();
  });
}

ACL_FUNC_VISIBILITY aclError aclrtSynchronizeDeviceWithTimeout(int32_t timeout) {
  return api_call("aclrtSynchronizeDeviceWithTimeout", [&] {
    ACL_SIM_REQUIRE(timeout >= -1, ACL_ERROR_INVALID_PARAM, "timeout must be -1 (forever) or >= 0 ms, got ", timeout);
    rt();
    if (!require_context().device().synchronize_for(timeout))
      fail(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, "device did not finish within ", timeout, " ms");
  });
}

ACL_FUNC_VISIBILITY aclError aclrtDeviceGetStreamPriorityRange(int32_t* leastPriority, int32_t* greatestPriority) {
  return api_call("aclrtDeviceGetStreamPriorityRange", [&] {
    require_not_null(leastPriority, "leastPriority");
    require_not_null(greatestPriority, "greatestPriority");
    *leastPriority = 7;
    *greatestPriority = 0;
  });
}

}  // extern "C"
