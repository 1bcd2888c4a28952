// The operator set: ONNX operator semantics on the built-in tiled kernels.
// This is the one contract between the kernel library (csrc/kernels/), the
// model executor (csrc/model/) and single-op execution (csrc/op/).
//
// An op receives tensor views whose output shapes are already known (ATC
// inferred them per profile; aclop takes them from the output descs), reads
// its ONNX attributes, and writes its outputs. It runs on the calling thread
// and spreads its work over ThreadPool::instance() as blocks.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "common/dtype.h"  // dtype_size, dtype_name: the vocabulary of TensorView::dtype
#include "kernels/op_context.h"  // OpContext, TensorView, Attrs: the vocabulary an OpFn takes

namespace acl_sim {

/** Throws acl_sim::Error (ACL_ERROR_OP_* codes) on unsupported dtypes/shapes/attrs. */
using OpFn = void (*)(OpContext& ctx);

void register_op(const std::string& op_type, OpFn fn);
/** nullptr if no op of that type is registered. */
OpFn find_op(const std::string& op_type);
std::vector<std::string> registered_ops();

struct OpRegistration {
  OpRegistration(const char* op_type, OpFn fn) { register_op(op_type, fn); }
};

}  // namespace acl_sim

/** At namespace scope in a kernel source file: ACL_SIM_REGISTER_OP(Relu, run_relu); */
#define ACL_SIM_REGISTER_OP(type, fn) \
  static ::acl_sim::OpRegistration acl_sim_op_registration_##type(#type, fn)
