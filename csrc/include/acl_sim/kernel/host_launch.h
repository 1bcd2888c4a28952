/**
 * @file host_launch.h
 * acl_sim's launch entry for kernels linked into the host program, and the
 * ACLRT_LAUNCH_KERNEL(kernel)(blockDim, stream, args...) form CANN's build
 * generates (aclrtlaunch_<kernel>.h). Binary-loaded kernels use the CANN
 * runtime API in acl/acl_rt_kernel.h instead.
 *
 * Calling convention (both paths): each kernel parameter travels in one
 * 8-byte slot and the entry is called as void(uint64_t x N). That is exact
 * for pointer and integer parameters (GM_ADDR, uint32_t, ...), which is what
 * Ascend C kernels take; float or struct parameters by value are not
 * supported (pass them through the tiling struct).
 */
#ifndef ACL_SIM_KERNEL_HOST_LAUNCH_H_
#define ACL_SIM_KERNEL_HOST_LAUNCH_H_

#include <stddef.h>
#include <stdint.h>

#include "acl/acl_base.h"
#include "acl_sim/kernel/block_context.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Most parameters a kernel entry may take. */
#define ACL_SIM_KERNEL_MAX_ARGS 32

/**
 * Enqueue @p entry (a kernel function in this process) on @p stream as one
 * task running @p blockDim blocks over the host pool. @p enter is the
 * module's acl_sim_kernel_enter_block (NULL if the kernel uses no kernel API).
 * @p args holds @p numArgs 8-byte slots; they are copied before returning.
 * Returns 107000 for blockDim outside [1, 65535] or too many args.
 */
ACL_FUNC_VISIBILITY aclError aclsimLaunchKernelDirect(const char* name, void* entry, acl_sim_enter_block_fn enter,
                                                      uint32_t blockDim, aclrtStream stream, const uint64_t* args,
                                                      size_t numArgs);

/** Launch a function handle from aclrtBinaryGetFunction with raw 8-byte argument slots (used by Python). */
ACL_FUNC_VISIBILITY aclError aclsimLaunchFunction(void* funcHandle, uint32_t blockDim, aclrtStream stream,
                                                  const uint64_t* args, size_t numArgs);

#ifdef __cplusplus
}  // extern "C"

#include <type_traits>

namespace acl_sim {
namespace kernel {

template <class T>
uint64_t to_slot(T v) {
  static_assert(std::is_pointer_v<T> || (std::is_integral_v<T> && sizeof(T) <= 8) || std::is_enum_v<T>,
                "kernel parameters must be pointers or integers (put floats and structs in the tiling data)");
  if constexpr (std::is_pointer_v<T>) {
    return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(v));
  } else {
    return static_cast<uint64_t>(v);
  }
}

template <class F>
struct DirectLauncher;

/** Bound to one kernel function; call with (blockDim, stream, kernel args...). Returns an aclError. */
template <class... P>
struct DirectLauncher<void(P...)> {
  void (*fn)(P...);
  const char* name;

  template <class... A>
  uint32_t operator()(uint32_t blockDim, aclrtStream stream, A... args) const {
    static_assert(sizeof...(A) == sizeof...(P), "ACLRT_LAUNCH_KERNEL: wrong number of kernel arguments");
    const uint64_t slots[sizeof...(P) + 1] = {to_slot(static_cast<P>(args))..., 0};
    return static_cast<uint32_t>(aclsimLaunchKernelDirect(name, reinterpret_cast<void*>(fn), &acl_sim_kernel_enter_block,
                                                          blockDim, stream, slots, sizeof...(P)));
  }
};

template <class... P>
DirectLauncher<void(P...)> make_launcher(void (*fn)(P...), const char* name) {
  return DirectLauncher<void(P...)>{fn, name};
}

}  // namespace kernel
}  // namespace acl_sim

/** ACLRT_LAUNCH_KERNEL(add_custom)(blockDim, stream, x, y, z, tiling): launch a kernel linked into this program. */
#define ACLRT_LAUNCH_KERNEL(kernel_func) ::acl_sim::kernel::make_launcher(&(kernel_func), #kernel_func)
#endif  // __cplusplus

#endif  // ACL_SIM_KERNEL_HOST_LAUNCH_H_
