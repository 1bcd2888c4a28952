// The buffer every conv path keeps its repacked weights in (node cache: once
// per loaded model): 64-byte aligned, and backed by transparent huge pages
// where the host offers them, as device memory is (runtime/mem_pool.cpp).
//
// Why huge pages: a model's weights are streamed from DRAM once per inference
// (resnet50: ~100 MB against a 32 MB L3), and on 4 KiB pages a 4 MiB weight
// block costs 1024 TLB misses per conv. Device memory, where the original
// weights live, is on 2 MiB pages for the same reason. (Not separately
// measured: the A/B that showed the packed direct conv slower in a model was
// fixed by prefetching, conv_direct_packed.h.)
#pragma once

#include <cstddef>
#include <memory>

#include "kernels/node_cache.h"

namespace acl_sim {

class PackedWeights {
 public:
  /** Room for `floats` values (contents unspecified); throws std::bad_alloc. */
  explicit PackedWeights(size_t floats);
  float* data() { return data_.get(); }
  const float* data() const { return data_.get(); }
  size_t size() const { return size_; }

 private:
  struct Free {
    void operator()(float* p) const;
  };
  std::unique_ptr<float, Free> data_;
  size_t size_ = 0;
};

/** `floats` values written by fill(dst) into the node's cache slot once per loaded model; thread-safe. */
template <class Fill>
const float* packed_once(NodeCache& slot, size_t floats, Fill&& fill) {
  return slot
      .get<PackedWeights>([&] {
        PackedWeights p(floats);
        fill(p.data());
        return p;
      })
      .data();
}

}  // namespace acl_sim
