// ACL_SIM_STATS_FILE=path: a running process publishes its device usage
// (memory used, streams) to a JSON file twice a second, for `acl-sim smi`.
#pragma once

#include <string>

#include "common/export.h"

namespace acl_sim::prof {

/** JSON snapshot of the opened devices: {"pid":..,"soc":..,"devices":[{"id","memory_used","memory_total","streams"}]}. */
ACL_SIM_EXPORT std::string device_stats_json();
/** Start the publisher thread if ACL_SIM_STATS_FILE is set (aclInit). */
void start_stats_from_env();
/** Stop it and write a last snapshot (aclFinalize). */
void stop_stats();

}  // namespace acl_sim::prof
