// The input of the direct convs (conv_direct.h, conv_pixel_major.h): zero-padded and split into stride phase
// planes once per call, with the im2col row offsets into it, so that their kernels read every tap as a
// contiguous run.
#pragma once

#include <cstdint>

#include "kernels/conv_geometry.h"

namespace acl_sim {

/**
 * The input as the direct convs read it, built in this thread's scratch by prepare_direct_input: the
 * zero-padded input split into stride phase planes [phases, channels, IHs, pitch] (the caller's x itself
 * when there are no pads and stride 1), and for each of the K = channels x KH x KW im2col rows the offset
 * of its tap in xp: output pixel (oh, ow)'s value of row k is xp[off[k] + oh * pitch + ow]. Valid until
 * this thread prepares another input. A 1-D conv is a 2-D one of height 1.
 */
/** off[] has this many entries past K (copies of the last), so kernels may read offsets ahead to prefetch. */
constexpr int64_t kDirectOffsetSlack = 32;
struct DirectInput {
  const float* xp = nullptr;
  // Instead of xp, a binary16 input read in place (no pads, stride 1), by kernels that widen it as they load it.
  const uint16_t* xh = nullptr;
  const int64_t* off = nullptr;
  int64_t K = 0, KH = 1, KW = 1;
  int64_t IHs = 0, pitch = 0;  // rows and row pitch of one phase plane
  int64_t OH = 0, OW = 0;
};
/**
 * The input planes of a conv as the op holds them: fp32, or 16-bit floats (bfloat16 when bf16, else binary16),
 * which prepare_direct_input widens as it copies them (direct_input_copies), with no widening pass before it.
 */
struct ConvInputPlanes {
  const float* f32 = nullptr;
  const uint16_t* half = nullptr;
  bool bf16 = false;
  ConvInputPlanes(const float* x) : f32(x) {}  // NOLINT: an fp32 input is the common case
  ConvInputPlanes(const uint16_t* x, bool is_bf16) : half(x), bf16(is_bf16) {}
};

/**
 * True when prepare_direct_input copies the input (pads or strides). Otherwise a binary16 input is returned in
 * place (DirectInput::xh) for the direct conv's half-B kernels, and a bfloat16 one is refused.
 */
bool direct_input_copies(const SpatialGeometry& g);

DirectInput prepare_direct_input(const ConvInputPlanes& x, int64_t channels, const SpatialGeometry& g, bool parallel);

/** Whether prepare_direct_input takes g: 1-D or 2-D, strides up to 8 (it tracks phase planes in an 8 x 8 table). */
bool direct_input_supported(const SpatialGeometry& g);

}  // namespace acl_sim
