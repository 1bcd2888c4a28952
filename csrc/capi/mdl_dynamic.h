// Dynamic batch / image size / dims: the profile a dataset selects through
// its ascend_mbatch_shape_data buffer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "capi/mdl_state.h"

namespace acl_sim {

/** 0 for a static model; else the profile whose values the dataset's mbatch buffer holds.
 *  Throws 145013 when the buffer holds no compiled profile (no setter was called). */
size_t selected_profile(const Model& m, const aclmdlDataset& inputs);

}  // namespace acl_sim
