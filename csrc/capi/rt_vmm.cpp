// Virtual memory (aclrtReserveMemAddress ... aclrtUnmapMem), peer access, and stream capture
// (aclmdlRICapture*, aclmdlRIExecuteAsync, aclmdlRIDestroy): acl/acl_rt_vmm.h.
#include "capi/rt_common.h"
#include "runtime/context.h"
#include "runtime/device.h"
#include "runtime/peer_access.h"
#include "runtime/stream.h"
#include "runtime/virtual_memory.h"

using namespace acl_sim;
using namespace acl_sim::capi;

namespace {

int32_t require_device_id(int64_t id, const char* what) {
  uint32_t n = rt().device_count();
  ACL_SIM_REQUIRE(id >= 0 && id < static_cast<int64_t>(n), ACL_ERROR_RT_INVALID_DEVICEID, what, " ", id,
                  " is not a device (", n, " devices)");
  return static_cast<int32_t>(id);
}

int32_t device_of_prop(const aclrtPhysicalMemProp* prop) {
  require_not_null(prop, "prop");
  ACL_SIM_REQUIRE(prop->location.type == ACL_MEM_LOCATION_TYPE_DEVICE, ACL_ERROR_INVALID_PARAM, "prop->location.type ",
                  static_cast<int>(prop->location.type), " is not supported (only ACL_MEM_LOCATION_TYPE_DEVICE)");
  ACL_SIM_REQUIRE(prop->handleType == ACL_MEM_HANDLE_TYPE_NONE || prop->handleType == ACL_MEM_HANDLE_TYPE_POSIX,
                  ACL_ERROR_INVALID_PARAM, "prop->handleType ", static_cast<int>(prop->handleType),
                  " is not an aclrtMemHandleType");
  ACL_SIM_REQUIRE(prop->allocationType == ACL_MEM_ALLOCATION_TYPE_PINNED, ACL_ERROR_INVALID_PARAM,
                  "prop->allocationType ", static_cast<int>(prop->allocationType), " is not ACL_MEM_ALLOCATION_TYPE_PINNED");
  return require_device_id(prop->location.id, "prop->location.id");
}

HandleTable<TaskGraph>& graphs() {
  static HandleTable<TaskGraph> t;
  return t;
}

}  // namespace

extern "C" {

ACL_FUNC_VISIBILITY aclError aclrtMemGetAllocationGranularity(aclrtPhysicalMemProp* prop,
                                                              aclrtMemGranularityOptions option, size_t* granularity) {
  return api_call("aclrtMemGetAllocationGranularity", [&] {
    require_not_null(granularity, "granularity");
    device_of_prop(prop);
    ACL_SIM_REQUIRE(option == ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM || option == ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED,
                    ACL_ERROR_INVALID_PARAM, "option ", static_cast<int>(option), " is not an aclrtMemGranularityOptions");
    *granularity = VirtualMemory::kGranularity;
  });
}

ACL_FUNC_VISIBILITY aclError aclrtReserveMemAddress(void** virPtr, size_t size, size_t alignment, void* expectPtr,
                                                    uint64_t flags) {
  return api_call("aclrtReserveMemAddress", [&] {
    require_not_null(virPtr, "virPtr");
    ACL_SIM_REQUIRE(expectPtr == nullptr, ACL_ERROR_INVALID_PARAM, "expectPtr must be NULL (fixed addresses are not supported)");
    ACL_SIM_REQUIRE(flags <= 1, ACL_ERROR_INVALID_PARAM, "flags ", flags, " is not a page type (0 or 1)");
    rt();
    *virPtr = VirtualMemory::instance().reserve(require_context().device().id(), size, alignment);
  });
}

ACL_FUNC_VISIBILITY aclError aclrtReleaseMemAddress(void* virPtr) {
  return api_call("aclrtReleaseMemAddress", [&] {
    require_not_null(virPtr, "virPtr");
    rt();
    VirtualMemory::instance().release(virPtr);
  });
}

ACL_FUNC_VISIBILITY aclError aclrtMallocPhysical(aclrtDrvMemHandle* handle, size_t size,
                                                 const aclrtPhysicalMemProp* prop, uint64_t flags) {
  return api_call("aclrtMallocPhysical", [&] {
    require_not_null(handle, "handle");
    rt();
    int32_t dev = device_of_prop(prop);
    ACL_SIM_REQUIRE(flags == 0, ACL_ERROR_INVALID_PARAM, "flags must be 0");
    *handle = VirtualMemory::instance().allocate_physical(dev, size);
  });
}

ACL_FUNC_VISIBILITY aclError aclrtFreePhysical(aclrtDrvMemHandle handle) {
  return api_call("aclrtFreePhysical", [&] {
    rt();
    VirtualMemory::instance().free_physical(handle);
  });
}

ACL_FUNC_VISIBILITY aclError aclrtMapMem(void* virPtr, size_t size, size_t offset, aclrtDrvMemHandle handle,
                                         uint64_t flags) {
  return api_call("aclrtMapMem", [&] {
    rt();
    ACL_SIM_REQUIRE(flags == 0, ACL_ERROR_INVALID_PARAM, "flags must be 0");
    VirtualMemory::instance().map(virPtr, size, offset, handle);
  });
}

ACL_FUNC_VISIBILITY aclError aclrtUnmapMem(void* virPtr) {
  return api_call("aclrtUnmapMem", [&] {
    rt();
    VirtualMemory::instance().unmap(virPtr);
  });
}

ACL_FUNC_VISIBILITY aclError aclrtDeviceCanAccessPeer(int32_t* canAccessPeer, int32_t deviceId, int32_t peerDeviceId) {
  return api_call("aclrtDeviceCanAccessPeer", [&] {
    require_not_null(canAccessPeer, "canAccessPeer");
    require_device_id(deviceId, "deviceId");
    require_device_id(peerDeviceId, "peerDeviceId");
    *canAccessPeer = deviceId != peerDeviceId ? 1 : 0;
  });
}

ACL_FUNC_VISIBILITY aclError aclrtDeviceEnablePeerAccess(int32_t peerDeviceId, uint32_t flags) {
  return api_call("aclrtDeviceEnablePeerAccess", [&] {
    ACL_SIM_REQUIRE(flags == 0, ACL_ERROR_INVALID_PARAM, "flags must be 0");
    require_device_id(peerDeviceId, "peerDeviceId");
    int32_t self = require_context().device().id();
    // Enabling access to the current device itself is a no-op (ggml-cann does it when both ends are one device).
    if (self != peerDeviceId) PeerAccess::instance().enable(self, peerDeviceId);
  });
}

ACL_FUNC_VISIBILITY aclError aclrtDeviceDisablePeerAccess(int32_t peerDeviceId) {
  return api_call("aclrtDeviceDisablePeerAccess", [&] {
    require_device_id(peerDeviceId, "peerDeviceId");
    int32_t self = require_context().device().id();
    if (self != peerDeviceId) PeerAccess::instance().disable(self, peerDeviceId);
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlRICaptureBegin(aclrtStream stream, aclmdlRICaptureMode mode) {
  return api_call("aclmdlRICaptureBegin", [&] {
    ACL_SIM_REQUIRE(mode >= ACL_MODEL_RI_CAPTURE_MODE_GLOBAL && mode <= ACL_MODEL_RI_CAPTURE_MODE_RELAXED,
                    ACL_ERROR_INVALID_PARAM, "mode ", static_cast<int>(mode), " is not an aclmdlRICaptureMode");
    rt();
    ACL_SIM_REQUIRE(stream != nullptr, ACL_ERROR_INVALID_PARAM,
                    "the default stream cannot be captured: capture a stream made by aclrtCreateStream");
    auto s = resolve_stream(stream);
    auto g = std::make_shared<TaskGraph>();
    s->begin_capture(g);
    graphs().add(std::move(g));
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlRICaptureGetInfo(aclrtStream stream, aclmdlRICaptureStatus* status,
                                                    aclmdlRI* modelRI) {
  return api_call("aclmdlRICaptureGetInfo", [&] {
    require_not_null(status, "status");
    rt();
    auto g = resolve_stream(stream)->capture();
    *status = g ? ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE : ACL_MODEL_RI_CAPTURE_STATUS_NONE;
    if (modelRI) *modelRI = g ? graphs().handle_of(g.get()) : nullptr;
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlRICaptureEnd(aclrtStream stream, aclmdlRI* modelRI) {
  return api_call("aclmdlRICaptureEnd", [&] {
    require_not_null(modelRI, "modelRI");
    rt();
    auto g = resolve_stream(stream)->end_capture();
    *modelRI = g ? graphs().handle_of(g.get()) : nullptr;  // the table keeps it alive
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlRIExecuteAsync(aclmdlRI modelRI, aclrtStream stream) {
  return api_call("aclmdlRIExecuteAsync", [&] {
    require_not_null(modelRI, "modelRI");
    rt();
    auto g = graphs().find(modelRI);
    ACL_SIM_REQUIRE(g != nullptr, ACL_ERROR_INVALID_PARAM, "modelRI ", modelRI,
                    " is not a live captured graph (never captured, or destroyed)");
    g->replay(*resolve_stream(stream));
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlRIDestroy(aclmdlRI modelRI) {
  return api_call("aclmdlRIDestroy", [&] {
    require_not_null(modelRI, "modelRI");
    ACL_SIM_REQUIRE(graphs().remove(modelRI) != nullptr, ACL_ERROR_INVALID_PARAM, "modelRI ", modelRI,
                    " is not a live captured graph (already destroyed?)");
  });
}

}  // extern "C"
