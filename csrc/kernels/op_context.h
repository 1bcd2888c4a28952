// The calling convention of a registered operator (op_registry.h): what the
// model executor, aclop and the aclnn/blas translations hand an OpFn.
#pragma once

#include <cstdint>
#include <vector>

#include "common/attrs.h"
#include "common/tensor_view.h"

namespace acl_sim {

class NodeCache;

/** Output shapes are already known (ATC inferred them per profile; aclop takes them from the
 *  output descs). The views and attrs belong to the caller for the duration of the call. */
struct OpContext {
  const char* op_type = "";
  const char* node_name = "";
  std::vector<TensorView> inputs;
  std::vector<TensorView> outputs;
  const Attrs* attrs = nullptr;
  /** Bit k set: inputs[k] is a weight of a loaded model, constant while the model stays loaded. */
  uint64_t weight_inputs = 0;
  /** This node's cache of work derived from its weight inputs (node_cache.h); nullptr outside a model. */
  NodeCache* cache = nullptr;

  bool input_is_weight(size_t k) const { return k < 64 && (weight_inputs >> k & 1u); }
};

}  // namespace acl_sim
