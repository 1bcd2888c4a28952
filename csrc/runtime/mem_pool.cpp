#include "runtime/mem_pool.h"

#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "acl/acl_rt.h"
#include "common/fault_injection.h"
#include "common/log.h"
#include "runtime/runtime_observer.h"

namespace acl_sim {
namespace {

constexpr size_t kAlign = 128;                 // block starts (ggml-cann requires 128-byte aligned buffers)
constexpr size_t kSegmentGranule = 2u << 20;   // segments are 2 MiB multiples
constexpr size_t kSmallLimit = 1u << 20;       // <= 1 MiB: packed into 2 MiB segments
constexpr size_t kMidLimit = 10u << 20;        // <= 10 MiB: 20 MiB segments
constexpr size_t kMidSegment = 20u << 20;
constexpr size_t kMinSplitRemainder = 128;     // smaller leftovers stay inside the block

size_t align_up(size_t v, size_t a) { return (v + a - 1) / a * a; }

}  // namespace

MemPool::MemPool(int32_t device_id, size_t capacity) : device_id_(device_id) {
  capacity_ = align_up(std::max<size_t>(capacity, kSegmentGranule), kSegmentGranule);
  // PROT_NONE + NORESERVE: address space only; segments become accessible on demand.
  void* p = ::mmap(nullptr, capacity_, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED)
    fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "cannot reserve ", capacity_, " bytes of address space for device ",
         device_id, ": ", std::strerror(errno), " (set ACL_SIM_DEVICE_MEMORY to a smaller size)");
  base_ = reinterpret_cast<uintptr_t>(p);
  arena_free_[base_] = capacity_;
  by_addr_.reserve(4096);
  small_bins_.resize(kDirectBins + 1);
}

MemPool::~MemPool() {
  for (auto& kv : blocks_) delete kv.second;
  for (Segment* s : segments_) delete s;
  if (base_) ::munmap(reinterpret_cast<void*>(base_), capacity_);
}

void* MemPool::allocate(size_t size, bool pad) {
  ACL_SIM_REQUIRE(size > 0, ACL_ERROR_INVALID_PARAM, "size must be > 0");
  ACL_SIM_REQUIRE(size <= capacity_, ACL_ERROR_RT_MEMORY_ALLOCATION, "requested ", size,
                  " bytes exceeds device ", device_id_, " memory of ", capacity_, " bytes");
  if (fault::alloc_should_fail())  // hardening tests: ACL_SIM_FAULT_ALLOC_FAIL_AT
    fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "device ", device_id_, " out of memory: injected allocation failure");
  size_t usable = align_up(size, 32) + (pad ? 32 : 0);
  size_t block_size = align_up(usable, kAlign);
  std::lock_guard<std::mutex> lock(mu_);
  Block* b = take_block(block_size);
  if (!b)
    fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "device ", device_id_, " out of memory: requested ", size, " bytes, ",
         used_, " of ", capacity_, " bytes in use");
  b->used = true;
  b->usable = usable;
  b->requested = size;
  b->seg->used_blocks++;
  used_ += b->size;
  if (RuntimeObserver* o = runtime_observer()) o->memory_used(device_id_, used_);
  return reinterpret_cast<void*>(b->addr);
}

MemPool::Block* MemPool::take_block(size_t block_size) {
  // 1. An exact-size cached block: the common repeated malloc/free case, O(1).
  std::vector<Block*>* bin = nullptr;
  if (block_size / kAlign <= kDirectBins) {
    bin = &small_bins_[block_size / kAlign];
  } else if (auto it = bins_.find(block_size); it != bins_.end()) {
    bin = &it->second;
  }
  if (bin && !bin->empty()) {
    Block* b = bin->back();
    bin->pop_back();
    b->binned = false;
    binned_bytes_ -= b->size;
    return b;
  }
  // 2. Best fit among coalesced free blocks; 3. after merging the bins.
  if (Block* b = best_fit(block_size)) return split(b, block_size);
  if (binned_bytes_ > 0) {
    merge_bins();
    if (Block* b = best_fit(block_size)) return split(b, block_size);
  }
  // 4. A new segment; 5. after giving fully free segments back to the arena.
  if (!new_segment(block_size)) {
    release_free_segments();
    if (!new_segment(block_size)) return nullptr;
  }
  Block* b = best_fit(block_size);
  return b ? split(b, block_size) : nullptr;
}

MemPool::Block* MemPool::best_fit(size_t block_size) {
  auto it = free_set_.lower_bound({block_size, 0});
  if (it == free_set_.end()) return nullptr;
  Block* b = by_addr_.at(it->second);
  free_set_.erase(it);
  return b;
}

MemPool::Block* MemPool::split(Block* b, size_t block_size) {
  if (b->size - block_size >= kMinSplitRemainder) {
    auto* rest = new Block{b->addr + block_size, b->size - block_size, 0, 0, false, false, b, b->next, b->seg};
    if (b->next) b->next->prev = rest;
    b->next = rest;
    b->size = block_size;
    blocks_[rest->addr] = rest;
    by_addr_[rest->addr] = rest;
    insert_free(rest);
  }
  return b;
}

void MemPool::insert_free(Block* b) { free_set_.insert({b->size, b->addr}); }
void MemPool::erase_free(Block* b) { free_set_.erase({b->size, b->addr}); }

void MemPool::merge_bins() {
  auto merge = [&](std::vector<Block*>& bin) {
    for (Block* b : bin) {
      b->binned = false;
      insert_free(coalesce(b));
    }
    bin.clear();
  };
  for (auto& bin : small_bins_) merge(bin);
  for (auto& kv : bins_) merge(kv.second);
  binned_bytes_ = 0;
}

// Merge @p b (free, not in free_set_) with free, unbinned neighbours; returns the merged block.
MemPool::Block* MemPool::coalesce(Block* b) {
  while (b->prev && !b->prev->used && !b->prev->binned) {
    Block* p = b->prev;
    erase_free(p);
    p->size += b->size;
    p->next = b->next;
    if (b->next) b->next->prev = p;
    blocks_.erase(b->addr);
    by_addr_.erase(b->addr);
    delete b;
    b = p;
  }
  while (b->next && !b->next->used && !b->next->binned) {
    Block* n = b->next;
    erase_free(n);
    b->size += n->size;
    b->next = n->next;
    if (n->next) n->next->prev = b;
    blocks_.erase(n->addr);
    by_addr_.erase(n->addr);
    delete n;
  }
  return b;
}

bool MemPool::new_segment(size_t block_size) {
  size_t seg_size = block_size <= kSmallLimit ? kSegmentGranule
                    : block_size <= kMidLimit ? kMidSegment
                                              : align_up(block_size, kSegmentGranule);
  uintptr_t addr = reserve_range(seg_size);
  if (!addr && seg_size > align_up(block_size, kSegmentGranule)) {
    seg_size = align_up(block_size, kSegmentGranule);  // a smaller segment may still fit
    addr = reserve_range(seg_size);
  }
  if (!addr) return false;
  if (::mprotect(reinterpret_cast<void*>(addr), seg_size, PROT_READ | PROT_WRITE) != 0) {
    unreserve_range(addr, seg_size);
    return false;
  }
#ifdef MADV_HUGEPAGE
  // Large copies run at memcpy speed only with few TLB misses; huge pages are still committed lazily.
  ::madvise(reinterpret_cast<void*>(addr), seg_size, MADV_HUGEPAGE);
#endif
  auto* seg = new Segment{addr, seg_size, 0};
  segments_.insert(seg);
  reserved_ += seg_size;
  auto* b = new Block{addr, seg_size, 0, 0, false, false, nullptr, nullptr, seg};
  blocks_[addr] = b;
  by_addr_[addr] = b;
  insert_free(b);
  return true;
}

void MemPool::release_free_segments() {
  merge_bins();
  for (auto it = segments_.begin(); it != segments_.end();) {
    Segment* seg = *it;
    if (seg->used_blocks != 0) {
      ++it;
      continue;
    }
    // A segment with no live block has coalesced into one free block.
    Block* b = blocks_.at(seg->addr);
    erase_free(b);
    blocks_.erase(b->addr);
    by_addr_.erase(b->addr);
    delete b;
    // Drop the pages (RAM back to the OS) and the access, then return the range.
    ::madvise(reinterpret_cast<void*>(seg->addr), seg->size, MADV_DONTNEED);
    ::mprotect(reinterpret_cast<void*>(seg->addr), seg->size, PROT_NONE);
    unreserve_range(seg->addr, seg->size);
    reserved_ -= seg->size;
    delete seg;
    it = segments_.erase(it);
  }
}

uintptr_t MemPool::reserve_range(size_t size) {
  for (auto it = arena_free_.begin(); it != arena_free_.end(); ++it) {
    if (it->second < size) continue;
    uintptr_t addr = it->first;
    size_t rest = it->second - size;
    arena_free_.erase(it);
    if (rest) arena_free_[addr + size] = rest;
    return addr;
  }
  return 0;
}

void MemPool::unreserve_range(uintptr_t addr, size_t size) {
  auto next = arena_free_.lower_bound(addr);
  if (next != arena_free_.end() && addr + size == next->first) {
    size += next->second;
    next = arena_free_.erase(next);
  }
  if (next != arena_free_.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == addr) {
      prev->second += size;
      return;
    }
  }
  arena_free_[addr] = size;
}

void MemPool::free(void* p) {
  auto addr = reinterpret_cast<uintptr_t>(p);
  std::lock_guard<std::mutex> lock(mu_);
  auto it = by_addr_.find(addr);
  if (it == by_addr_.end() || !it->second->used) {
    if (contains(p))
      fail(ACL_ERROR_RT_PARAM_INVALID, "pointer ", p, " on device ", device_id_,
           " is not the start of a live allocation (double free or interior pointer)");
    fail(ACL_ERROR_RT_PARAM_INVALID, "pointer ", p, " is not device memory of device ", device_id_);
  }
  Block* b = it->second;
  b->used = false;
  b->seg->used_blocks--;
  used_ -= b->size;
  b->binned = true;
  bin_for(b->size).push_back(b);
  binned_bytes_ += b->size;
  if (RuntimeObserver* o = runtime_observer()) o->memory_used(device_id_, used_);
}

std::vector<MemPool::Block*>& MemPool::bin_for(size_t block_size) {
  return block_size / kAlign <= kDirectBins ? small_bins_[block_size / kAlign] : bins_[block_size];
}

const MemPool::Block* MemPool::find_live(const void* p) const {
  auto addr = reinterpret_cast<uintptr_t>(p);
  auto it = blocks_.upper_bound(addr);
  if (it == blocks_.begin()) return nullptr;
  const Block* b = std::prev(it)->second;
  if (!b->used || addr >= b->addr + b->usable) return nullptr;
  return b;
}

void MemPool::check_range(const void* p, size_t n) const {
  std::lock_guard<std::mutex> lock(mu_);
  const Block* b = find_live(p);
  if (!b && !reserved_va_.empty()) {
    size_t room = mapped_room(reinterpret_cast<uintptr_t>(p));
    if (room == 0)
      fail(ACL_ERROR_RT_PARAM_INVALID, "address ", p, " of device ", device_id_,
           " is neither a live allocation nor mapped virtual memory");
    if (n > room)
      fail(ACL_ERROR_RT_PARAM_INVALID, "range of ", n, " bytes at ", p, " overruns its mapped virtual range (", room,
           " bytes mapped from that address)");
    return;
  }
  if (!b)
    fail(ACL_ERROR_RT_PARAM_INVALID, "address ", p, " is not inside a live allocation of device ", device_id_,
         " (freed, never allocated, or past the end)");
  auto addr = reinterpret_cast<uintptr_t>(p);
  size_t room = b->addr + b->usable - addr;
  if (n > room)
    fail(ACL_ERROR_RT_PARAM_INVALID, "range of ", n, " bytes at ", p, " overruns its allocation of ", b->requested,
         " bytes (", room, " bytes available from that address)");
}

size_t MemPool::bytes_from(const void* p) const {
  std::lock_guard<std::mutex> lock(mu_);
  const Block* b = find_live(p);
  if (!b) return mapped_room(reinterpret_cast<uintptr_t>(p));
  return b->addr + b->usable - reinterpret_cast<uintptr_t>(p);
}

// ---------------------------------------------------------------- virtual memory

uintptr_t MemPool::take_capacity(size_t size) {
  ACL_SIM_REQUIRE(size > 0, ACL_ERROR_INVALID_PARAM, "size must be > 0");
  size_t rounded = align_up(size, kSegmentGranule);
  std::lock_guard<std::mutex> lock(mu_);
  uintptr_t token = reserve_range(rounded);
  if (!token) {
    release_free_segments();
    token = reserve_range(rounded);
  }
  if (!token)
    fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "device ", device_id_, " out of memory: physical allocation of ", size,
         " bytes, ", used_, " of ", capacity_, " bytes in use");
  used_ += rounded;
  return token;
}

void MemPool::give_capacity(uintptr_t token, size_t size) {
  size_t rounded = align_up(size, kSegmentGranule);
  std::lock_guard<std::mutex> lock(mu_);
  unreserve_range(token, rounded);
  used_ -= rounded;
}

void MemPool::add_reservation(uintptr_t addr, size_t size) {
  std::lock_guard<std::mutex> lock(mu_);
  reserved_va_[addr] = size;
  reservations_.store(reserved_va_.size(), std::memory_order_release);
}

void MemPool::remove_reservation(uintptr_t addr) {
  std::lock_guard<std::mutex> lock(mu_);
  reserved_va_.erase(addr);
  reservations_.store(reserved_va_.size(), std::memory_order_release);
}

void MemPool::add_mapped(uintptr_t addr, size_t size) {
  std::lock_guard<std::mutex> lock(mu_);
  mapped_[addr] = size;
}

void MemPool::remove_mapped(uintptr_t addr) {
  std::lock_guard<std::mutex> lock(mu_);
  mapped_.erase(addr);
}

bool MemPool::in_reservation(uintptr_t a) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = reserved_va_.upper_bound(a);
  if (it == reserved_va_.begin()) return false;
  --it;
  return a < it->first + it->second;
}

size_t MemPool::mapped_room(uintptr_t a) const {
  auto it = mapped_.upper_bound(a);
  if (it == mapped_.begin()) return 0;
  --it;
  uintptr_t end = it->first + it->second;
  if (a >= end) return 0;
  // Adjacent mappings (a pool grown by mapping more at its end) form one accessible range.
  for (++it; it != mapped_.end() && it->first == end; ++it) end += it->second;
  return end - a;
}

size_t MemPool::used() const {
  std::lock_guard<std::mutex> lock(mu_);
  return used_;
}

size_t MemPool::reserved() const {
  std::lock_guard<std::mutex> lock(mu_);
  return reserved_;
}

void MemPool::release_cached() {
  std::lock_guard<std::mutex> lock(mu_);
  release_free_segments();
}

std::vector<std::pair<const void*, size_t>> MemPool::live_allocations() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::pair<const void*, size_t>> out;
  for (const auto& kv : blocks_)
    if (kv.second->used) out.emplace_back(reinterpret_cast<const void*>(kv.first), kv.second->requested);
  return out;
}

}  // namespace acl_sim
