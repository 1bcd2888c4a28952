/**
 * @file pipe.h
 * TPipe carves the core's Unified Buffer into queue and scratch buffers;
 * TQue<pos, depth> hands them between the copy-in, compute and copy-out
 * stages (AllocTensor -> EnQue -> DeQue -> FreeTensor); TBuf is plain scratch.
 *
 * On the NPU the queues also synchronise the MTE2/Vector/MTE3 pipes. On the
 * CPU one block runs its stages in program order, so the queues only check
 * the protocol: a DeQue with nothing queued (a hang on hardware), an
 * AllocTensor with every buffer taken, or a FreeTensor of a tensor still
 * queued faults the block with a message naming the kernel.
 */
#ifndef ACL_SIM_KERNEL_PIPE_H_
#define ACL_SIM_KERNEL_PIPE_H_

#include <cstddef>
#include <cstdint>

#include "acl_sim/kernel/block_context.h"
#include "acl_sim/kernel/tensor.h"

namespace AscendC {

/** The UB granule: every buffer starts and is sized on a 32-byte boundary. */
constexpr uint32_t ONE_BLK_SIZE = 32;
constexpr uint32_t kMaxQueBuffers = 16;

class TPipe;

namespace detail {

/** Shared state of TQue/TQueBind/TBuf: `num` equal buffers of `len` bytes in UB. */
class BufferSet {
 public:
  bool initialized() const { return num_ != 0; }
  uint32_t length() const { return len_; }
  uint32_t count() const { return num_; }

 protected:
  friend class ::AscendC::TPipe;
  enum State : uint8_t { kFree, kAllocated, kQueued };

  void bind(uint8_t* base, uint32_t num, uint32_t len, TPosition pos) {
    base_ = base;
    num_ = num;
    len_ = len;
    pos_ = pos;
    for (uint32_t i = 0; i < num; ++i) state_[i] = kFree;
    head_ = queued_ = next_alloc_ = 0;
  }
  uint8_t* slot(uint32_t i) const { return base_ + static_cast<size_t>(i) * len_; }

  template <class T>
  uint32_t slot_of(const LocalTensor<T>& t, const char* what) const {
    const int32_t id = t.GetBufferId();
    if (id < 0 || static_cast<uint32_t>(id) >= num_ || reinterpret_cast<uint8_t*>(t.GetPhyAddr()) != slot(id)) {
      kernel_fault(what, ": the tensor was not allocated from this queue");
    }
    return static_cast<uint32_t>(id);
  }

  uint8_t* base_ = nullptr;
  uint32_t num_ = 0;
  uint32_t len_ = 0;
  TPosition pos_ = TPosition::VECCALC;
  State state_[kMaxQueBuffers] = {};
  uint32_t fifo_[kMaxQueBuffers] = {};
  uint32_t head_ = 0, queued_ = 0, next_alloc_ = 0;
};

}  // namespace detail

/** A queue of UB buffers between two pipeline stages. depth is kept for source compatibility. */
template <TPosition pos, int32_t depth = 1>
class TQue : public detail::BufferSet {
 public:
  /** Take a free buffer (round robin, so double buffering alternates). */
  template <class T>
  LocalTensor<T> AllocTensor() {
    if (!initialized()) detail::kernel_fault("TQue::AllocTensor on a queue that TPipe::InitBuffer never set up");
    for (uint32_t k = 0; k < num_; ++k) {
      const uint32_t i = (next_alloc_ + k) % num_;
      if (state_[i] == kFree) {
        state_[i] = kAllocated;
        next_alloc_ = (i + 1) % num_;
        return LocalTensor<T>(reinterpret_cast<T*>(slot(i)), len_ / static_cast<uint32_t>(sizeof(T)), pos, static_cast<int32_t>(i));
      }
    }
    detail::kernel_fault("TQue::AllocTensor: all ", num_, " buffers of the queue are in use (missing FreeTensor?)");
  }

  /** Hand @p t to the consumer stage. */
  template <class T>
  bool EnQue(const LocalTensor<T>& t) {
    const uint32_t i = slot_of(t, "TQue::EnQue");
    if (state_[i] != kAllocated) detail::kernel_fault("TQue::EnQue of a tensor that is already queued");
    state_[i] = kQueued;
    fifo_[(head_ + queued_) % num_] = i;
    ++queued_;
    return true;
  }

  /** Take the oldest queued tensor. */
  template <class T>
  LocalTensor<T> DeQue() {
    if (queued_ == 0) {
      detail::kernel_fault("TQue::DeQue on an empty queue (missing EnQue; this would hang on the NPU)");
    }
    const uint32_t i = fifo_[head_];
    head_ = (head_ + 1) % num_;
    --queued_;
    state_[i] = kAllocated;
    return LocalTensor<T>(reinterpret_cast<T*>(slot(i)), len_ / static_cast<uint32_t>(sizeof(T)), pos, static_cast<int32_t>(i));
  }

  /** Return @p t's buffer to the queue. */
  template <class T>
  void FreeTensor(const LocalTensor<T>& t) {
    const uint32_t i = slot_of(t, "TQue::FreeTensor");
    if (state_[i] != kAllocated) {
      detail::kernel_fault(state_[i] == kQueued ? "TQue::FreeTensor of a tensor still queued (missing DeQue)"
                                                : "TQue::FreeTensor of a tensor that is already free");
    }
    state_[i] = kFree;
  }

  /** Queued tensors not yet dequeued. */
  int32_t GetTensorCountInQue() const { return static_cast<int32_t>(queued_); }
  bool VacantInQue() const { return queued_ < num_; }
  bool HasTensorInQue() const { return queued_ > 0; }
};

/** A queue moving data between two positions (same protocol as TQue). */
template <TPosition src, TPosition dst, int32_t depth = 1>
class TQueBind : public TQue<dst, depth> {};

/** Scratch UB without queue protocol. */
template <TPosition pos = TPosition::VECCALC>
class TBuf : public detail::BufferSet {
 public:
  /** The whole buffer as T. */
  template <class T>
  LocalTensor<T> Get() {
    if (!initialized()) detail::kernel_fault("TBuf::Get on a buffer that TPipe::InitBuffer never set up");
    return LocalTensor<T>(reinterpret_cast<T*>(base_), len_ / static_cast<uint32_t>(sizeof(T)), pos, 0);
  }
  /** The first @p len elements as T. */
  template <class T>
  LocalTensor<T> Get(uint32_t len) {
    if (static_cast<uint64_t>(len) * sizeof(T) > len_) {
      detail::kernel_fault("TBuf::Get(", len, ") needs ", static_cast<uint64_t>(len) * sizeof(T), " bytes but the buffer has ", len_);
    }
    return LocalTensor<T>(reinterpret_cast<T*>(base_), len, pos, 0);
  }
};

/** Owner of the core's UB allocations for one kernel invocation. */
class TPipe {
 public:
  TPipe() : start_(detail::block().ub_used) {}
  ~TPipe() { Destroy(); }
  TPipe(const TPipe&) = delete;
  TPipe& operator=(const TPipe&) = delete;

  /** Give @p que @p num buffers of @p len bytes each (len rounds up to 32 B). */
  template <TPosition pos, int32_t depth>
  bool InitBuffer(TQue<pos, depth>& que, uint8_t num, uint32_t len) {
    if (num == 0 || num > kMaxQueBuffers) {
      detail::kernel_fault("TPipe::InitBuffer: buffer count ", static_cast<int>(num), " is outside [1, ", kMaxQueBuffers, "]");
    }
    que.bind(carve(static_cast<uint64_t>(num), len, "TPipe::InitBuffer(TQue)"), num, round_up(len), pos);
    return true;
  }

  /** Give @p buf one buffer of @p len bytes. */
  template <TPosition pos>
  bool InitBuffer(TBuf<pos>& buf, uint32_t len) {
    buf.bind(carve(1, len, "TPipe::InitBuffer(TBuf)"), 1, round_up(len), pos);
    return true;
  }

  /** Release everything this pipe carved (also done by the destructor). */
  void Destroy() {
    if (acl_sim_block_ctx* c = detail::t_block) c->ub_used = start_;
  }
  void Reset() { Destroy(); }

  /** UB bytes this pipe has carved so far. */
  size_t GetUsedSize() const { return detail::block().ub_used - start_; }

 private:
  static uint32_t round_up(uint32_t len) { return (len + ONE_BLK_SIZE - 1) / ONE_BLK_SIZE * ONE_BLK_SIZE; }

  uint8_t* carve(uint64_t num, uint32_t len, const char* what) {
    acl_sim_block_ctx& c = detail::block();
    if (len == 0) detail::kernel_fault(what, ": buffer length 0");
    const uint64_t bytes = num * round_up(len);
    if (c.ub_used + bytes > c.ub_size) {
      detail::kernel_fault(what, " asks for ", num, " x ", round_up(len), " = ", bytes, " bytes of UB with ", c.ub_used,
                           " already in use (", c.ub_used + bytes, " in all), but the ", c.soc_name ? c.soc_name : "SoC",
                           " UB holds ", c.ub_size, " bytes per core");
    }
    uint8_t* p = c.ub_base + c.ub_used;
    c.ub_used += bytes;
    return p;
  }

  size_t start_;
};

}  // namespace AscendC

#endif  // ACL_SIM_KERNEL_PIPE_H_
