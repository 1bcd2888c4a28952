// The AIPP parameter block (docs/aipp.md): a 64-byte header plus 96 bytes per
// image, little-endian at fixed offsets. ATC writes it as a weight for static
// AIPP (python/acl_sim/compiler/aipp.py packs the same layout); for dynamic
// AIPP aclmdlSetInputAIPP writes it into the ascend_dynamic_aipp_data buffer.
// The AclSim.Aipp kernel decodes it on every run.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace acl_sim {

constexpr size_t kAippHeaderBytes = 64;
constexpr size_t kAippBatchBytes = 96;

/** aclAippInputFormat values acl_sim runs. */
enum AippFormat : int { kAippYuv420sp = 1, kAippXrgb8888 = 2, kAippRgb888 = 3, kAippYuv400 = 4 };

struct AippBatchParams {
  bool crop = false;
  int32_t crop_x = 0, crop_y = 0, crop_w = 0, crop_h = 0;
  bool scf = false;
  int32_t scf_in_w = 0, scf_in_h = 0, scf_out_w = 0, scf_out_h = 0;
  bool padding = false;
  int32_t pad_top = 0, pad_bottom = 0, pad_left = 0, pad_right = 0;
  int16_t mean[4] = {0, 0, 0, 0};
  float min[4] = {0, 0, 0, 0};
  float var_reci[4] = {1, 1, 1, 1};
};

struct AippParams {
  int format = 0;  // AippFormat; 0 = not set
  bool csc = false, rbuv_swap = false, ax_swap = false;
  int32_t src_w = 0, src_h = 0;
  int16_t matrix[9] = {298, 516, 0, 298, -100, -208, 298, 0, 409};
  uint8_t output_bias[3] = {16, 128, 128};
  uint8_t input_bias[3] = {16, 128, 128};
  float padding_value = 0;
  std::vector<AippBatchParams> batches;
};

inline size_t aipp_block_bytes(size_t batch) { return kAippHeaderBytes + kAippBatchBytes * batch; }

/** Bytes of one raw image of this format (YUV420SP: w*h*3/2). 0 for an unknown format. */
size_t aipp_image_bytes(int format, int64_t w, int64_t h);

/** Serialise into @p out (aipp_block_bytes(p.batches.size()) bytes). */
void encode_aipp_params(const AippParams& p, uint8_t* out);

/** Parse a block of @p size bytes; throws ACL_ERROR_INVALID_PARAM when it is short or malformed. */
AippParams decode_aipp_params(const uint8_t* block, size_t size);

}  // namespace acl_sim
