#include "kernels/cpu_features.h"

#include <cstdlib>
#include <cstring>

#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace acl_sim {
namespace {

CpuFeatures detect() {
  CpuFeatures f;
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  // The sets the kernels are compiled for (isa_target.h): AVX-512 with BW/VL/DQ (not Knights Landing's bare F).
  f.f16c = __builtin_cpu_supports("f16c");
  f.avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && f.f16c;
  f.avx512 = f.avx2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
             __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq");
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (f.avx512 && __builtin_cpu_is("amd") && __get_cpuid(1, &eax, &ebx, &ecx, &edx)) {
    const unsigned family = ((eax >> 8) & 0xf) + ((eax >> 20) & 0xff);
    f.avx512_double_pumped = family == 0x19;  // Zen 4 (Zen 3, also 19h, has no AVX-512; Zen 5 is 1Ah)
  }
#endif
#if defined(_SC_LEVEL2_CACHE_SIZE)
  const long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
  if (l2 > 0) f.l2_bytes = l2;
#endif
  f.isa = f.avx512 ? KernelIsa::kAvx512 : f.avx2 ? KernelIsa::kAvx2 : KernelIsa::kScalar;
  // The env var only lowers the level: asking for an ISA the CPU lacks keeps the detected one.
  if (const char* cap = std::getenv("ACL_SIM_KERNEL_ISA")) {
    KernelIsa want = f.isa;
    if (std::strcmp(cap, "scalar") == 0) want = KernelIsa::kScalar;
    else if (std::strcmp(cap, "avx2") == 0) want = KernelIsa::kAvx2;
    else if (std::strcmp(cap, "avx512") == 0) want = KernelIsa::kAvx512;
    if (static_cast<int>(want) < static_cast<int>(f.isa)) f.isa = want;
  }
  return f;
}

}  // namespace

const CpuFeatures& cpu_features() {
  static const CpuFeatures features = detect();
  return features;
}

const char* kernel_isa_name(KernelIsa isa) {
  switch (isa) {
    case KernelIsa::kAvx512: return "avx512";
    case KernelIsa::kAvx2: return "avx2";
    default: return "scalar";
  }
}

}  // namespace acl_sim
