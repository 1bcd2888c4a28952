// Fused activation epilogues for Conv, ConvTranspose, Gemm and MatMul.
//
// ATC folds a following activation node into these ops as the attributes
// `activation`, `activation_alpha`, `activation_beta` (docs/om_format.md).
// The GEMM driver applies bias + activation to each output tile while the
// tile is still in cache, so the fused op costs no extra pass over memory.
#pragma once

#include <cstddef>
#include <cstdint>

namespace acl_sim {

class Attrs;

enum class ActKind { kNone, kRelu, kClip, kSigmoid, kHardSigmoid, kHardSwish, kSilu, kGelu, kGeluTanh, kLeakyRelu, kTanh };

/** An activation with its parameters already resolved to ONNX defaults. */
struct Activation {
  ActKind kind = ActKind::kNone;
  float alpha = 0.f;  // Clip min, HardSigmoid alpha, LeakyRelu alpha
  float beta = 0.f;   // Clip max, HardSigmoid beta
  // Affine after the activation, y = act(x) * scale + shift (attributes activation_scale /
  // activation_shift; ATC's fuse_post_affine puts PP-LCNet's scalar Mul + Add here).
  float scale = 1.f;
  float shift = 0.f;
  bool has_affine() const { return scale != 1.f || shift != 0.f; }
  bool none() const { return kind == ActKind::kNone && !has_affine(); }
  /** max(x, 0) and nothing else: what the kernels that fuse an activation into their stores apply in registers. */
  bool plain_relu() const { return kind == ActKind::kRelu && !has_affine(); }
};

/** Reads `activation*` attributes; throws ACL_ERROR_OP_ATTR_NOT_MATCH for an unknown name. */
Activation activation_from_attrs(const Attrs& attrs);

/** Parses an activation name ("Relu", "Clip", ...); `ok` false when unknown. */
Activation activation_from_name(const char* name, bool* ok);

/** x[i] = act(x[i] + bias) (then * scale + shift) for i < n, in place; vectorised (AVX-512 where available). Thread-safe. */
void bias_activation(float* x, size_t n, float bias, const Activation& act);

/** x[i] = act(x[i] + bias[i]) for i < n (a per-column bias row). */
void bias_row_activation(float* x, size_t n, const float* bias, const Activation& act);

/**
 * x[i] = act((x[i] + res[i]) + bias) (then * scale + shift) for i < n, in place: a fused residual in the
 * same vectorised pass (res may be nullptr). Thread-safe.
 */
void residual_bias_activation(float* x, const float* res, size_t n, float bias, const Activation& act);

/** Scalar reference of one activation with its post affine (exact libm functions); the portable path. */
float activation_scalar(float v, const Activation& act);

}  // namespace acl_sim
