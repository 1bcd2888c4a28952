// Implicit im2col: convolution's B operand (K = C*kernel rows x N = output
// pixels) produced straight into the GEMM's packed panels, so the full column
// matrix is never materialised.
#pragma once

#include <cstdint>

#include "kernels/conv_direct_input.h"
#include "kernels/conv_geometry.h"
#include "kernels/gemm.h"

namespace acl_sim {

class Im2ColSource final : public BPanelSource {
 public:
  /** x: `channels` planes of one image and group, laid out [channels, in...]; g: 1-3 spatial axes. */
  Im2ColSource(const float* x, int64_t channels, const SpatialGeometry& g);
  void pack(int64_t k0, int64_t kc, int64_t n0, int64_t n_valid, int64_t width, float* dst) const override;
  void pack_strips(int64_t k0, int64_t kc, int64_t n0, int64_t n_valid, int64_t strip, int64_t last_width,
                   float* dst) const override;
  double pack_cost() const override { return 4.0; }

 private:
  /** pack_strips for a same-width stride-1 2-D conv with whole-vector strips: masked loads, x86 only. */
  void pack_shifted(int64_t k0, int64_t kc, int64_t n0, int64_t n_valid, int64_t strip, int64_t last_width,
                    float* dst) const;

  const float* x_;
  int64_t channels_;
  // Geometry normalised to 3 axes (leading axes of size 1 when there are fewer).
  int64_t in_[3], out_[3], k_[3], s_[3], d_[3], p_[3];
};

/**
 * Implicit im2col over the direct convs' padded, phase-split input (prepare_direct_input): every tap of every
 * output row is then one contiguous run, copied without bounds checks or strided gathers (conv_ops.cpp says
 * which convs this pays for). 2-D and 1-D convs only; `in` must stay valid while the GEMM packs (it lives in the
 * preparing thread's scratch).
 */
class PhasePlaneIm2ColSource final : public BPanelSource {
 public:
  explicit PhasePlaneIm2ColSource(const DirectInput& in) : in_(in) {}
  void pack(int64_t k0, int64_t kc, int64_t n0, int64_t n_valid, int64_t width, float* dst) const override;
  void pack_strips(int64_t k0, int64_t kc, int64_t n0, int64_t n_valid, int64_t strip, int64_t last_width,
                   float* dst) const override;
  // Cheaper per value than Im2ColSource's gathers, but priced the same: the tile splits it was measured with.
  double pack_cost() const override { return 4.0; }

 private:
  DirectInput in_;
};

}  // namespace acl_sim
