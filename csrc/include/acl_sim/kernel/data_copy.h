/**
 * @file data_copy.h
 * DataCopy between GM and UB (and UB to UB), with the NPU's rules checked:
 * the copied length must be a multiple of 32 bytes and the UB side must start
 * on a 32-byte boundary (the Unified Buffer's block size). GM needs no
 * alignment (DataCopyPad lifts the length rule). A violation faults the block: the launch's stream reports
 * ACL_ERROR_RT_AICORE_EXCEPTION at synchronize, naming kernel and sizes.
 */
#ifndef ACL_SIM_KERNEL_DATA_COPY_H_
#define ACL_SIM_KERNEL_DATA_COPY_H_

#include <cstdint>
#include <cstring>

#include "acl_sim/kernel/block_context.h"
#include "acl_sim/kernel/tensor.h"

namespace AscendC {

/** Strided block copy parameters; blockLen, srcStride and dstStride count 32-byte blocks. */
struct DataCopyParams {
  uint16_t blockCount = 1;
  uint16_t blockLen = 0;
  uint16_t srcStride = 0;
  uint16_t dstStride = 0;
  DataCopyParams() = default;
  DataCopyParams(uint16_t count, uint16_t len, uint16_t srcGap, uint16_t dstGap)
      : blockCount(count), blockLen(len), srcStride(srcGap), dstStride(dstGap) {}
};

namespace detail {

/** Fault unless @p p is 32-byte aligned within the UB arena. */
inline void check_ub_aligned(const void* p, const char* what, const char* operand) {
  const acl_sim_block_ctx& c = block();
  const uint8_t* q = static_cast<const uint8_t*>(p);
  if (q < c.ub_base || q >= c.ub_base + c.ub_size) {
    kernel_fault(what, ": ", operand, " is not inside this core's Unified Buffer");
  }
  const size_t off = static_cast<size_t>(q - c.ub_base);
  if (off % 32 != 0) {
    kernel_fault(what, ": ", operand, " starts at UB offset ", off, ", which is not 32-byte aligned");
  }
}

/** Fault unless @p bytes is a whole number of 32-byte blocks. */
inline void check_copy_length(uint64_t count, uint64_t elem, const char* what) {
  if ((count * elem) % 32 != 0) {
    kernel_fault(what, " of ", count, " elements (", count * elem,
                 " bytes) is not a multiple of 32 bytes; pad the tile or use DataCopyPad");
  }
}

}  // namespace detail

/** GM -> UB, @p count elements. */
template <class T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, uint32_t count) {
  detail::check_copy_length(count, sizeof(T), "DataCopy GM->UB");
  detail::check_ub_aligned(dst.GetPhyAddr(), "DataCopy GM->UB", "the UB destination");
  dst.check(0, count, "DataCopy GM->UB destination");
  src.check(0, count, "DataCopy GM->UB source");
  std::memcpy(dst.GetPhyAddr(), src.GetPhyAddr(), static_cast<size_t>(count) * sizeof(T));
}

/** UB -> GM, @p count elements. */
template <class T>
void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count) {
  detail::check_copy_length(count, sizeof(T), "DataCopy UB->GM");
  detail::check_ub_aligned(src.GetPhyAddr(), "DataCopy UB->GM", "the UB source");
  src.check(0, count, "DataCopy UB->GM source");
  dst.check(0, count, "DataCopy UB->GM destination");
  std::memcpy(dst.GetPhyAddr(), src.GetPhyAddr(), static_cast<size_t>(count) * sizeof(T));
}

/** UB -> UB, @p count elements. */
template <class T>
void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count) {
  detail::check_copy_length(count, sizeof(T), "DataCopy UB->UB");
  detail::check_ub_aligned(dst.GetPhyAddr(), "DataCopy UB->UB", "the destination");
  detail::check_ub_aligned(src.GetPhyAddr(), "DataCopy UB->UB", "the source");
  dst.check(0, count, "DataCopy UB->UB destination");
  src.check(0, count, "DataCopy UB->UB source");
  std::memmove(dst.GetPhyAddr(), src.GetPhyAddr(), static_cast<size_t>(count) * sizeof(T));
}

/** GM -> UB in blockCount runs of blockLen 32-byte blocks, with gaps (in blocks) between runs. */
template <class T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& p) {
  detail::check_ub_aligned(dst.GetPhyAddr(), "DataCopy GM->UB (strided)", "the UB destination");
  const uint64_t per_blk = 32 / sizeof(T), run = p.blockLen * per_blk;
  for (uint64_t b = 0; b < p.blockCount; ++b) {
    const uint64_t s = b * (run + p.srcStride * per_blk), d = b * (run + p.dstStride * per_blk);
    dst.check(d, run, "DataCopy GM->UB (strided) destination");
    src.check(s, run, "DataCopy GM->UB (strided) source");
    std::memcpy(dst.GetPhyAddr() + d, src.GetPhyAddr() + s, run * sizeof(T));
  }
}

/** UB -> GM in blockCount runs of blockLen 32-byte blocks, with gaps (in blocks) between runs. */
template <class T>
void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p) {
  detail::check_ub_aligned(src.GetPhyAddr(), "DataCopy UB->GM (strided)", "the UB source");
  const uint64_t per_blk = 32 / sizeof(T), run = p.blockLen * per_blk;
  for (uint64_t b = 0; b < p.blockCount; ++b) {
    const uint64_t s = b * (run + p.srcStride * per_blk), d = b * (run + p.dstStride * per_blk);
    src.check(s, run, "DataCopy UB->GM (strided) source");
    dst.check(d, run, "DataCopy UB->GM (strided) destination");
    std::memcpy(dst.GetPhyAddr() + d, src.GetPhyAddr() + s, run * sizeof(T));
  }
}

/**
 * DataCopyPad parameters (A2/A3): blockCount rows of blockLen BYTES. GM gaps
 * (srcStride for GM->UB, dstStride for UB->GM) are in bytes; UB gaps are in
 * 32-byte blocks. In UB every row occupies a whole number of 32-byte blocks.
 */
struct DataCopyExtParams {
  uint16_t blockCount = 1;
  uint32_t blockLen = 0;
  uint32_t srcStride = 0;
  uint32_t dstStride = 0;
  uint32_t rsv = 0;
  DataCopyExtParams() = default;
  DataCopyExtParams(uint16_t count, uint32_t len, uint32_t srcGap, uint32_t dstGap, uint32_t reserved)
      : blockCount(count), blockLen(len), srcStride(srcGap), dstStride(dstGap), rsv(reserved) {}
};

/** Padding for DataCopyPad GM->UB: leftPadding/rightPadding elements of paddingValue around each row. */
template <class T>
struct DataCopyPadExtParams {
  bool isPad = false;
  uint8_t leftPadding = 0;
  uint8_t rightPadding = 0;
  T paddingValue = T();
  DataCopyPadExtParams() = default;
  DataCopyPadExtParams(bool pad, uint8_t left, uint8_t right, T value)
      : isPad(pad), leftPadding(left), rightPadding(right), paddingValue(value) {}
};

/**
 * GM -> UB of rows whose length need not be 32-byte aligned. Row r lands at
 * UB offset r * (ceil32((left + n + right) elements) + dstStride * 32) with its
 * data after `leftPadding` elements; with isPad the rest of the row (left pad
 * and everything after the data up to the 32-byte boundary) is paddingValue,
 * otherwise it is left untouched.
 */
template <class T>
void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyExtParams& p,
                 const DataCopyPadExtParams<T>& pad) {
  const char* what = "DataCopyPad GM->UB";
  detail::check_ub_aligned(dst.GetPhyAddr(), what, "the UB destination");
  if (p.blockLen % sizeof(T) != 0) {
    detail::kernel_fault(what, ": blockLen ", p.blockLen, " bytes is not a whole number of ", sizeof(T), "-byte elements");
  }
  const uint64_t n = p.blockLen / sizeof(T);
  const uint64_t row_bytes = (static_cast<uint64_t>(pad.leftPadding + pad.rightPadding) * sizeof(T) + p.blockLen + 31) / 32 * 32;
  const uint64_t row = row_bytes / sizeof(T), ub_step = row + p.dstStride * (32 / sizeof(T));
  for (uint64_t r = 0; r < p.blockCount; ++r) {
    const uint64_t gm_off_bytes = r * (static_cast<uint64_t>(p.blockLen) + p.srcStride);
    if (gm_off_bytes % sizeof(T) != 0) detail::kernel_fault(what, ": srcStride ", p.srcStride, " bytes splits an element");
    const uint64_t s = gm_off_bytes / sizeof(T), d = r * ub_step;
    dst.check(d, row, "DataCopyPad GM->UB destination");
    src.check(s, n, "DataCopyPad GM->UB source");
    T* out = dst.GetPhyAddr() + d;
    if (pad.isPad) {
      for (uint64_t i = 0; i < row; ++i) out[i] = pad.paddingValue;
    }
    std::memcpy(out + pad.leftPadding, src.GetPhyAddr() + s, p.blockLen);
  }
}

/** UB -> GM of rows of blockLen bytes; UB rows are 32-byte aligned (stride ceil32(blockLen) + srcStride * 32). */
template <class T>
void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyExtParams& p) {
  const char* what = "DataCopyPad UB->GM";
  detail::check_ub_aligned(src.GetPhyAddr(), what, "the UB source");
  if (p.blockLen % sizeof(T) != 0) {
    detail::kernel_fault(what, ": blockLen ", p.blockLen, " bytes is not a whole number of ", sizeof(T), "-byte elements");
  }
  const uint64_t n = p.blockLen / sizeof(T);
  const uint64_t row = (static_cast<uint64_t>(p.blockLen) + 31) / 32 * 32 / sizeof(T);
  const uint64_t ub_step = row + p.srcStride * (32 / sizeof(T));
  for (uint64_t r = 0; r < p.blockCount; ++r) {
    const uint64_t gm_off_bytes = r * (static_cast<uint64_t>(p.blockLen) + p.dstStride);
    if (gm_off_bytes % sizeof(T) != 0) detail::kernel_fault(what, ": dstStride ", p.dstStride, " bytes splits an element");
    const uint64_t s = r * ub_step, d = gm_off_bytes / sizeof(T);
    src.check(s, n, "DataCopyPad UB->GM source");
    dst.check(d, n, "DataCopyPad UB->GM destination");
    std::memcpy(dst.GetPhyAddr() + d, src.GetPhyAddr() + s, p.blockLen);
  }
}

/** Pipeline identifiers; barriers are no-ops because a block runs its stages in program order. */
enum pipe_t { PIPE_S, PIPE_V, PIPE_M, PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_ALL };
enum class HardEvent { MTE2_V, V_MTE2, MTE3_V, V_MTE3, MTE2_MTE3, MTE3_MTE2, S_V, V_S, MTE2_S, S_MTE2, MTE3_S, S_MTE3 };
template <pipe_t pipe>
inline void PipeBarrier() {}
template <HardEvent e>
inline void SetFlag(int32_t) {}
template <HardEvent e>
inline void WaitFlag(int32_t) {}

}  // namespace AscendC

/** Old spelling of PipeBarrier<PIPE_ALL>(). */
inline void pipe_barrier(AscendC::pipe_t) {}

#endif  // ACL_SIM_KERNEL_DATA_COPY_H_
