// A device's memory: one reserved virtual range of the device's capacity,
// served by a caching allocator modelled on CANN's driver rounding and
// PyTorch's caching allocator.
//
// - The range is reserved PROT_NONE + MAP_NORESERVE, and made accessible one
//   segment at a time, so a 64 GiB device costs no RAM until memory is touched.
// - Requests round to ALIGN_UP(size,32)+32 (pad) or ALIGN_UP(size,32) and every
//   block starts 128-byte aligned.
// - Segments (2 MiB for small requests, 20 MiB for mid ones, the request
//   rounded to 2 MiB above) are split into blocks, best-fit, coalesced on reuse.
// - A freed block first goes to an exact-size cache bin, so a repeated
//   malloc/free of one size is O(1); bins are merged back into the coalesced
//   free set when a request misses.
// - On a capacity miss: merge bins, give fully free segments back (their RAM
//   too), retry; then fail with ACL_ERROR_RT_MEMORY_ALLOCATION (207001). The
//   pool stays usable.
#pragma once

#include "runtime/export.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <unordered_map>
#include <utility>
#include <vector>

namespace acl_sim {

class ACL_SIM_RT_API MemPool {
 public:
  /** Reserve @p capacity bytes of address space for device @p device_id (no RAM is committed). */
  MemPool(int32_t device_id, size_t capacity);
  ~MemPool();
  MemPool(const MemPool&) = delete;
  MemPool& operator=(const MemPool&) = delete;

  /** A block of at least ALIGN_UP(size,32)(+32 if @p pad) bytes, 128-byte aligned, uninitialised.
   *  Throws 207001 when the device is full (after releasing cached memory). Thread-safe. */
  void* allocate(size_t size, bool pad = true);
  /** Return @p p (the exact start of a live allocation) to the cache. Throws 107000 for an unknown or
   *  already-freed pointer. Thread-safe. */
  void free(void* p);
  /** Throws 107000 unless [p, p+n) lies inside one live allocation. Thread-safe. */
  void check_range(const void* p, size_t n) const;
  /** Usable bytes of the live allocation that contains @p p, counted from @p p; 0 if none. */
  size_t bytes_from(const void* p) const;
  /** True when @p p lies in this device's address range (live or not), or in one of its virtual
   *  reservations (mapped or not). Lock-free unless the device has virtual reservations. */
  bool contains(const void* p) const {
    auto a = reinterpret_cast<uintptr_t>(p);
    if (a >= base_ && a < base_ + capacity_) return true;
    return reservations_.load(std::memory_order_acquire) != 0 && in_reservation(a);
  }

  // Virtual memory (runtime/virtual_memory.h drives these): physical allocations take their bytes
  // from this pool's capacity; reserved address ranges and the mapped parts of them are device
  // memory of this device for contains() / check_range() / bytes_from().
  /** Take @p size bytes of capacity (counted in used()); returns a token for give_capacity. Throws 207001. */
  uintptr_t take_capacity(size_t size);
  void give_capacity(uintptr_t token, size_t size);
  void add_reservation(uintptr_t addr, size_t size);
  void remove_reservation(uintptr_t addr);
  /** [addr, addr+size) is mapped (accessible): check_range accepts ranges inside it. */
  void add_mapped(uintptr_t addr, size_t size);
  void remove_mapped(uintptr_t addr);

  /** Bytes in live allocations (block sizes). */
  size_t used() const;
  /** The device's memory size. */
  size_t capacity() const { return capacity_; }
  /** Bytes held in segments (live + cached). */
  size_t reserved() const;
  /** Give fully free segments (and their RAM) back. Thread-safe. */
  void release_cached();
  /** (address, requested size) of every live allocation, for the aclFinalize leak report. */
  std::vector<std::pair<const void*, size_t>> live_allocations() const;

 private:
  struct Segment;
  struct Block {
    uintptr_t addr;
    size_t size;       // bytes the block spans (multiple of 128)
    size_t usable;     // bytes the caller may touch (rounded request, <= size)
    size_t requested;  // the caller's size
    bool used;
    bool binned;       // sits in an exact-size bin (not coalesced)
    Block* prev;       // neighbours inside the segment
    Block* next;
    Segment* seg;
  };
  struct Segment {
    uintptr_t addr;
    size_t size;
    size_t used_blocks;
  };

  Block* take_block(size_t block_size);
  Block* best_fit(size_t block_size);
  Block* split(Block* b, size_t block_size);
  void insert_free(Block* b);
  void erase_free(Block* b);
  void merge_bins();
  Block* coalesce(Block* b);
  bool new_segment(size_t block_size);
  void release_free_segments();
  uintptr_t reserve_range(size_t size);
  void unreserve_range(uintptr_t addr, size_t size);
  const Block* find_live(const void* p) const;
  bool in_reservation(uintptr_t a) const;
  /** Bytes from @p a to the end of the mapped range holding it, or 0. Caller holds mu_. */
  size_t mapped_room(uintptr_t a) const;

  int32_t device_id_;
  uintptr_t base_ = 0;
  size_t capacity_ = 0;

  mutable std::mutex mu_;
  size_t used_ = 0;
  size_t reserved_ = 0;
  std::map<uintptr_t, size_t> arena_free_;                  // unreserved address ranges, by start
  std::set<Segment*> segments_;
  std::map<uintptr_t, Block*> blocks_;                      // every block, by start (range lookups)
  std::unordered_map<uintptr_t, Block*> by_addr_;           // the same blocks, O(1) lookup for free()
  std::set<std::pair<size_t, uintptr_t>> free_set_;         // coalesced free blocks: (size, start)
  std::vector<Block*>& bin_for(size_t block_size);
  static constexpr size_t kDirectBins = 1024;               // sizes up to 128 KiB: indexed, no hashing
  std::vector<std::vector<Block*>> small_bins_;             // freed blocks by exact size (size / 128)
  std::unordered_map<size_t, std::vector<Block*>> bins_;    // freed blocks by exact size, larger ones
  size_t binned_bytes_ = 0;
  std::atomic<size_t> reservations_{0};
  std::map<uintptr_t, size_t> reserved_va_;  // virtual reservations: start -> size
  std::map<uintptr_t, size_t> mapped_;       // mapped parts of them: start -> size
};

}  // namespace acl_sim
