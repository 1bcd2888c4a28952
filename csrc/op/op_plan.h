// The kernel-call plan behind a CompiledOp: registry ops wired to the user's
// operands, scratch tensors and small constants. Built by the per-op-type
// translators in op_translate.cpp; executed by compiled_op.cpp.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "common/attrs.h"
#include "op/compiled_op.h"

namespace acl_sim {

struct TensorRef {
  enum Kind { kInput, kOutput, kTemp, kConst, kAbsent };
  Kind kind = kAbsent;
  int index = 0;
};

struct PlanStep {
  std::string op;  // registry (ONNX) op type
  Attrs attrs;
  std::vector<TensorRef> inputs;
  std::vector<TensorRef> outputs;
};

struct PlanTensor {
  int dtype = 0;
  std::vector<int64_t> shape;
  std::vector<uint8_t> bytes;  // constants only
};

struct OpPlan {
  std::vector<PlanStep> steps;
  std::vector<PlanTensor> temps;
  std::vector<PlanTensor> consts;

  TensorRef add_temp(int dtype, std::vector<int64_t> shape) {
    temps.push_back({dtype, std::move(shape), {}});
    return {TensorRef::kTemp, static_cast<int>(temps.size() - 1)};
  }
  TensorRef add_const_i64(const std::vector<int64_t>& values);
};

/** What a translator sees: the call, plus the input values when running (null while compiling). */
struct TranslateInput {
  const std::string& type;
  const std::vector<OperandSpec>& in;
  const std::vector<OperandSpec>& out;
  const aclopAttr& attr;
  const std::vector<const void*>* in_data;  // nullptr at compile time
};

/** Fills @p plan for the call, or throws the ACL_ERROR_OP_* code. Returns false if unknown type. */
bool translate_op(const TranslateInput& call, OpPlan& plan);

}  // namespace acl_sim
