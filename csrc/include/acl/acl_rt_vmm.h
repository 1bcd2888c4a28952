/**
 * @file acl_rt_vmm.h
 * Virtual memory, peer access and stream capture (aclmdlRI) of the runtime. CANN declares these in
 * acl_rt.h; acl_sim keeps them in this file, which acl_rt.h includes. Names and values are CANN's.
 */
#ifndef ACL_SIM_ACL_RT_VMM_H_
#define ACL_SIM_ACL_RT_VMM_H_

#include "acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- virtual memory ----------------------------------------------------- */
typedef enum aclrtMemLocationType {
  ACL_MEM_LOCATION_TYPE_HOST = 0,
  ACL_MEM_LOCATION_TYPE_DEVICE = 1,
  ACL_MEM_LOCATION_TYPE_UNREGISTERED = 2,
  ACL_MEM_LOCATION_TYPE_MANAGED = 3,
  ACL_MEM_LOCATION_TYPE_HOST_NUMA = 4
} aclrtMemLocationType;

typedef struct aclrtMemLocation {
  uint32_t id;
  aclrtMemLocationType type;
} aclrtMemLocation;

typedef enum aclrtMemAllocationType { ACL_MEM_ALLOCATION_TYPE_PINNED = 0 } aclrtMemAllocationType;
typedef enum aclrtMemHandleType { ACL_MEM_HANDLE_TYPE_NONE = 0, ACL_MEM_HANDLE_TYPE_POSIX = 2 } aclrtMemHandleType;

/** Properties of a physical allocation (aclrtMallocPhysical, aclrtMemGetAllocationGranularity). */
typedef struct aclrtPhysicalMemProp {
  aclrtMemHandleType handleType;
  aclrtMemAllocationType allocationType;
  aclrtMemAttr memAttr;
  aclrtMemLocation location; /* acl_sim: type ACL_MEM_LOCATION_TYPE_DEVICE, id a device id */
  uint64_t reserve;
} aclrtPhysicalMemProp;

typedef enum aclrtMemGranularityOptions {
  ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM = 0,
  ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED = 1,
  ACL_RT_MEM_ALLOC_GRANULARITY_UNDEF = 0xFFFF
} aclrtMemGranularityOptions;

typedef void *aclrtDrvMemHandle;

/** Granularity of sizes, offsets and addresses of the calls below: 2 MiB for both options in acl_sim. */
ACL_FUNC_VISIBILITY aclError aclrtMemGetAllocationGranularity(aclrtPhysicalMemProp *prop,
                                                              aclrtMemGranularityOptions option, size_t *granularity);
/** Reserve address space on the current device (no memory behind it until aclrtMapMem). @p size is rounded up
 *  to the granularity; @p expectPtr must be NULL; @p flags 0 or 1 (page type; both give 2 MiB pages). */
ACL_FUNC_VISIBILITY aclError aclrtReserveMemAddress(void **virPtr, size_t size, size_t alignment, void *expectPtr,
                                                    uint64_t flags);
/** Release a reservation; every mapping in it must be unmapped first. */
ACL_FUNC_VISIBILITY aclError aclrtReleaseMemAddress(void *virPtr);
/** Allocate @p size bytes (a multiple of the granularity) of device memory without an address. @p flags 0. */
ACL_FUNC_VISIBILITY aclError aclrtMallocPhysical(aclrtDrvMemHandle *handle, size_t size,
                                                 const aclrtPhysicalMemProp *prop, uint64_t flags);
/** Free a physical allocation that is no longer mapped. */
ACL_FUNC_VISIBILITY aclError aclrtFreePhysical(aclrtDrvMemHandle handle);
/** Map [offset, offset+size) of @p handle at @p virPtr (inside a reservation of the same device). @p flags 0. */
ACL_FUNC_VISIBILITY aclError aclrtMapMem(void *virPtr, size_t size, size_t offset, aclrtDrvMemHandle handle,
                                         uint64_t flags);
/** Unmap the mapping that starts at @p virPtr. */
ACL_FUNC_VISIBILITY aclError aclrtUnmapMem(void *virPtr);

/* ---- peer access -------------------------------------------------------- */
/** *canAccessPeer = 1 when @p deviceId can access @p peerDeviceId's memory (any two distinct simulated devices). */
ACL_FUNC_VISIBILITY aclError aclrtDeviceCanAccessPeer(int32_t *canAccessPeer, int32_t deviceId, int32_t peerDeviceId);
/** Let the current device access @p peerDeviceId's memory. @p flags must be 0. Enabling twice is harmless. */
ACL_FUNC_VISIBILITY aclError aclrtDeviceEnablePeerAccess(int32_t peerDeviceId, uint32_t flags);
ACL_FUNC_VISIBILITY aclError aclrtDeviceDisablePeerAccess(int32_t peerDeviceId);

/* ---- stream capture (aclmdlRI: a captured task graph) ---------------------- */
typedef void *aclmdlRI;

typedef enum aclmdlRICaptureMode {
  ACL_MODEL_RI_CAPTURE_MODE_GLOBAL = 0,
  ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL,
  ACL_MODEL_RI_CAPTURE_MODE_RELAXED
} aclmdlRICaptureMode;

typedef enum aclmdlRICaptureStatus {
  ACL_MODEL_RI_CAPTURE_STATUS_NONE = 0,
  ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE,
  ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED
} aclmdlRICaptureStatus;

/** From now on, work enqueued on @p stream is recorded, not run. */
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureBegin(aclrtStream stream, aclmdlRICaptureMode mode);
/** Whether @p stream is capturing, and the graph being recorded. */
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureGetInfo(aclrtStream stream, aclmdlRICaptureStatus *status,
                                                    aclmdlRI *modelRI);
/** Stop recording; *modelRI receives the recorded graph. */
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureEnd(aclrtStream stream, aclmdlRI *modelRI);
/** Enqueue every recorded task, in order, on @p stream (asynchronous). */
ACL_FUNC_VISIBILITY aclError aclmdlRIExecuteAsync(aclmdlRI modelRI, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclmdlRIDestroy(aclmdlRI modelRI);

#ifdef __cplusplus
}
#endif

#endif  // ACL_SIM_ACL_RT_VMM_H_
