#include "runtime/virtual_memory.h"

#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "acl/acl_rt.h"
#include "common/error.h"
#include "runtime/runtime.h"

namespace acl_sim {
namespace {

size_t align_up(size_t v, size_t a) { return (v + a - 1) / a * a; }

int make_memfd(size_t size) {
  int fd = static_cast<int>(::syscall(SYS_memfd_create, "acl_sim_physical", 1u /* MFD_CLOEXEC */));
  if (fd < 0) fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "memfd_create failed: ", std::strerror(errno));
  if (::ftruncate(fd, static_cast<off_t>(size)) != 0) {
    int e = errno;
    ::close(fd);
    fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "cannot size physical memory of ", size, " bytes: ", std::strerror(e));
  }
  return fd;
}

// Give @p size bytes at @p addr back to the reservation: inaccessible, no RAM.
void restore_reserved(uintptr_t addr, size_t size) {
  ::mmap(reinterpret_cast<void*>(addr), size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
}

}  // namespace

PhysicalMemory::PhysicalMemory(int32_t device, size_t size) : device_(device), size_(size) {
  MemPool& pool = Runtime::get().device(device).pool();
  capacity_token_ = pool.take_capacity(size);
  try {
    fd_ = make_memfd(size);
  } catch (...) {
    pool.give_capacity(capacity_token_, size);
    throw;
  }
}

PhysicalMemory::~PhysicalMemory() {
  if (fd_ >= 0) ::close(fd_);
  if (Device* d = Runtime::get().opened_device(device_)) d->pool().give_capacity(capacity_token_, size_);
}

VirtualMemory::VirtualMemory() {
  Runtime::get().on_finalize("virtual memory", [this] { clear(); });
}

VirtualMemory& VirtualMemory::instance() {
  static VirtualMemory* vm = new VirtualMemory();  // never destroyed: finalize hooks may run at exit
  return *vm;
}

void* VirtualMemory::reserve(int32_t device, size_t size, size_t alignment) {
  ACL_SIM_REQUIRE(size > 0, ACL_ERROR_INVALID_PARAM, "size must be > 0");
  ACL_SIM_REQUIRE(alignment == 0 || (alignment & (alignment - 1)) == 0, ACL_ERROR_INVALID_PARAM, "alignment ",
                  alignment, " is not a power of two");
  size_t align = std::max(alignment, kGranularity);
  size = align_up(size, kGranularity);
  ACL_SIM_REQUIRE(size <= (size_t(1) << 46), ACL_ERROR_INVALID_PARAM, "size ", size, " is too large to reserve");
  MemPool& pool = Runtime::get().device(device).pool();
  void* raw = ::mmap(nullptr, size + align, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (raw == MAP_FAILED)
    fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "cannot reserve ", size, " bytes of address space: ", std::strerror(errno));
  auto base = reinterpret_cast<uintptr_t>(raw);
  uintptr_t start = align_up(base, align);
  if (start > base) ::munmap(raw, start - base);
  if (base + size + align > start + size) ::munmap(reinterpret_cast<void*>(start + size), base + size + align - start - size);
  {
    std::lock_guard<std::mutex> lock(mu_);
    reservations_[start] = Reservation{device, size, {}};
  }
  pool.add_reservation(start, size);
  return reinterpret_cast<void*>(start);
}

void VirtualMemory::release(void* p) {
  auto addr = reinterpret_cast<uintptr_t>(p);
  std::lock_guard<std::mutex> lock(mu_);
  auto it = reservations_.find(addr);
  ACL_SIM_REQUIRE(it != reservations_.end(), ACL_ERROR_RT_PARAM_INVALID, "address ", p,
                  " is not the start of a reservation made by aclrtReserveMemAddress");
  ACL_SIM_REQUIRE(it->second.maps.empty(), ACL_ERROR_RT_PARAM_INVALID, "reservation at ", p, " still has ",
                  it->second.maps.size(), " mapping(s): aclrtUnmapMem them first");
  if (Device* d = Runtime::get().opened_device(it->second.device)) d->pool().remove_reservation(addr);
  ::munmap(p, it->second.size);
  reservations_.erase(it);
}

void* VirtualMemory::allocate_physical(int32_t device, size_t size) {
  ACL_SIM_REQUIRE(size > 0 && size % kGranularity == 0, ACL_ERROR_INVALID_PARAM, "size ", size,
                  " must be a positive multiple of the granularity (", kGranularity,
                  " bytes, aclrtMemGetAllocationGranularity)");
  return physical_.add(std::make_shared<PhysicalMemory>(device, size));
}

void VirtualMemory::free_physical(void* handle) {
  ACL_SIM_REQUIRE(handle != nullptr, ACL_ERROR_INVALID_PARAM, "handle must not be NULL");
  std::lock_guard<std::mutex> lock(mu_);
  auto phys = physical_.find(handle);
  ACL_SIM_REQUIRE(phys != nullptr, ACL_ERROR_RT_PARAM_INVALID, "handle ", handle,
                  " is not live physical memory (never allocated or already freed)");
  for (auto& kv : reservations_)
    for (auto& m : kv.second.maps)
      ACL_SIM_REQUIRE(m.second.phys != phys, ACL_ERROR_RT_PARAM_INVALID, "physical memory ", handle,
                      " is still mapped at ", reinterpret_cast<void*>(m.first), ": aclrtUnmapMem it first");
  physical_.remove(handle);
}

VirtualMemory::Reservation* VirtualMemory::reservation_of(uintptr_t addr, size_t size, uintptr_t* start) {
  auto it = reservations_.upper_bound(addr);
  if (it == reservations_.begin()) return nullptr;
  --it;
  if (addr + size > it->first + it->second.size || addr < it->first) return nullptr;
  *start = it->first;
  return &it->second;
}

void VirtualMemory::map(void* p, size_t size, size_t offset, void* handle) {
  auto addr = reinterpret_cast<uintptr_t>(p);
  ACL_SIM_REQUIRE(p != nullptr && handle != nullptr, ACL_ERROR_INVALID_PARAM, "virPtr and handle must not be NULL");
  ACL_SIM_REQUIRE(size > 0 && size % kGranularity == 0 && addr % kGranularity == 0 && offset % kGranularity == 0,
                  ACL_ERROR_INVALID_PARAM, "virPtr ", p, ", size ", size, " and offset ", offset,
                  " must be multiples of the granularity (", kGranularity, " bytes)");
  std::lock_guard<std::mutex> lock(mu_);
  auto phys = physical_.find(handle);
  ACL_SIM_REQUIRE(phys != nullptr, ACL_ERROR_RT_PARAM_INVALID, "handle ", handle, " is not live physical memory");
  ACL_SIM_REQUIRE(offset <= phys->size() && size <= phys->size() - offset, ACL_ERROR_INVALID_PARAM, "offset ", offset,
                  " + size ", size, " exceeds the physical allocation of ", phys->size(), " bytes");
  uintptr_t start = 0;
  Reservation* r = reservation_of(addr, size, &start);
  ACL_SIM_REQUIRE(r != nullptr, ACL_ERROR_RT_PARAM_INVALID, "[", p, ", +", size,
                  ") is not inside one reservation made by aclrtReserveMemAddress");
  ACL_SIM_REQUIRE(r->device == phys->device(), ACL_ERROR_RT_PARAM_INVALID, "physical memory of device ", phys->device(),
                  " cannot be mapped into a reservation of device ", r->device);
  auto next = r->maps.lower_bound(addr);
  bool overlaps = (next != r->maps.end() && next->first < addr + size) ||
                  (next != r->maps.begin() && std::prev(next)->first + std::prev(next)->second.size > addr);
  ACL_SIM_REQUIRE(!overlaps, ACL_ERROR_RT_PARAM_INVALID, "[", p, ", +", size, ") overlaps an existing mapping");
  void* m = ::mmap(p, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, phys->fd(), static_cast<off_t>(offset));
  if (m == MAP_FAILED) fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "mapping physical memory failed: ", std::strerror(errno));
  r->maps[addr] = Mapping{size, phys};
  Runtime::get().device(r->device).pool().add_mapped(addr, size);
}

void VirtualMemory::unmap_locked(Reservation& r, std::map<uintptr_t, Mapping>::iterator it) {
  restore_reserved(it->first, it->second.size);
  if (Device* d = Runtime::get().opened_device(r.device)) d->pool().remove_mapped(it->first);
  r.maps.erase(it);
}

void VirtualMemory::unmap(void* p) {
  auto addr = reinterpret_cast<uintptr_t>(p);
  ACL_SIM_REQUIRE(p != nullptr, ACL_ERROR_INVALID_PARAM, "virPtr must not be NULL");
  std::lock_guard<std::mutex> lock(mu_);
  uintptr_t start = 0;
  Reservation* r = reservation_of(addr, 1, &start);
  auto it = r ? r->maps.find(addr) : std::map<uintptr_t, Mapping>::iterator{};
  ACL_SIM_REQUIRE(r != nullptr && it != r->maps.end(), ACL_ERROR_RT_PARAM_INVALID, "address ", p,
                  " is not the start of a mapping made by aclrtMapMem");
  unmap_locked(*r, it);
}

void VirtualMemory::clear() {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto& kv : reservations_) {
    while (!kv.second.maps.empty()) unmap_locked(kv.second, kv.second.maps.begin());
    if (Device* d = Runtime::get().opened_device(kv.second.device)) d->pool().remove_reservation(kv.first);
    ::munmap(reinterpret_cast<void*>(kv.first), kv.second.size);
  }
  reservations_.clear();
  physical_.clear();
}

}  // namespace acl_sim
