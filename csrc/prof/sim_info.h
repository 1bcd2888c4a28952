// Simulator introspection for tools (`acl-sim smi`, the roofline): copies of
// the SoC profiles, exported for _core.
#pragma once

#include <cstdint>
#include <vector>

#include "common/export.h"
#include "runtime/soc_profile.h"

namespace acl_sim::prof {

ACL_SIM_EXPORT std::vector<SocProfile> soc_profiles();
ACL_SIM_EXPORT SocProfile current_soc_profile();

}  // namespace acl_sim::prof
