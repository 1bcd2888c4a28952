/**
 * Tiling for add_custom: computed on the host, passed to the kernel as its
 * last GM_ADDR argument, read once per block with GET_TILING_DATA.
 */
#ifndef ADD_CUSTOM_TILING_H
#define ADD_CUSTOM_TILING_H

#include <cstdint>

struct AddCustomTilingData {
  uint32_t totalLength;  // elements in x, y and z
  uint32_t tileNum;      // tiles per block (each split in BUFFER_NUM halves for double buffering)
};

#define GET_TILING_DATA(tilingData, tilingArg) GET_TILING_DATA_WITH_STRUCT(AddCustomTilingData, tilingData, tilingArg)

#endif  // ADD_CUSTOM_TILING_H
