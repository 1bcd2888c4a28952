// The one clock of the core: event timestamps (aclrtEventElapsedTime), profiler spans and the
// executor's reports to its observer all read it, so their times compare directly.
#pragma once

#include <chrono>
#include <cstdint>

namespace acl_sim {

/** steady_clock in nanoseconds since its epoch. Thread-safe, monotonic. */
inline uint64_t monotonic_ns() {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count());
}

}  // namespace acl_sim
