// Memory: aclrtMalloc* / aclrtFree*, aclrtMemcpy*, aclrtMemset*, aclrtGetMemInfo.
#include <cstring>

#include "capi/rt_common.h"
#include "runtime/context.h"
#include "runtime/stream.h"

using namespace acl_sim;
using namespace acl_sim::capi;

namespace {

const char* kind_name(int kind) {
  static const char* names[] = {"ACL_MEMCPY_HOST_TO_HOST",   "ACL_MEMCPY_HOST_TO_DEVICE",
                                "ACL_MEMCPY_DEVICE_TO_HOST", "ACL_MEMCPY_DEVICE_TO_DEVICE",
                                "ACL_MEMCPY_DEFAULT",        "ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE",
                                "ACL_MEMCPY_INNER_DEVICE_TO_DEVICE", "ACL_MEMCPY_INTER_DEVICE_TO_DEVICE"};
  return kind >= 0 && kind <= 7 ? names[kind] : "?";
}

void* device_malloc(size_t size, aclrtMemMallocPolicy policy, bool align32_only, void** out) {
  require_not_null(out, "devPtr");
  rt();
  ACL_SIM_REQUIRE(size > 0, ACL_ERROR_INVALID_PARAM, "size must be > 0");
  unsigned base = static_cast<unsigned>(policy) & 0xFFu;
  unsigned extra = static_cast<unsigned>(policy) & ~0xFFu;
  ACL_SIM_REQUIRE(base <= ACL_MEM_MALLOC_HUGE1G_ONLY_P2P &&
                      (extra & ~static_cast<unsigned>(ACL_MEM_TYPE_LOW_BAND_WIDTH | ACL_MEM_TYPE_HIGH_BAND_WIDTH)) == 0,
                  ACL_ERROR_INVALID_PARAM, "policy ", static_cast<int>(policy), " is not an aclrtMemMallocPolicy");
  // HUGE1G policies and aclrtMallocAlign32 round to 32 bytes without the extra 32-byte tail.
  bool pad = !align32_only && base != ACL_MEM_MALLOC_HUGE1G_ONLY && base != ACL_MEM_MALLOC_HUGE1G_ONLY_P2P;
  void* p = require_context().device().pool().allocate(size, pad);
  *out = p;
  return p;
}

/** Validate a copy: NULLs, count vs destMax, kind vs where the pointers live, device ranges. */
void check_copy(void* dst, size_t destMax, const void* src, size_t count, int kind, bool async) {
  require_not_null(dst, "dst");
  require_not_null(src, "src");
  ACL_SIM_REQUIRE(kind >= ACL_MEMCPY_HOST_TO_HOST && kind <= ACL_MEMCPY_INTER_DEVICE_TO_DEVICE, ACL_ERROR_INVALID_PARAM,
                  "kind ", kind, " is not an aclrtMemcpyKind");
  Runtime& r = rt();
  ACL_SIM_REQUIRE(count <= destMax, ACL_ERROR_RT_PARAM_INVALID, "count ", count, " > destMax ", destMax,
                  ": nothing was copied");
  Device* dd = r.find_device_of(dst);
  Device* sd = r.find_device_of(src);
  bool dst_dev = dd != nullptr, src_dev = sd != nullptr;
  bool ok = true;
  switch (kind) {
    case ACL_MEMCPY_HOST_TO_HOST: ok = !dst_dev && !src_dev; break;
    case ACL_MEMCPY_HOST_TO_DEVICE:
    case ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE: ok = dst_dev && !src_dev; break;
    case ACL_MEMCPY_DEVICE_TO_HOST: ok = !dst_dev && src_dev; break;
    case ACL_MEMCPY_DEVICE_TO_DEVICE: ok = dst_dev && src_dev; break;
    case ACL_MEMCPY_INNER_DEVICE_TO_DEVICE: ok = dst_dev && src_dev && dd == sd; break;
    case ACL_MEMCPY_INTER_DEVICE_TO_DEVICE: ok = dst_dev && src_dev; break;
    default: break;  // ACL_MEMCPY_DEFAULT: direction from the addresses
  }
  if (!ok)
    fail(ACL_ERROR_RT_PARAM_INVALID, "kind ", kind_name(kind), " does not match the addresses: dst ", dst, " is ",
         dst_dev ? "device" : "host", " memory, src ", src, " is ", src_dev ? "device" : "host", " memory");
  if (async && !dst_dev && !src_dev)
    fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "asynchronous host-to-host copies are not supported: use aclrtMemcpy");
  if (count == 0) return;
  if (dd) dd->pool().check_range(dst, count);
  if (sd) sd->pool().check_range(src, count);
}

void check_set(void* devPtr, size_t maxCount, size_t count) {
  require_not_null(devPtr, "devPtr");
  Runtime& r = rt();
  ACL_SIM_REQUIRE(count <= maxCount, ACL_ERROR_RT_PARAM_INVALID, "count ", count, " > maxCount ", maxCount,
                  ": nothing was set");
  // Device memory, or pinned host memory from aclrtMallocHost (CANN decides by the address); any
  // other host pointer is refused rather than written blindly.
  if (Device* d = r.find_device_of(devPtr)) {
    if (count) d->pool().check_range(devPtr, count);
  } else if (!r.holds_host_range(devPtr, count)) {
    fail(ACL_ERROR_RT_PARAM_INVALID, "devPtr ", devPtr, " is neither device memory (aclrtMalloc) nor host memory from "
         "aclrtMallocHost, or [devPtr, devPtr+", count, ") runs past its allocation");
  }
}

void check_2d(size_t dpitch, size_t spitch, size_t width, size_t height) {
  ACL_SIM_REQUIRE(width > 0 && height > 0, ACL_ERROR_INVALID_PARAM, "width and height must be > 0");
  ACL_SIM_REQUIRE(width <= dpitch && width <= spitch, ACL_ERROR_INVALID_PARAM, "width ", width,
                  " exceeds dpitch ", dpitch, " or spitch ", spitch);
}

void copy_2d(char* dst, size_t dpitch, const char* src, size_t spitch, size_t width, size_t height) {
  for (size_t row = 0; row < height; ++row) std::memmove(dst + row * dpitch, src + row * spitch, width);
}

}  // namespace

extern "C" {

ACL_FUNC_VISIBILITY aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy policy) {
  return api_call("aclrtMalloc", [&] { device_malloc(size, policy, false, devPtr); });
}

ACL_FUNC_VISIBILITY aclError aclrtMallocAlign32(void** devPtr, size_t size, aclrtMemMallocPolicy policy) {
  return api_call("aclrtMallocAlign32", [&] { device_malloc(size, policy, true, devPtr); });
}

ACL_FUNC_VISIBILITY aclError aclrtMallocCached(void** devPtr, size_t size, aclrtMemMallocPolicy policy) {
  return api_call("aclrtMallocCached", [&] { device_malloc(size, policy, false, devPtr); });
}

ACL_FUNC_VISIBILITY aclError aclrtMemFlush(void* devPtr, size_t size) {
  return api_call("aclrtMemFlush", [&] {
    require_not_null(devPtr, "devPtr");
    if (Device* d = rt().find_device_of(devPtr)) d->pool().check_range(devPtr, size);
  });
}

ACL_FUNC_VISIBILITY aclError aclrtMemInvalidate(void* devPtr, size_t size) {
  return api_call("aclrtMemInvalidate", [&] {
    require_not_null(devPtr, "devPtr");
    if (Device* d = rt().find_device_of(devPtr)) d->pool().check_range(devPtr, size);
  });
}

ACL_FUNC_VISIBILITY aclError aclrtFree(void* devPtr) {
  return api_call("aclrtFree", [&] {
    require_not_null(devPtr, "devPtr");
    Device* d = rt().find_device_of(devPtr);
    if (!d) fail(ACL_ERROR_RT_PARAM_INVALID, "pointer ", devPtr, " is not device memory (use aclrtFreeHost for host memory)");
    d->pool().free(devPtr);
  });
}

ACL_FUNC_VISIBILITY aclError aclrtMallocHost(void** hostPtr, size_t size) {
  return api_call("aclrtMallocHost", [&] {
    require_not_null(hostPtr, "hostPtr");
    *hostPtr = rt().malloc_host(size);
  });
}

ACL_FUNC_VISIBILITY aclError aclrtFreeHost(void* hostPtr) {
  return api_call("aclrtFreeHost", [&] {
    require_not_null(hostPtr, "hostPtr");
    rt().free_host(hostPtr);
  });
}

ACL_FUNC_VISIBILITY aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count,
                                         aclrtMemcpyKind kind) {
  return api_call("aclrtMemcpy", [&] {
    check_copy(dst, destMax, src, count, kind, false);
    if (count) std::memmove(dst, src, count);
  });
}

ACL_FUNC_VISIBILITY aclError aclrtMemcpyAsync(void* dst, size_t destMax, const void* src, size_t count,
                                              aclrtMemcpyKind kind, aclrtStream stream) {
  return api_call("aclrtMemcpyAsync", [&] {
    check_copy(dst, destMax, src, count, kind, true);
    auto s = resolve_stream(stream);
    if (count) s->enqueue("memcpy_async", [dst, src, count] { std::memmove(dst, src, count); });
  });
}

ACL_FUNC_VISIBILITY aclError aclrtMemcpy2d(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                                           size_t height, aclrtMemcpyKind kind) {
  return api_call("aclrtMemcpy2d", [&] {
    check_2d(dpitch, spitch, width, height);
    check_copy(dst, dpitch * (height - 1) + width, src, spitch * (height - 1) + width, kind, false);
    copy_2d(static_cast<char*>(dst), dpitch, static_cast<const char*>(src), spitch, width, height);
  });
}

ACL_FUNC_VISIBILITY aclError aclrtMemcpy2dAsync(void* dst, size_t dpitch, const void* src, size_t spitch,
                                                size_t width, size_t height, aclrtMemcpyKind kind, aclrtStream stream) {
  return api_call("aclrtMemcpy2dAsync", [&] {
    check_2d(dpitch, spitch, width, height);
    check_copy(dst, dpitch * (height - 1) + width, src, spitch * (height - 1) + width, kind, true);
    resolve_stream(stream)->enqueue("memcpy_async", [=] {
      copy_2d(static_cast<char*>(dst), dpitch, static_cast<const char*>(src), spitch, width, height);
    });
  });
}

ACL_FUNC_VISIBILITY aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count) {
  return api_call("aclrtMemset", [&] {
    check_set(devPtr, maxCount, count);
    if (count) std::memset(devPtr, value & 0xFF, count);
  });
}

ACL_FUNC_VISIBILITY aclError aclrtMemsetAsync(void* devPtr, size_t maxCount, int32_t value, size_t count,
                                              aclrtStream stream) {
  return api_call("aclrtMemsetAsync", [&] {
    check_set(devPtr, maxCount, count);
    auto s = resolve_stream(stream);
    // Two words of capture fit std::function's local storage: no heap allocation per task.
    // The fill byte rides in the top byte of the count (device ranges are far below 2^56).
    uint64_t packed = static_cast<uint64_t>(count) | (static_cast<uint64_t>(value & 0xFF) << 56);
    if (count) s->enqueue("memset_async", [devPtr, packed] {
      std::memset(devPtr, static_cast<int>(packed >> 56), static_cast<size_t>(packed & ((uint64_t(1) << 56) - 1)));
    });
  });
}

ACL_FUNC_VISIBILITY aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t* free, size_t* total) {
  return api_call("aclrtGetMemInfo", [&] {
    require_not_null(free, "free");
    require_not_null(total, "total");
    ACL_SIM_REQUIRE(attr >= ACL_DDR_MEM && attr <= ACL_HBM_MEM_P2P_HUGE1G, ACL_ERROR_INVALID_PARAM, "attr ",
                    static_cast<int>(attr), " is not an aclrtMemAttr");
    rt();
    // The simulated device has one memory; every attribute reports it.
    MemPool& pool = require_context().device().pool();
    size_t used = pool.used();
    *total = pool.capacity();
    *free = pool.capacity() - std::min(used, pool.capacity());
  });
}

}  // extern "C"
