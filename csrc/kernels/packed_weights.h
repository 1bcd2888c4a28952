// The buffer every conv path keeps its repacked weights in (node cache: once
// per loaded model): 64-byte aligned, and backed by transparent huge pages
// where the host offers them, as device memory is (runtime/mem_pool.cpp).
//
// Why huge pages: a model's weights are streamed from DRAM once per inference
// (resnet50: ~100 MB against a 32 MB L3). On 4 KiB pages a 4 MiB weight
// block is 1024 TLB misses per conv; a 1x1 512->2048 conv at 7x7 ran ~7%
// slower in a model on a std::vector copy than on the original weights in
// device memory, which is on 2 MiB pages.
#pragma once

#include <cstddef>
#include <memory>

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

}  // namespace acl_sim
