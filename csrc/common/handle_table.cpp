#include "common/handle_table.h"

#include <atomic>

namespace acl_sim {

uintptr_t next_handle_value() {
  // Bit 52 makes the value a non-canonical address on x86-64 (and unmapped on
  // 48-bit aarch64); steps of 16 keep handles aligned like real pointers.
  constexpr uintptr_t kBase = uintptr_t(1) << 52;
  static std::atomic<uintptr_t> next{1};
  return kBase | (next.fetch_add(1, std::memory_order_relaxed) << 4);
}

}  // namespace acl_sim
