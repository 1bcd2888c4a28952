// Which SIMD instruction sets the kernels may use on this host.
//
// Detected once from CPUID (via the compiler's __builtin_cpu_supports). The
// environment variable ACL_SIM_KERNEL_ISA=scalar|avx2|avx512 caps the choice,
// so tests and benchmarks can exercise every code path on one machine.
#pragma once

#include "common/export.h"

namespace acl_sim {

enum class KernelIsa { kScalar = 0, kAvx2 = 1, kAvx512 = 2 };

struct CpuFeatures {
  bool avx2 = false;     // AVX2 + FMA + F16C
  bool avx512 = false;   // AVX-512 F, BW, VL, DQ (+ the AVX2 set)
  bool f16c = false;
  KernelIsa isa = KernelIsa::kScalar;  // best allowed ISA after the env cap
  long l2_bytes = 512 << 10;           // L2 cache per core (sysconf; 512 KiB when the host does not say)
  // AVX-512 executed on 256-bit units (AMD Zen 4, family 19h): a zmm FMA costs two ymm ones, so the FMA peak is
  // AVX2's and trading FMAs for memory traffic pays less than on Intel's full-width units. The conv path rules
  // measured on both kinds of host differ by it (conv_winograd.cpp, conv_pixel_major.cpp).
  bool avx512_double_pumped = false;
  /** The kernels run a SIMD body (AVX-512 or AVX2), not the portable loops. */
  bool vector_isa() const { return isa == KernelIsa::kAvx512 || isa == KernelIsa::kAvx2; }
};

/** Features of the host, computed once (thread-safe). */
ACL_SIM_EXPORT const CpuFeatures& cpu_features();

/** "scalar", "avx2" or "avx512". */
ACL_SIM_EXPORT const char* kernel_isa_name(KernelIsa isa);

}  // namespace acl_sim
