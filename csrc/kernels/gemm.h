// Packed, cache-blocked single-precision GEMM with register-tiled micro-kernels
// (AVX-512 8x48, AVX2 4x24, portable 4x8), parallel over output tiles on
// ThreadPool::instance(), with the bias + activation epilogue fused per micro-panel.
//
//   C[M,N] = act(alpha * A[M,K] * B[K,N] + beta * C + bias)
//
// A is any strided matrix (so transposes cost nothing); B comes from a
// BPanelSource, which lets convolution feed im2col panels straight into the
// packing step (implicit GEMM) instead of materialising the column matrix.
#pragma once

#include <cstdint>

#include "common/export.h"
#include "kernels/epilogue.h"

namespace acl_sim {

/** Read-only fp32 matrix view: element (i, j) is data[i*rs + j*cs]. */
struct MatrixRef {
  const float* data = nullptr;
  int64_t rs = 0;  // row stride, in elements
  int64_t cs = 1;  // column stride, in elements
};

/** Produces K x N panels of the B operand for packing. Must be thread-safe (const). */
class BPanelSource {
 public:
  virtual ~BPanelSource() = default;
  /**
   * Write rows [k0, k0+kc) of columns [n0, n0+n_valid) into dst as kc rows of
   * `width` floats: dst[k*width + j] = B(k0+k, n0+j); columns j in [n_valid, width) get 0.
   */
  virtual void pack(int64_t k0, int64_t kc, int64_t n0, int64_t n_valid, int64_t width, float* dst) const = 0;
  /**
   * Pack a whole tile's slice, columns [n0, n0+n_valid), as consecutive strips back to back in dst:
   * every strip `strip` columns wide except the last, which is `last_width` wide (its columns past
   * n_valid get 0); strip s starts at dst + s*strip*kc and holds kc rows of its width. The default
   * calls pack() per strip; sources with per-call setup (im2col) override it to pay that once.
   */
  virtual void pack_strips(int64_t k0, int64_t kc, int64_t n0, int64_t n_valid, int64_t strip, int64_t last_width,
                           float* dst) const;
  /** What producing a packed value costs, in copies of one (im2col's gathers: several); the tile split weighs it. */
  virtual double pack_cost() const { return 1.0; }
  /** B itself when it is a row-major matrix (B(k, n) = data[k * *ld + n]), which the micro-kernels can read in
   *  place while they pack it; else null. */
  virtual const float* rows(int64_t* ld) const { (void)ld; return nullptr; }
  /** The same for a row-major binary16 B (B(k, n) = widened data[k * *ld + n]); else null. */
  virtual const uint16_t* half_rows(int64_t* ld) const { (void)ld; return nullptr; }
};

/** BPanelSource over a strided matrix. */
class MatrixPanelSource final : public BPanelSource {
 public:
  explicit MatrixPanelSource(MatrixRef m) : m_(m) {}
  void pack(int64_t k0, int64_t kc, int64_t n0, int64_t n_valid, int64_t width, float* dst) const override;
  void pack_strips(int64_t k0, int64_t kc, int64_t n0, int64_t n_valid, int64_t strip, int64_t last_width,
                   float* dst) const override;
  const float* rows(int64_t* ld) const override {
    if (m_.cs != 1) return nullptr;
    *ld = m_.rs;
    return m_.data;
  }

 private:
  MatrixRef m_;
};

/**
 * BPanelSource over a row-major fp16 (or bf16) matrix, B(k, n) = data[k * ld + n], widened as it is packed (each
 * row segment converted once, straight into its strips): B is never stored as a dense fp32 matrix. For aclblas's
 * 64 x 4096 x 1024 hgemm that widening pass (16 MB written and read again) cost as much as the product; an fp16
 * model's pointwise convs read their input this way instead of after a widening pass over the whole tensor.
 */
class HalfRowsPanelSource final : public BPanelSource {
 public:
  HalfRowsPanelSource(const uint16_t* data, int64_t ld, bool bf16) : data_(data), ld_(ld), bf16_(bf16) {}
  void pack(int64_t k0, int64_t kc, int64_t n0, int64_t n_valid, int64_t width, float* dst) const override;
  void pack_strips(int64_t k0, int64_t kc, int64_t n0, int64_t n_valid, int64_t strip, int64_t last_width,
                   float* dst) const override;
  const uint16_t* half_rows(int64_t* ld) const override {
    if (bf16_) return nullptr;
    *ld = ld_;
    return data_;
  }

 private:
  const uint16_t* data_;
  int64_t ld_;
  bool bf16_;
};

/** Bias and activation applied to each finished output tile. */
struct GemmEpilogue {
  const float* row_bias = nullptr;  // M values, added along each row (conv: per output channel)
  const float* col_bias = nullptr;  // N values, added down each column (Gemm's C of shape [N])
  const float* residual = nullptr;  // M x N values with row stride ldc, added before the activation (Conv + Add)
  Activation act;
  // An fp16 model's output, narrowed from C as each tile finishes (row stride ldc): C is then the caller's fp32
  // staging, and no narrowing pass follows the GEMM. residual_half is the residual in that format, read where it
  // lies (it may be out_half itself: each element is read before its own narrowed value overwrites it).
  // half_is_bf16: both hold bf16 instead of fp16. The tiled path reads these; a product that sets them never takes
  // the few-row path (gemm_small_m), which does not.
  uint16_t* out_half = nullptr;
  const uint16_t* residual_half = nullptr;
  bool half_is_bf16 = false;
};

/** Whether the epilogue does anything (else the GEMM's output is final as accumulated). */
inline bool has_epilogue(const GemmEpilogue& ep) {
  return ep.row_bias || ep.col_bias || ep.residual || ep.residual_half || !ep.act.none();
}

/**
 * C = act(alpha*A*B + beta*C + bias + residual) for a row-major C with row stride ldc.
 * beta == 0 means C is write-only (not read, so NaN garbage is fine).
 * Runs on the caller plus the thread pool (only the caller when parallel is
 * false, for callers that already spread independent GEMMs over the pool);
 * blocks until done. Thread-safe.
 */
void gemm_f32(int64_t M, int64_t N, int64_t K, float alpha, const MatrixRef& A, const BPanelSource& B, float beta,
              float* C, int64_t ldc, const GemmEpilogue& ep = {}, bool parallel = true);

/** Convenience overload with B as a strided matrix. */
void gemm_f32(int64_t M, int64_t N, int64_t K, float alpha, const MatrixRef& A, const MatrixRef& B, float beta,
              float* C, int64_t ldc, const GemmEpilogue& ep = {}, bool parallel = true);

/**
 * A packed once for the micro-kernels (weights, in a loaded model): the mr-row panels of this host's kernel set,
 * each K steps of mr floats (rows past M zero). Read as one sequential stream per panel, where A in place is mr
 * streams of a row each: on short rows (1x1 256->1024, 512->2048) those stop the hardware prefetcher every few
 * lines and a cold A (a model's weights come from memory on every run) stalls the kernel.
 */
int64_t packed_a_floats(int64_t M, int64_t K);
void pack_a_panels(const MatrixRef& A, int64_t M, int64_t K, float* dst);

/** gemm_f32 with A (alpha 1) given as pack_a_panels made it. */
void gemm_f32_packed_a(int64_t M, int64_t N, int64_t K, const float* a_packed, const BPanelSource& B, float beta,
                       float* C, int64_t ldc, const GemmEpilogue& ep = {}, bool parallel = true);

/**
 * B packed once for the micro-kernels (a loaded model's constant MatMul / Gemm weight, as onnxruntime pre-packs
 * it at session start): whole-K strips of this host's widest kernel, each K rows of `widest` floats, then the
 * last N % widest columns (gemm.cpp: PackedBTail). Every tile then reads its strips in place, where B as given
 * is packed again by every tile on every call. Stop 37 (AMD EPYC Zen 4, 2 threads, library A/B, 900-3700
 * alternated executes): the one-node MatMul 1024^3 0.968x the time on AVX2 and 0.983x on AVX-512, the
 * transformer 0.940x / 0.965x.
 */
int64_t packed_b_floats(int64_t N, int64_t K);
void pack_b_panels(const MatrixRef& B, int64_t N, int64_t K, float* dst);

/** Whether gemm_f32_packed_b reads the packed B for this product (the few-row path reads B itself). */
bool gemm_uses_packed_b(int64_t M, int64_t K, const MatrixRef& A, const MatrixRef& B);

/** gemm_f32 with B also given as pack_b_panels made it (or null: as gemm_f32); few-row products read B itself. */
void gemm_f32_packed_b(int64_t M, int64_t N, int64_t K, float alpha, const MatrixRef& A, const MatrixRef& B,
                       const float* b_packed, float beta, float* C, int64_t ldc, const GemmEpilogue& ep = {},
                       bool parallel = true);

/** "avx512 8x48" etc.: the micro-kernel the driver uses on this host (for benchmarks and logs). */
ACL_SIM_EXPORT const char* gemm_kernel_name();

}  // namespace acl_sim
