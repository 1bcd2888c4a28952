// Work an op derives once from a loaded model's constant inputs (pre-packed
// or transformed weights), kept for as long as the model stays loaded.
//
// A model's weights never change while it is loaded, so an op may build,
// say, its GEMM weight panels on its first run and reuse them on every later
// run, from any workspace and any thread. Outside a model (aclop, aclnn,
// aclblas) there is no cache and an op works from its inputs every call.
// The memory is host memory beside the model; it is not charged to the
// device pool (real ATC writes such layouts into the .om's weight size).
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <memory>
#include <mutex>
#include <utility>

namespace acl_sim {

class NodeCache {
 public:
  NodeCache() = default;
  NodeCache(const NodeCache&) = delete;
  NodeCache& operator=(const NodeCache&) = delete;

  /**
   * The cached T, built by `build()` (returning a T) on the first call; concurrent first calls build it
   * once. A node always asks for the same T: the op that owns the node is the only user.
   */
  template <class T, class Build>
  const T& get(Build&& build) {
    if (const void* p = ready_.load(std::memory_order_acquire)) return *static_cast<const T*>(p);
    std::lock_guard<std::mutex> lock(mu_);
    if (!value_) {
      auto made = std::make_shared<T>(std::forward<Build>(build)());
      value_ = made;
      ready_.store(made.get(), std::memory_order_release);
    }
    return *static_cast<const T*>(value_.get());
  }

  /** Inputs below this index have a slot of their own (input_slot). */
  static constexpr size_t kInputSlots = 8;

  /**
   * A cache of its own for what the node derives from input k alone, whatever the op keeps in get(): the
   * fp32 copy of an fp16 / bf16 weight (gemm_tensor_io.h), which every op widens the same way. k <
   * kInputSlots; created empty on first use, thread-safe.
   */
  NodeCache& input_slot(size_t k) {
    if (NodeCache* s = slots_[k].load(std::memory_order_acquire)) return *s;
    std::lock_guard<std::mutex> lock(mu_);
    if (!owned_slots_[k]) {
      owned_slots_[k] = std::make_unique<NodeCache>();
      slots_[k].store(owned_slots_[k].get(), std::memory_order_release);
    }
    return *owned_slots_[k];
  }

 private:
  std::mutex mu_;
  std::shared_ptr<void> value_;
  std::atomic<const void*> ready_{nullptr};
  std::array<std::atomic<NodeCache*>, kInputSlots> slots_{};
  std::array<std::unique_ptr<NodeCache>, kInputSlots> owned_slots_;
};

}  // namespace acl_sim
