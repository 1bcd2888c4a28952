// The calling convention of a registered operator (op_registry.h): what the
// model executor, aclop and the aclnn/blas translations hand an OpFn.
#pragma once

#include <vector>

#include "common/attrs.h"
#include "common/tensor_view.h"

namespace acl_sim {

/** Output shapes are already known (ATC inferred them per profile; aclop takes them from the
 *  output descs). The views and attrs belong to the caller for the duration of the call. */
struct OpContext {
  const char* op_type = "";
  const char* node_name = "";
  std::vector<TensorView> inputs;
  std::vector<TensorView> outputs;
  const Attrs* attrs = nullptr;
};

}  // namespace acl_sim
