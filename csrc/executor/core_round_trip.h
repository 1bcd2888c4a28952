// How far apart the host placed two of the process's CPUs: the round trip of one cache line between two
// threads pinned to them (a diagnostic for benchmark reports, not used by the pool).
//
// On a VM the answer can change under a running process. The 2-vCPU Zen 4 VM of stops 22-39 moved between
// 50-65 ns (both vCPUs on one CCD, one shared L3) and 300-350 ns (two CCDs) every minute or so, and a model's
// time with them: light_inception_v2 15.4 ms against 21.5 ms, onnxruntime's 21 against 25 (docs/perf_history.md,
// "Stop 39"). Benchmarks print it before and after each row so the two host states are told apart.
#pragma once

#include "common/export.h"

namespace acl_sim {

/**
 * Median nanoseconds of one cache-line round trip between threads pinned to the first two CPUs the process may
 * run on, over `rounds` round trips in a few batches; -1 when the process has fewer than two CPUs or cannot pin.
 */
ACL_SIM_EXPORT double core_round_trip_ns(int rounds);

}  // namespace acl_sim
