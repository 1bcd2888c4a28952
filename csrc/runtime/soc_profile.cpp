#include "runtime/soc_profile.h"

#include <cstdlib>
#include <mutex>

#include "common/log.h"

namespace acl_sim {
namespace {

constexpr size_t KiB = 1024;
constexpr size_t MiB = 1024 * KiB;
constexpr size_t GiB = 1024 * MiB;

// Values from CANN's platform_config/<SoC>.ini.
// Chips whose .ini gives no memory size get their board's public figure
// (910A/910ProB: 32 GiB HBM2).
std::vector<SocProfile> make_profiles() {
  //  name, short, arch, split, cube, vector, ub, l1, l0a, l0b, l0c, l2, mem, MHz, aicpu, workspace
  return {
      {"Ascend910A", "Ascend910", 1001, false, 32, 0, 256 * KiB, 1 * MiB, 64 * KiB, 64 * KiB, 256 * KiB, 32 * MiB,
       32 * GiB, 1000, 14, 2 * MiB},
      {"Ascend910ProB", "Ascend910", 1001, false, 30, 0, 256 * KiB, 1 * MiB, 64 * KiB, 64 * KiB, 256 * KiB, 32 * MiB,
       32 * GiB, 1150, 14, 2 * MiB},
      {"Ascend910B1", "Ascend910B", 2201, true, 24, 48, 192 * KiB, 512 * KiB, 64 * KiB, 64 * KiB, 128 * KiB,
       192 * MiB, 64 * GiB, 1850, 6, 16 * MiB},
      {"Ascend910B2", "Ascend910B", 2201, true, 24, 48, 192 * KiB, 512 * KiB, 64 * KiB, 64 * KiB, 128 * KiB,
       192 * MiB, 64 * GiB, 1800, 6, 16 * MiB},
      {"Ascend910B2C", "Ascend910B", 2201, true, 24, 48, 192 * KiB, 512 * KiB, 64 * KiB, 64 * KiB, 128 * KiB,
       192 * MiB, 64 * GiB, 1800, 6, 16 * MiB},
      {"Ascend910B3", "Ascend910B", 2201, true, 20, 40, 192 * KiB, 512 * KiB, 64 * KiB, 64 * KiB, 128 * KiB,
       192 * MiB, 64 * GiB, 1800, 6, 16 * MiB},
      {"Ascend910B4", "Ascend910B", 2201, true, 20, 40, 192 * KiB, 512 * KiB, 64 * KiB, 64 * KiB, 128 * KiB,
       96 * MiB, 32 * GiB, 1500, 6, 16 * MiB},
      {"Ascend910_9391", "Ascend910_93", 2201, true, 24, 48, 192 * KiB, 512 * KiB, 64 * KiB, 64 * KiB, 128 * KiB,
       192 * MiB, 64 * GiB, 1850, 6, 16 * MiB},
      {"Ascend310P3", "Ascend310P", 2002, false, 8, 7, 256 * KiB, 1 * MiB, 64 * KiB, 64 * KiB, 256 * KiB, 16 * MiB,
       24 * GiB, 1060, 8, 2 * MiB},
      {"Ascend310B1", "Ascend310B", 3002, true, 1, 1, 256 * KiB, 1 * MiB, 64 * KiB, 64 * KiB, 128 * KiB, 4 * MiB,
       32 * GiB, 1224, 4, 2 * MiB},
  };
}

}  // namespace

const std::vector<SocProfile>& all_soc_profiles() {
  static const std::vector<SocProfile> profiles = make_profiles();
  return profiles;
}

const SocProfile* find_soc_profile(const std::string& name) {
  for (const auto& p : all_soc_profiles())
    if (name == p.name) return &p;
  // Short names (e.g. "Ascend910B") pick the first chip of that family.
  for (const auto& p : all_soc_profiles())
    if (name == p.short_name) return &p;
  return nullptr;
}

const SocProfile& current_soc() {
  // Read once: the SoC cannot change under a running process.
  static const SocProfile* chosen = [] {
    const char* env = std::getenv("ACL_SIM_SOC");
    if (env && *env) {
      if (const SocProfile* p = find_soc_profile(env)) return p;
      ACL_SIM_LOG_WARN("RUNTIME", "ACL_SIM_SOC=", env, " is not a known SoC; using Ascend910B1");
    }
    return find_soc_profile("Ascend910B1");
  }();
  return *chosen;
}

}  // namespace acl_sim
