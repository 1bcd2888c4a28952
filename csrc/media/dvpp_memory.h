// acldvppMalloc / acldvppFree: device memory from the current device's pool
// with DVPP's 128-byte start alignment (the pool itself aligns to 64). The
// pool block is over-allocated by 64 bytes and the aligned address inside it
// is handed out; a table maps it back to the block for acldvppFree.
#pragma once

#include <cstddef>

namespace acl_sim {
class Device;
}

namespace acl_sim::media {

constexpr size_t kDvppAlignment = 128;

/** At least ALIGN_UP(size,32)+32 usable bytes on @p dev, 128-byte aligned. Throws 207001 when full. Thread-safe. */
void* dvpp_malloc(Device& dev, size_t size);
/** Free a pointer from dvpp_malloc; ACL_ERROR_INVALID_PARAM for any other pointer. Thread-safe. */
void dvpp_free(void* p);

}  // namespace acl_sim::media
