// What a Conv node of a loaded model derives from its weights, one slot per
// conv path, each built on that path's first use (node_cache.h).
//
// A node's NodeCache holds one object; the Conv paths share it through this
// struct so that each can add its own slot (a path chosen per call, e.g. by
// ACL_SIM_CONV_WINOGRAD, never sees another path's data under its type).
#pragma once

#include "kernels/node_cache.h"

namespace acl_sim {

struct ConvNodeData {
  struct Fresh {};
  explicit ConvNodeData(Fresh) {}
  mutable NodeCache winograd;       // PackedWeights: U = G g G^T in panels of the micro-kernels' mr rows
  mutable NodeCache winograd_tall;  // the same in panels of tall_mr rows (conv_winograd.h: winograd_panel_rows)
  mutable NodeCache pixel_major;    // PackedWeights: pixel_major_pack_weights (conv_pixel_major.h)
  mutable NodeCache direct;         // PackedWeights: direct_pack_weights (conv_direct_packed.h)
  mutable NodeCache gemm_a;         // PackedWeights: pack_a_panels per group (gemm.h)
};

/** The node's ConvNodeData, created empty on first use; thread-safe. */
inline const ConvNodeData& conv_node_data(NodeCache& cache) {
  return cache.get<ConvNodeData>([] { return ConvNodeData::Fresh{}; });
}

}  // namespace acl_sim
