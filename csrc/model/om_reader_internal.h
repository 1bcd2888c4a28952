// Shared between the container reader (om_container.cpp) and the section
// parsers (om_sections.cpp); not used elsewhere.
#pragma once

#include <cstddef>
#include <cstdint>

namespace acl_sim {

constexpr uint32_t kSectionIoDesc = 1;
constexpr uint32_t kSectionGraph = 2;
constexpr uint32_t kSectionMemPlan = 3;
constexpr uint32_t kSectionWeights = 4;
constexpr uint32_t kSectionMeta = 5;
constexpr uint32_t kSectionKinds = 5;

/** Where each section kind lies in the image (index = kind; [0] unused). */
struct OmSections {
  bool present[kSectionKinds + 1] = {};
  uint64_t offset[kSectionKinds + 1] = {};
  uint64_t size[kSectionKinds + 1] = {};
};

/** Header, section table, bounds, overlaps and CRCs; throws ACL_ERROR_INVALID_FILE (100003). */
OmSections read_container(const uint8_t* data, size_t size);

}  // namespace acl_sim
