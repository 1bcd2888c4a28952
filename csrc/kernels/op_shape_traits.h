// Shape-setting ops: operators whose output shapes depend on input values
// (NonZero, Unique, Compress, NonMaxSuppression). Everything else in
// op_registry.h holds for them, except that output shapes are not given:
// on entry each output view's shape is its capacity (the upper bound ATC
// planned memory for); the op writes its actual output shape into the view
// (same rank, every dim <= the capacity's, the data dense in row-major order
// for the actual shape). The model executor turns those shapes into the
// run-time dims of the nodes downstream (docs/dynamic_shapes.md).
#pragma once

#include <string>

#include "kernels/op_registry.h"

namespace acl_sim {

/** Marks an already registered op as shape-setting (ACL_SIM_REGISTER_SHAPE_OP does both). */
void mark_shape_setting_op(const std::string& op_type);
/** True for a registered shape-setting op. */
bool op_sets_output_shape(const std::string& op_type);

struct ShapeOpRegistration {
  ShapeOpRegistration(const char* op_type, OpFn fn) {
    register_op(op_type, fn);
    mark_shape_setting_op(op_type);
  }
};

}  // namespace acl_sim

/** At namespace scope in a kernel source file: ACL_SIM_REGISTER_SHAPE_OP(NonZero, run_nonzero); */
#define ACL_SIM_REGISTER_SHAPE_OP(type, fn) \
  static ::acl_sim::ShapeOpRegistration acl_sim_op_registration_##type(#type, fn)
