// Compiling one loop body for the ISA this process runs its kernels on.
//
// Kernels hold their intrinsics in functions marked ACL_SIM_TARGET_AVX512 / ACL_SIM_TARGET_AVX2 and pick one by
// cpu_features().isa, so ACL_SIM_KERNEL_ISA reaches every kernel: an AVX2 benchmark row on an AVX-512 host runs
// AVX2 code throughout. (GCC's target_clones would not do: its resolver reads CPUID, not the cap.) Plain loops
// the compiler vectorises go through isa_call, which instantiates the loop's functor once per ISA.
#pragma once

#include "kernels/cpu_features.h"

#if defined(__x86_64__) || defined(__i386__)
#define ACL_SIM_ISA_X86 1
// The ISA sets cpu_features() checks for kAvx512 and kAvx2.
#define ACL_SIM_TARGET_AVX512 __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,avx2,fma,f16c")))
#define ACL_SIM_TARGET_AVX2 __attribute__((target("avx2,fma,f16c")))
#endif

namespace acl_sim {

#if defined(ACL_SIM_ISA_X86)
template <class K, class... A>
ACL_SIM_TARGET_AVX512 auto isa_call_avx512(const K& k, A... a) { return k(a...); }
template <class K, class... A>
ACL_SIM_TARGET_AVX2 auto isa_call_avx2(const K& k, A... a) { return k(a...); }
#endif

/**
 * k(a...) compiled for cpu_features().isa. k's operator() must be always_inline, so that its body is compiled
 * inside each ISA's instantiation rather than once for plain x86-64.
 */
template <class K, class... A>
inline auto isa_call(const K& k, A... a) {
#if defined(ACL_SIM_ISA_X86)
  switch (cpu_features().isa) {
    case KernelIsa::kAvx512: return isa_call_avx512(k, a...);
    case KernelIsa::kAvx2: return isa_call_avx2(k, a...);
    default: break;
  }
#endif
  return k(a...);
}

}  // namespace acl_sim
