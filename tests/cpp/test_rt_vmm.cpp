// Virtual memory (reserve / physical / map), peer access and stream capture through the C API.
#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "check.h"

static bool msg_has(const char* needle) {
  const char* m = aclGetRecentErrMsg();
  return m && std::strstr(m, needle) != nullptr;
}

static aclrtPhysicalMemProp device_prop(uint32_t id) {
  aclrtPhysicalMemProp p = {};
  p.handleType = ACL_MEM_HANDLE_TYPE_NONE;
  p.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
  p.memAttr = ACL_HBM_MEM_HUGE;
  p.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  p.location.id = id;
  return p;
}

static void test_virtual_memory(aclrtStream stream) {
  aclrtPhysicalMemProp prop = device_prop(0);
  size_t g = 0;
  CHECK(aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED, &g) == ACL_SUCCESS);
  CHECK(g == (2u << 20));
  CHECK(aclrtMemGetAllocationGranularity(nullptr, ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED, &g) != ACL_SUCCESS);

  size_t free0 = 0, total = 0;
  CHECK(aclrtGetMemInfo(ACL_HBM_MEM, &free0, &total) == ACL_SUCCESS);
  // A reservation as large as the device (ggml reserves the free memory) costs no device memory.
  void* va = nullptr;
  CHECK(aclrtReserveMemAddress(&va, total, 0, nullptr, 1) == ACL_SUCCESS && va != nullptr);
  CHECK(reinterpret_cast<uintptr_t>(va) % g == 0);
  size_t free1 = 0;
  CHECK(aclrtGetMemInfo(ACL_HBM_MEM, &free1, &total) == ACL_SUCCESS && free1 == free0);
  // aclrtMalloc still works next to it.
  void* plain = nullptr;
  CHECK(aclrtMalloc(&plain, 1024, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);

  aclrtDrvMemHandle h1 = nullptr, h2 = nullptr;
  CHECK(aclrtMallocPhysical(&h1, g, &prop, 0) == ACL_SUCCESS);
  CHECK(aclrtMallocPhysical(&h2, 2 * g, &prop, 0) == ACL_SUCCESS);
  CHECK(aclrtGetMemInfo(ACL_HBM_MEM, &free1, &total) == ACL_SUCCESS && free1 <= free0 - 3 * g);
  CHECK(aclrtMallocPhysical(&h1, g + 1, &prop, 0) == ACL_ERROR_INVALID_PARAM && msg_has("granularity"));

  // Unmapped reserved addresses are device memory that checks refuse.
  char host[256];
  CHECK(aclrtMemcpy(va, sizeof host, host, sizeof host, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS);
  CHECK(msg_has("mapped"));

  char* base = static_cast<char*>(va);
  CHECK(aclrtMapMem(base, g, 0, h1, 0) == ACL_SUCCESS);
  CHECK(aclrtMapMem(base + g, 2 * g, 0, h2, 0) == ACL_SUCCESS);
  CHECK(aclrtMapMem(base, g, 0, h2, 0) != ACL_SUCCESS);  // overlaps

  // A copy that straddles the two adjacent mappings, asynchronous on a stream, then back.
  std::vector<unsigned char> src(4096), dst(4096, 0);
  for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<unsigned char>(i * 7);
  char* straddle = base + g - 2048;
  CHECK(aclrtMemcpyAsync(straddle, src.size(), src.data(), src.size(), ACL_MEMCPY_HOST_TO_DEVICE, stream) == 0);
  CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
  CHECK(aclrtMemcpy(dst.data(), dst.size(), straddle, dst.size(), ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS);
  CHECK(std::memcmp(src.data(), dst.data(), src.size()) == 0);
  CHECK(aclrtMemset(base + 3 * g - 16, 16, 1, 17) != ACL_SUCCESS);  // past the mapped end

  // The content belongs to the physical memory: unmap h1 and map it elsewhere, the bytes follow.
  CHECK(aclrtFreePhysical(h1) != ACL_SUCCESS && msg_has("still mapped"));
  CHECK(aclrtReleaseMemAddress(va) != ACL_SUCCESS && msg_has("Unmap"));
  CHECK(aclrtUnmapMem(base) == ACL_SUCCESS);
  CHECK(aclrtMemcpy(dst.data(), 16, base, 16, ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS);
  char* later = base + 3 * g;
  CHECK(aclrtMapMem(later, g, 0, h1, 0) == ACL_SUCCESS);
  CHECK(aclrtMemcpy(dst.data(), 2048, later + g - 2048, 2048, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS);
  CHECK(std::memcmp(src.data(), dst.data(), 2048) == 0);

  CHECK(aclrtUnmapMem(later) == ACL_SUCCESS && aclrtUnmapMem(base + g) == ACL_SUCCESS);
  CHECK(aclrtUnmapMem(base + g) != ACL_SUCCESS);
  CHECK(aclrtFreePhysical(h1) == ACL_SUCCESS && aclrtFreePhysical(h2) == ACL_SUCCESS);
  CHECK(aclrtFreePhysical(h2) != ACL_SUCCESS);
  CHECK(aclrtReleaseMemAddress(va) == ACL_SUCCESS);
  CHECK(aclrtReleaseMemAddress(va) != ACL_SUCCESS);
  size_t free2 = 0;
  CHECK(aclrtFree(plain) == ACL_SUCCESS);
  CHECK(aclrtGetMemInfo(ACL_HBM_MEM, &free2, &total) == ACL_SUCCESS && free2 == free0);
}

static void test_peer_access() {
  int32_t can = -1;
  CHECK(aclrtDeviceCanAccessPeer(&can, 0, 1) == ACL_SUCCESS && can == 1);
  CHECK(aclrtDeviceCanAccessPeer(&can, 0, 0) == ACL_SUCCESS && can == 0);
  CHECK(aclrtDeviceCanAccessPeer(&can, 0, 100000) == ACL_ERROR_RT_INVALID_DEVICEID);
  CHECK(aclrtDeviceEnablePeerAccess(1, 0) == ACL_SUCCESS && aclrtDeviceEnablePeerAccess(1, 0) == ACL_SUCCESS);
  CHECK(aclrtDeviceEnablePeerAccess(1, 7) == ACL_ERROR_INVALID_PARAM);
  CHECK(aclrtDeviceDisablePeerAccess(1) == ACL_SUCCESS);
  CHECK(aclrtDeviceDisablePeerAccess(1) != ACL_SUCCESS && msg_has("not enabled"));
}

static void test_capture(aclrtStream stream) {
  int32_t* dev = nullptr;
  CHECK(aclrtMalloc(reinterpret_cast<void**>(&dev), 64, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
  CHECK(aclrtMemset(dev, 64, 0, 64) == ACL_SUCCESS);
  int32_t one[4] = {1, 2, 3, 4};
  aclmdlRICaptureStatus st;
  aclmdlRI got = nullptr;
  CHECK(aclmdlRICaptureGetInfo(stream, &st, &got) == ACL_SUCCESS && st == ACL_MODEL_RI_CAPTURE_STATUS_NONE);
  CHECK(aclmdlRICaptureBegin(stream, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) == ACL_SUCCESS);
  CHECK(aclmdlRICaptureBegin(stream, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) != ACL_SUCCESS);
  CHECK(aclmdlRICaptureGetInfo(stream, &st, &got) == ACL_SUCCESS && st == ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
  // Recorded, not run: device memory stays zero until the graph is executed.
  CHECK(aclrtMemcpyAsync(dev, 16, one, 16, ACL_MEMCPY_HOST_TO_DEVICE, stream) == ACL_SUCCESS);
  CHECK(aclrtMemcpyAsync(dev + 4, 16, dev, 16, ACL_MEMCPY_DEVICE_TO_DEVICE, stream) == ACL_SUCCESS);
  aclmdlRI graph = nullptr;
  CHECK(aclmdlRICaptureEnd(stream, &graph) == ACL_SUCCESS && graph == got);
  CHECK(aclmdlRICaptureEnd(stream, &graph) != ACL_SUCCESS);
  CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
  int32_t back[8] = {9, 9, 9, 9, 9, 9, 9, 9};
  CHECK(aclrtMemcpy(back, 32, dev, 32, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS);
  CHECK(back[0] == 0 && back[4] == 0);
  // Replayed twice; the second replay sees new host data (copies read their source when they run).
  CHECK(aclmdlRIExecuteAsync(graph, stream) == ACL_SUCCESS);
  CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
  CHECK(aclrtMemcpy(back, 32, dev, 32, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS);
  CHECK(back[0] == 1 && back[3] == 4 && back[4] == 1 && back[7] == 4);
  one[0] = 42;
  CHECK(aclmdlRIExecuteAsync(graph, stream) == ACL_SUCCESS);
  CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
  CHECK(aclrtMemcpy(back, 32, dev, 32, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS);
  CHECK(back[0] == 42 && back[4] == 42);
  CHECK(aclmdlRIDestroy(graph) == ACL_SUCCESS && aclmdlRIDestroy(graph) != ACL_SUCCESS);
  CHECK(aclmdlRIExecuteAsync(graph, stream) != ACL_SUCCESS);
  CHECK(aclmdlRICaptureBegin(nullptr, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) != ACL_SUCCESS);
  CHECK(aclmdlRICaptureBegin(stream, static_cast<aclmdlRICaptureMode>(9)) == ACL_ERROR_INVALID_PARAM);
  aclrtFree(dev);
}

int main() {
  CHECK(aclInit(nullptr) == ACL_SUCCESS);
  CHECK(aclrtSetDevice(0) == ACL_SUCCESS);
  aclrtStream stream = nullptr;
  CHECK(aclrtCreateStream(&stream) == ACL_SUCCESS);
  test_virtual_memory(stream);
  test_peer_access();
  test_capture(stream);
  // A reservation and a mapping left behind are released by aclFinalize.
  void* va = nullptr;
  aclrtPhysicalMemProp prop = device_prop(0);
  aclrtDrvMemHandle h = nullptr;
  CHECK(aclrtReserveMemAddress(&va, 4u << 20, 0, nullptr, 0) == ACL_SUCCESS);
  CHECK(aclrtMallocPhysical(&h, 2u << 20, &prop, 0) == ACL_SUCCESS && aclrtMapMem(va, 2u << 20, 0, h, 0) == ACL_SUCCESS);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  CHECK(aclFinalize() == ACL_SUCCESS);
  if (g_failures) std::fprintf(stderr, "%d check(s) failed\n", g_failures.load());
  return g_failures ? 1 : 0;
}
