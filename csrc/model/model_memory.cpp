// OwnedBlock and MappedFile (contract in model_memory.h).
#include "model/model_memory.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "common/error.h"
#include "common/error_codes.h"
#include "runtime/mem_pool.h"

namespace acl_sim {

OwnedBlock::OwnedBlock(MemPool* pool, size_t size) : pool_(pool), size_(size) {
  if (size == 0) return;
  if (pool) {
    data_ = static_cast<uint8_t*>(pool->allocate(size));
  } else {
    size_t rounded = (size + 63) / 64 * 64;
    data_ = static_cast<uint8_t*>(std::aligned_alloc(64, rounded));
    ACL_SIM_REQUIRE(data_ != nullptr, ACL_ERROR_BAD_ALLOC, "cannot allocate ", size, " bytes of host memory");
  }
}

OwnedBlock::~OwnedBlock() { release(); }

OwnedBlock::OwnedBlock(OwnedBlock&& o) noexcept : pool_(o.pool_), data_(o.data_), size_(o.size_) {
  o.data_ = nullptr;
  o.size_ = 0;
}

OwnedBlock& OwnedBlock::operator=(OwnedBlock&& o) noexcept {
  if (this != &o) {
    release();
    pool_ = o.pool_;
    data_ = std::exchange(o.data_, nullptr);
    size_ = std::exchange(o.size_, 0);
  }
  return *this;
}

void OwnedBlock::release() noexcept {
  if (!data_) return;
  if (pool_) {
    try {
      pool_->free(data_);
    } catch (...) {
      // The pool only throws for pointers it does not know; ours came from it, so nothing to report.
    }
  } else {
    std::free(data_);
  }
  data_ = nullptr;
}

MappedFile::MappedFile(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  ACL_SIM_REQUIRE(fd >= 0, ACL_ERROR_GE_EXEC_MODEL_PATH_INVALID, "cannot open model file '", path, "': ", std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    fail(ACL_ERROR_GE_EXEC_MODEL_PATH_INVALID, "model path '", path, "' is not a regular file");
  }
  size_ = size_t(st.st_size);
  if (size_ == 0) {
    ::close(fd);
    fail(ACL_ERROR_INVALID_FILE, "model file '", path, "' is empty");
  }
  void* p = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
  int err = errno;
  ::close(fd);
  ACL_SIM_REQUIRE(p != MAP_FAILED, ACL_ERROR_GE_EXEC_MODEL_PATH_INVALID, "cannot map model file '", path, "': ", std::strerror(err));
  data_ = static_cast<const uint8_t*>(p);
}

MappedFile::~MappedFile() {
  if (data_) ::munmap(const_cast<uint8_t*>(data_), size_);
}

}  // namespace acl_sim
