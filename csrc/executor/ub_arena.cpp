#include "executor/ub_arena.h"

#include <cstdlib>
#include <memory>
#include <new>

namespace acl_sim {
namespace {

struct Arena {
  uint8_t* data = nullptr;
  size_t size = 0;
  ~Arena() { std::free(data); }
};

thread_local Arena t_arena;

}  // namespace

uint8_t* ub_arena_for_this_thread(size_t size) {
  Arena& a = t_arena;
  if (a.size < size) {
    // Round to 64 KiB so profiles of 192 and 256 KiB share one allocation pattern.
    const size_t want = (size + 0xffff) & ~size_t{0xffff};
    void* p = std::aligned_alloc(64, want);
    if (!p) throw std::bad_alloc();
    std::free(a.data);
    a.data = static_cast<uint8_t*>(p);
    a.size = want;
  }
  return a.data;
}

}  // namespace acl_sim
