// Virtual memory of the simulated devices (aclrtReserveMemAddress, aclrtMallocPhysical,
// aclrtMapMem, ...), with the driver's semantics: physical memory and addresses are separate.
//
// - A physical allocation is a memfd of its size whose bytes are taken from the device pool's
//   capacity (so aclrtMalloc and physical memory share the device's memory size).
// - A reservation is address space (PROT_NONE, no RAM) registered with the device pool, so
//   device-memory checks recognise its addresses; only its mapped parts pass check_range.
// - Mapping puts the physical pages at a reserved address (MAP_SHARED | MAP_FIXED): the content
//   belongs to the physical allocation, so unmapping and mapping it elsewhere keeps the data, and
//   two mappings of one allocation alias.
// Everything left is unmapped and freed at aclFinalize.
#pragma once

#include "runtime/export.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>

#include "common/handle_table.h"

namespace acl_sim {

class ACL_SIM_RT_API PhysicalMemory {
 public:
  PhysicalMemory(int32_t device, size_t size);  // throws 207001 (device full) / 107000
  ~PhysicalMemory();
  PhysicalMemory(const PhysicalMemory&) = delete;
  PhysicalMemory& operator=(const PhysicalMemory&) = delete;
  int32_t device() const { return device_; }
  size_t size() const { return size_; }
  int fd() const { return fd_; }

 private:
  int32_t device_;
  size_t size_;
  int fd_ = -1;
  uintptr_t capacity_token_ = 0;
};

class ACL_SIM_RT_API VirtualMemory {
 public:
  /** Both granularity options report this: the driver's 2 MiB huge page. */
  static constexpr size_t kGranularity = 2u << 20;

  static VirtualMemory& instance();

  /** aclrtReserveMemAddress on @p device: @p size rounded up to the granularity, aligned to
   *  max(alignment, granularity). Thread-safe. */
  void* reserve(int32_t device, size_t size, size_t alignment);
  /** aclrtReleaseMemAddress: @p p must start a reservation with nothing mapped (107000 otherwise). */
  void release(void* p);
  /** aclrtMallocPhysical: @p size must be a multiple of the granularity. Returns the handle. */
  void* allocate_physical(int32_t device, size_t size);
  /** aclrtFreePhysical: the allocation must not be mapped anywhere. */
  void free_physical(void* handle);
  /** aclrtMapMem: [p, p+size) inside one reservation, granularity-aligned, not mapped yet; offset+size inside the
   *  allocation, which must belong to the reservation's device. */
  void map(void* p, size_t size, size_t offset, void* handle);
  /** aclrtUnmapMem: @p p must start a mapping. */
  void unmap(void* p);
  /** Unmap and free everything (aclFinalize). */
  void clear();

 private:
  VirtualMemory();
  struct Mapping {
    size_t size;
    std::shared_ptr<PhysicalMemory> phys;
  };
  struct Reservation {
    int32_t device;
    size_t size;
    std::map<uintptr_t, Mapping> maps;
  };
  Reservation* reservation_of(uintptr_t addr, size_t size, uintptr_t* start);
  void unmap_locked(Reservation& r, std::map<uintptr_t, Mapping>::iterator it);

  std::mutex mu_;
  std::map<uintptr_t, Reservation> reservations_;
  HandleTable<PhysicalMemory> physical_;
};

}  // namespace acl_sim
