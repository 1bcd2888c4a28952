// Shapes as every layer writes them: std::vector<int64_t> dims, row-major.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace acl_sim {

/** Product of dims; 0 if any dim is negative (dynamic or unknown rank). */
int64_t element_count(const std::vector<int64_t>& dims);
/** "[1,3,224,224]" for messages. */
std::string dims_to_string(const std::vector<int64_t>& dims);

}  // namespace acl_sim
