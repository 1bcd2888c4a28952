// Huge-page backed weight buffers: see packed_weights.h.
#include "kernels/packed_weights.h"

#include <sys/mman.h>

#include <cstdlib>
#include <new>

namespace acl_sim {
namespace {

constexpr size_t kHugePage = size_t{2} << 20;

}  // namespace

PackedWeights::PackedWeights(size_t floats) : size_(floats) {
  size_t bytes = (floats == 0 ? 1 : floats) * sizeof(float);
  // Blocks of a huge page or more start on one and fill whole ones, so THP can back all of them.
  const size_t align = bytes >= kHugePage ? kHugePage : 64;
  bytes = (bytes + align - 1) / align * align;
  void* p = std::aligned_alloc(align, bytes);
  if (!p) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
  if (align == kHugePage) ::madvise(p, bytes, MADV_HUGEPAGE);  // advice only: 4 KiB pages still work
#endif
  data_.reset(static_cast<float*>(p));
}

void PackedWeights::Free::operator()(float* p) const { std::free(p); }

}  // namespace acl_sim
