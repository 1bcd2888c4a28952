#include "prof/sim_info.h"

namespace acl_sim::prof {

std::vector<SocProfile> soc_profiles() { return all_soc_profiles(); }
SocProfile current_soc_profile() { return current_soc(); }

}  // namespace acl_sim::prof
