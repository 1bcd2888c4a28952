// The aclInit config file: {"dump": {...}, "profiler": {...},
// "max_opqueue_num": N, "err_msg_mode": "0"|"1"}. NULL, "" or "{}" mean
// defaults. Unknown keys are ignored, as CANN does.
#pragma once

#include <string>

#include "common/export.h"

namespace acl_sim {

/** Validate @p text without side effects. Throws Error: ACL_ERROR_PARSE_FILE (100006) for bad JSON,
 *  ACL_ERROR_INVALID_DUMP_CONFIG (100009), ACL_ERROR_INVALID_PROFILING_CONFIG (100010),
 *  ACL_ERROR_INVALID_MAX_OPQUEUE_NUM_CONFIG (148048). */
ACL_SIM_EXPORT void validate_init_config(const std::string& text);

/** Validate, then apply: configure dump, start the profiler when "profiler.switch" is "on",
 *  and start ACL_SIM_PROFILE / ACL_SIM_STATS_FILE sessions. Called by aclInit. */
void apply_init_config(const std::string& text);

/** Undo apply_init_config at aclFinalize: write profiles and stats, stop dumping. */
void finish_init_config();

}  // namespace acl_sim
