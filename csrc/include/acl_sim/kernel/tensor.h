/**
 * @file tensor.h
 * GlobalTensor<T> (a view of device memory, "GM") and LocalTensor<T> (a view
 * of the core's Unified Buffer), as in Ascend C.
 *
 * `t[offset]` on either returns a tensor starting `offset` elements later
 * (Ascend C semantics), not an element; use GetValue/SetValue for scalars.
 * Every access is bounds-checked against the view and faults the block with
 * a message instead of touching memory outside it.
 */
#ifndef ACL_SIM_KERNEL_TENSOR_H_
#define ACL_SIM_KERNEL_TENSOR_H_

#include <cstddef>
#include <cstdint>

#include <type_traits>

#include "acl_sim/kernel/block_context.h"
#include "acl_sim/kernel/half.h"

namespace AscendC {

/** Logical buffer positions; on the CPU all VEC* positions live in the UB arena. */
enum class TPosition : uint8_t { GM, A1, A2, B1, B2, C1, C2, CO1, CO2, VECIN, VECOUT, VECCALC, LCM = VECCALC, MAX };
using QuePosition = TPosition;

template <class T>
class GlobalTensor {
 public:
  using PrimType = T;

  /** View @p buffer; @p bufferSize (elements) enables bounds checks, 0 leaves the view unbounded. */
  void SetGlobalBuffer(T* buffer, uint64_t bufferSize = 0) {
    addr_ = buffer;
    size_ = bufferSize;
  }

  T* GetPhyAddr() const { return addr_; }
  T* GetPhyAddr(uint64_t offset) const { return addr_ + offset; }
  uint64_t GetSize() const { return size_; }

  /** Sub-view starting @p offset elements in. */
  GlobalTensor operator[](uint64_t offset) const {
    check(offset, 0, "GlobalTensor::operator[]");
    GlobalTensor t;
    t.addr_ = addr_ + offset;
    t.size_ = size_ ? size_ - offset : 0;
    return t;
  }

  T GetValue(uint64_t offset) const {
    check(offset, 1, "GlobalTensor::GetValue");
    return addr_[offset];
  }
  void SetValue(uint64_t offset, T value) const {
    check(offset, 1, "GlobalTensor::SetValue");
    addr_[offset] = value;
  }

  /** Fault unless [offset, offset+count) lies inside a bounded view. */
  void check(uint64_t offset, uint64_t count, const char* what) const {
    if (!addr_) detail::kernel_fault(what, " on a GlobalTensor without SetGlobalBuffer");
    if (size_ && offset + count > size_) {
      detail::kernel_fault(what, " reads/writes elements [", offset, ", ", offset + count,
                           ") of a GlobalTensor holding ", size_, " elements");
    }
  }

 private:
  T* addr_ = nullptr;
  uint64_t size_ = 0;
};

template <class T>
class LocalTensor {
 public:
  using PrimType = T;

  LocalTensor() = default;
  LocalTensor(T* addr, uint32_t size, TPosition pos, int32_t buf_id) : addr_(addr), size_(size), pos_(pos), buf_id_(buf_id) {}

  /** Start address in the UB arena. */
  T* GetPhyAddr() const { return addr_; }
  T* GetPhyAddr(uint32_t offset) const { return addr_ + offset; }
  /** Elements in the view. */
  uint32_t GetSize() const { return size_; }
  uint32_t GetLength() const { return size_ * static_cast<uint32_t>(sizeof(T)); }
  TPosition GetPosition() const { return pos_; }
  /** The queue/buffer slot this tensor came from (-1 for sub-views' parent bookkeeping). */
  int32_t GetBufferId() const { return buf_id_; }

  LocalTensor operator[](uint32_t offset) const {
    check(offset, 0, "LocalTensor::operator[]");
    return LocalTensor(addr_ + offset, size_ - offset, pos_, buf_id_);
  }

  T GetValue(uint32_t offset) const {
    check(offset, 1, "LocalTensor::GetValue");
    return addr_[offset];
  }
  void SetValue(uint32_t offset, T value) const {
    check(offset, 1, "LocalTensor::SetValue");
    addr_[offset] = value;
  }

  /** Reinterpret the same bytes as another element type (Ascend C ReinterpretCast). */
  template <class U>
  LocalTensor<U> ReinterpretCast() const {
    return LocalTensor<U>(reinterpret_cast<U*>(addr_), static_cast<uint32_t>(size_ * sizeof(T) / sizeof(U)), pos_, buf_id_);
  }

  void check(uint64_t offset, uint64_t count, const char* what) const {
    if (!addr_) detail::kernel_fault(what, " on a LocalTensor that was never allocated");
    if (offset + count > size_) {
      detail::kernel_fault(what, " touches elements [", offset, ", ", offset + count, ") of a LocalTensor holding ", size_,
                           " elements");
    }
  }

 private:
  T* addr_ = nullptr;
  uint32_t size_ = 0;
  TPosition pos_ = TPosition::VECCALC;
  int32_t buf_id_ = -1;
};

}  // namespace AscendC

#endif  // ACL_SIM_KERNEL_TENSOR_H_
