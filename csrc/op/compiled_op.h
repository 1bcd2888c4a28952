// A single-operator call resolved once: a CANN op type ("Add", "MatMul",
// "Conv2D", ...) with its tensor descs and attributes, checked against CANN's
// rules and translated into one or more calls of the built-in ONNX-semantics
// kernels (kernels/op_registry.h). aclopExecuteV2 compiles on the fly;
// aclopCreateHandle keeps one; single-op models pin the accepted signatures.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "kernels/op_registry.h"
#include "op/op_attr.h"

namespace acl_sim {

/** dtype/format/shape of one operand (from an aclTensorDesc). */
struct OperandSpec {
  int dtype = 0;
  int format = 2;
  std::vector<int64_t> dims;
  size_t bytes() const;
  bool operator==(const OperandSpec& o) const { return dtype == o.dtype && format == o.format && dims == o.dims; }
};

class CompiledOp {
 public:
  /**
   * Check (type, operands, attrs) and prepare the kernel calls. Throws ACL_ERROR_OP_NOT_FOUND (100024)
   * for an unknown type, ACL_ERROR_OP_INPUT_NOT_MATCH / _OUTPUT_NOT_MATCH for wrong counts, dtypes or
   * shapes, ACL_ERROR_OP_ATTR_NOT_MATCH for bad attributes, ACL_ERROR_FORMAT_NOT_MATCH for formats.
   */
  static std::shared_ptr<CompiledOp> compile(const std::string& op_type, std::vector<OperandSpec> inputs,
                                             std::vector<OperandSpec> outputs, const aclopAttr& attr);

  /**
   * Run on the calling thread. @p in / @p out hold one address per operand (host-addressable
   * device memory). Inputs whose value steers the computation (ReduceSum axes, Transpose perm)
   * are read here. Throws the codes above for data-dependent mismatches.
   */
  void run(const std::vector<const void*>& in, const std::vector<void*>& out) const;

  const std::string& op_type() const { return type_; }
  const std::vector<OperandSpec>& inputs() const { return inputs_; }
  const std::vector<OperandSpec>& outputs() const { return outputs_; }
  const aclopAttr& attr() const { return attr_; }

 private:
  std::string type_;
  std::vector<OperandSpec> inputs_, outputs_;
  aclopAttr attr_;
};

/** Canonical text of a call signature, used to match calls against loaded single-op models. */
std::string op_signature(const std::string& op_type, const std::vector<OperandSpec>& inputs,
                         const std::vector<OperandSpec>& outputs, const aclopAttr& attr);

}  // namespace acl_sim
