// SoC profiles: the per-chip values of CANN's platform .ini files
// (platform_config/<SoC>.ini). Everything that depends on the chip
// (core counts, buffer sizes, device memory) reads them from here.
#pragma once

#include "runtime/export.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace acl_sim {

/** One chip's capabilities. Sizes in bytes, clock in MHz. */
struct ACL_SIM_RT_API SocProfile {
  const char* name;          // full soc_version, e.g. "Ascend910B1" (what aclrtGetSocName returns)
  const char* short_name;    // short soc_version, e.g. "Ascend910B"
  int npu_arch;              // 1001, 2002, 2201, 3002
  bool split_cores;          // true: separate AIC and AIV cores (910B, 910_93, 310B); false: coupled
  uint32_t cube_cores;       // AI cores (coupled) or AIC cores (split)
  uint32_t vector_cores;     // AIV cores (split) or extra vector cores (310P: 7); 0 when coupled without extras
  size_t ub_size;            // Unified Buffer per core
  size_t l1_size;
  size_t l0a_size, l0b_size, l0c_size;
  size_t l2_size;
  size_t memory_size;        // device (HBM/DDR) capacity
  uint32_t cube_freq_mhz;
  uint32_t ai_cpu_cores;
  size_t system_workspace;   // 16 MiB on 910B-class, 2 MiB otherwise

  /** Peak FP16 TFLOPS: cube cores x 4096 MAC/cycle x 2 x clock (the datasheet formula). */
  double peak_fp16_tflops() const { return cube_cores * 4096.0 * 2.0 * cube_freq_mhz * 1e6 / 1e12; }
};

/** Every profile of the reference table. */
ACL_SIM_RT_API const std::vector<SocProfile>& all_soc_profiles();
/** Profile by full or short name (case-sensitive), or nullptr. */
ACL_SIM_RT_API const SocProfile* find_soc_profile(const std::string& name);
/** The profile named by ACL_SIM_SOC (default Ascend910B1); unknown names fall back to the default with a warning. */
ACL_SIM_RT_API const SocProfile& current_soc();

}  // namespace acl_sim
