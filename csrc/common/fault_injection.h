// Fault injection for hardening tests: switches that make the runtime fail the
// way real hardware and real clusters fail, so tests can prove each failure
// surfaces as the documented error, nothing deadlocks, and the runtime stays
// usable afterwards. Off by default; each hook costs one relaxed atomic load.
//
// Switches (environment, read once at first use, or set_fault() at any time):
//   ACL_SIM_FAULT_ALLOC_FAIL_AT=N    the N-th device allocation from now fails (207001), once
//   ACL_SIM_FAULT_STALL_TASK_MS=MS   the next stream task waits MS ms before it runs, once
//   ACL_SIM_FAULT_HCCL_ABSENT_RANK=R collectives issued by rank R are dropped: the rank
//                                    "never arrives" and its peers time out (HCCL_E_TIMEOUT)
//                                    after HCCL_EXEC_TIMEOUT; persistent until set to -1
#pragma once

#include <cstdint>
#include <string>

#include "common/export.h"

namespace acl_sim::fault {

// Sets a switch by name ("alloc_fail_at", "stall_task_ms", "hccl_absent_rank");
// value <= 0 (or -1 for the rank) turns it off. Returns false for an unknown name.
ACL_SIM_EXPORT bool set_fault(const std::string& name, int64_t value);

// Turns every switch off.
ACL_SIM_EXPORT void clear_faults();

// Called once per device allocation; true when this one must fail.
bool alloc_should_fail();

// Called by a stream drainer before each task, outside every lock.
void maybe_stall_task();

// True when collectives of this rank must be dropped.
bool hccl_rank_absent(uint32_t rank);

}  // namespace acl_sim::fault
