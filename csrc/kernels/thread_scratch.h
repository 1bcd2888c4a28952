// Grow-only, 64-byte-aligned scratch buffers, one per thread and purpose
// (declare them `thread_local`): kernels reuse them across executes, so a
// steady-state model run allocates nothing.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <new>

namespace acl_sim {

template <class T>
struct Scratch {
  T* data = nullptr;
  size_t capacity = 0;
  Scratch() = default;
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  ~Scratch() { std::free(data); }
  /** At least n elements (contents unspecified; earlier contents are lost when it grows). */
  T* get(size_t n) {
    if (n > capacity) {
      std::free(data);
      data = nullptr;
      capacity = std::max(n, capacity * 2);
      const size_t bytes = (capacity * sizeof(T) + 63) / 64 * 64;
      data = static_cast<T*>(std::aligned_alloc(64, bytes));
      if (!data) {
        capacity = 0;
        throw std::bad_alloc();
      }
    }
    return data;
  }
};

}  // namespace acl_sim
