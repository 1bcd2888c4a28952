#include "media/dvpp_memory.h"

#include <cstdint>
#include <mutex>
#include <unordered_map>

#include "acl/acl_base.h"
#include "common/error.h"
#include "runtime/device.h"
#include "runtime/mem_pool.h"
#include "runtime/runtime.h"

namespace acl_sim::media {

namespace {

struct Block {
  void* pool_start;
  int32_t device_id;
};

std::mutex g_mu;
std::unordered_map<void*, Block> g_blocks;  // aligned address -> pool block

void forget_all() {
  std::lock_guard<std::mutex> lock(g_mu);
  g_blocks.clear();  // the pools go away with the devices
}

}  // namespace

void* dvpp_malloc(Device& dev, size_t size) {
  static std::once_flag hook;
  std::call_once(hook, [] { Runtime::get().on_finalize("dvpp_memory", forget_all); });
  void* start = dev.pool().allocate(size + (kDvppAlignment - 64), true);
  auto a = reinterpret_cast<uintptr_t>(start);
  void* aligned = reinterpret_cast<void*>((a + kDvppAlignment - 1) & ~(uintptr_t{kDvppAlignment} - 1));
  std::lock_guard<std::mutex> lock(g_mu);
  g_blocks[aligned] = Block{start, dev.id()};
  return aligned;
}

void dvpp_free(void* p) {
  Block b{};
  {
    std::lock_guard<std::mutex> lock(g_mu);
    auto it = g_blocks.find(p);
    ACL_SIM_REQUIRE(it != g_blocks.end(), ACL_ERROR_INVALID_PARAM, "pointer ", p,
                    " was not returned by acldvppMalloc (or was already freed); memory from aclrtMalloc is freed "
                    "with aclrtFree");
    b = it->second;
    g_blocks.erase(it);
  }
  Device* d = Runtime::get().opened_device(b.device_id);
  ACL_SIM_REQUIRE(d, ACL_ERROR_INVALID_PARAM, "pointer ", p, " belongs to device ", b.device_id,
                  ", which was reset");
  d->pool().free(b.pool_start);
}

}  // namespace acl_sim::media
