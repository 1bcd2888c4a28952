// The Unified Buffer of a simulated AI core. Blocks are logical and run on
// host pool threads, so each host thread owns one arena and lends it to the
// block it is running; the arena is as large as the biggest UB of any SoC
// profile, and the block sees only the launch device's UB size of it.
#pragma once

#include <cstddef>
#include <cstdint>

namespace acl_sim {

/** The calling thread's UB arena, at least @p size bytes, 64-byte aligned. Never freed while the thread lives. */
uint8_t* ub_arena_for_this_thread(size_t size);

}  // namespace acl_sim
