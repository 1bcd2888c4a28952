// Memory a Model owns: blocks from a device pool or the host heap, and a
// read-only mapping of an .om file. RAII so a load that fails half-way
// releases everything it took.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace acl_sim {

class MemPool;

/** A block from @p pool (or the 64-byte aligned host heap when pool is null); freed on destruction. */
class OwnedBlock {
 public:
  OwnedBlock() = default;
  /** Throws 207001 (device full) or ACL_ERROR_BAD_ALLOC (host). size 0 gives an empty block. */
  OwnedBlock(MemPool* pool, size_t size);
  ~OwnedBlock();
  OwnedBlock(OwnedBlock&& o) noexcept;
  OwnedBlock& operator=(OwnedBlock&& o) noexcept;
  OwnedBlock(const OwnedBlock&) = delete;
  OwnedBlock& operator=(const OwnedBlock&) = delete;

  uint8_t* data() const { return data_; }
  size_t size() const { return size_; }

 private:
  void release() noexcept;
  MemPool* pool_ = nullptr;
  uint8_t* data_ = nullptr;
  size_t size_ = 0;
};

/** A whole file mapped read-only (MAP_PRIVATE). Throws ACL_ERROR_GE_EXEC_MODEL_PATH_INVALID (145002)
 *  when the path cannot be opened or is not a regular file. */
class MappedFile {
 public:
  explicit MappedFile(const std::string& path);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  const uint8_t* data() const { return data_; }
  size_t size() const { return size_; }

 private:
  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace acl_sim
