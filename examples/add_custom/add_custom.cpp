/**
 * add_custom: z = x + y, the canonical Ascend C vector kernel in the
 * double-buffered CopyIn / Compute / CopyOut shape.
 *
 * Each of the GetBlockNum() blocks owns totalLength / blockNum contiguous
 * elements and walks them in tileNum * BUFFER_NUM tiles. With BUFFER_NUM = 2
 * every queue holds two UB buffers, so on the NPU tile i+1 is being copied in
 * (MTE2) while tile i is computed (Vector) and tile i-1 copied out (MTE3).
 *
 * Build for acl_sim:  g++ -std=c++17 -O2 -shared -fPIC -I<acl_sim include> add_custom.cpp -o add_custom.so
 */
#include "kernel_operator.h"
#include "add_custom_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;  // tensors per queue: double buffering

template <typename T>
class KernelAdd {
 public:
  __aicore__ inline KernelAdd() {}

  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t totalLength, uint32_t tileNum) {
    blockLength_ = totalLength / GetBlockNum();
    tileNum_ = tileNum;
    tileLength_ = blockLength_ / tileNum / BUFFER_NUM;
    const uint64_t offset = static_cast<uint64_t>(blockLength_) * GetBlockIdx();
    xGm_.SetGlobalBuffer((__gm__ T*)x + offset, blockLength_);
    yGm_.SetGlobalBuffer((__gm__ T*)y + offset, blockLength_);
    zGm_.SetGlobalBuffer((__gm__ T*)z + offset, blockLength_);
    pipe_.InitBuffer(inQueueX_, BUFFER_NUM, tileLength_ * sizeof(T));
    pipe_.InitBuffer(inQueueY_, BUFFER_NUM, tileLength_ * sizeof(T));
    pipe_.InitBuffer(outQueueZ_, BUFFER_NUM, tileLength_ * sizeof(T));
  }

  __aicore__ inline void Process() {
    const int32_t loopCount = static_cast<int32_t>(tileNum_ * BUFFER_NUM);
    for (int32_t i = 0; i < loopCount; i++) {
      CopyIn(i);
      Compute(i);
      CopyOut(i);
    }
  }

 private:
  __aicore__ inline void CopyIn(int32_t progress) {
    LocalTensor<T> xLocal = inQueueX_.AllocTensor<T>();
    LocalTensor<T> yLocal = inQueueY_.AllocTensor<T>();
    DataCopy(xLocal, xGm_[progress * tileLength_], tileLength_);
    DataCopy(yLocal, yGm_[progress * tileLength_], tileLength_);
    inQueueX_.EnQue(xLocal);
    inQueueY_.EnQue(yLocal);
  }

  __aicore__ inline void Compute(int32_t /*progress*/) {
    LocalTensor<T> xLocal = inQueueX_.DeQue<T>();
    LocalTensor<T> yLocal = inQueueY_.DeQue<T>();
    LocalTensor<T> zLocal = outQueueZ_.AllocTensor<T>();
    Add(zLocal, xLocal, yLocal, tileLength_);
    outQueueZ_.EnQue<T>(zLocal);
    inQueueX_.FreeTensor(xLocal);
    inQueueY_.FreeTensor(yLocal);
  }

  __aicore__ inline void CopyOut(int32_t progress) {
    LocalTensor<T> zLocal = outQueueZ_.DeQue<T>();
    DataCopy(zGm_[progress * tileLength_], zLocal, tileLength_);
    outQueueZ_.FreeTensor(zLocal);
  }

  TPipe pipe_;
  TQue<QuePosition::VECIN, BUFFER_NUM> inQueueX_, inQueueY_;
  TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueZ_;
  GlobalTensor<T> xGm_, yGm_, zGm_;
  uint32_t blockLength_ = 0;
  uint32_t tileNum_ = 0;
  uint32_t tileLength_ = 0;
};

/** fp16 add (the CANN sample's kernel). */
extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR tiling) {
  GET_TILING_DATA(tilingData, tiling);
  KernelAdd<half> op;
  op.Init(x, y, z, tilingData.totalLength, tilingData.tileNum);
  op.Process();
}

/** fp32 add, same tiling. */
extern "C" __global__ __aicore__ void add_custom_fp32(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR tiling) {
  GET_TILING_DATA(tilingData, tiling);
  KernelAdd<float> op;
  op.Init(x, y, z, tilingData.totalLength, tilingData.tileNum);
  op.Process();
}
