// CompiledOp: compile = translate once to check the call; run = translate
// again with the input values (cheap) and execute the kernel calls in order.
#include "op/compiled_op.h"

#include <cstdlib>
#include <sstream>

#include "acl/acl_base.h"
#include "common/error.h"
#include "op/op_plan.h"
#include "op/tensor_desc.h"

namespace acl_sim {

size_t OperandSpec::bytes() const { return static_cast<size_t>(element_count(dims)) * dtype_size(dtype); }

namespace {

void check_specs(const std::string& type, const std::vector<OperandSpec>& specs, bool input) {
  for (size_t i = 0; i < specs.size(); ++i) {
    ACL_SIM_REQUIRE(dtype_size(specs[i].dtype) != 0, input ? ACL_ERROR_OP_INPUT_NOT_MATCH : ACL_ERROR_OP_OUTPUT_NOT_MATCH,
                    type, ": ", input ? "input " : "output ", i, " has unsupported data type ", specs[i].dtype);
  }
}

OpPlan make_plan(const std::string& type, const std::vector<OperandSpec>& in, const std::vector<OperandSpec>& out,
                 const aclopAttr& attr, const std::vector<const void*>* in_data) {
  OpPlan plan;
  TranslateInput call{type, in, out, attr, in_data};
  if (!translate_op(call, plan))
    fail(ACL_ERROR_OP_NOT_FOUND, "op type '", type, "' is not supported by acl_sim (no kernel); see docs/aclop.md");
  for (const PlanStep& s : plan.steps)
    ACL_SIM_REQUIRE(find_op(s.op) != nullptr, ACL_ERROR_OP_NOT_FOUND, "op type '", type,
                    "' needs the built-in kernel '", s.op, "', which is not registered in this build");
  return plan;
}

struct AlignedFree {
  void operator()(void* p) const { std::free(p); }
};

}  // namespace

std::shared_ptr<CompiledOp> CompiledOp::compile(const std::string& op_type, std::vector<OperandSpec> inputs,
                                                std::vector<OperandSpec> outputs, const aclopAttr& attr) {
  ACL_SIM_REQUIRE(!op_type.empty(), ACL_ERROR_INVALID_PARAM, "opType is empty");
  check_specs(op_type, inputs, true);
  check_specs(op_type, outputs, false);
  make_plan(op_type, inputs, outputs, attr, nullptr);  // throws on any static mismatch
  auto op = std::make_shared<CompiledOp>();
  op->type_ = op_type;
  op->inputs_ = std::move(inputs);
  op->outputs_ = std::move(outputs);
  op->attr_ = attr;
  return op;
}

void CompiledOp::run(const std::vector<const void*>& in, const std::vector<void*>& out) const {
  OpPlan plan = make_plan(type_, inputs_, outputs_, attr_, &in);
  std::vector<std::unique_ptr<void, AlignedFree>> temps;
  temps.reserve(plan.temps.size());
  for (const PlanTensor& t : plan.temps) {
    size_t bytes = static_cast<size_t>(element_count(t.shape)) * dtype_size(t.dtype);
    size_t rounded = (bytes + 63) / 64 * 64 + 64;
    void* p = std::aligned_alloc(64, rounded);
    if (!p) throw std::bad_alloc();
    temps.emplace_back(p);
  }
  auto view = [&](const TensorRef& r) -> TensorView {
    TensorView v;
    switch (r.kind) {
      case TensorRef::kInput:
        v.data = const_cast<void*>(in[r.index]);
        v.dtype = inputs_[r.index].dtype;
        v.shape = inputs_[r.index].dims;
        break;
      case TensorRef::kOutput:
        v.data = out[r.index];
        v.dtype = outputs_[r.index].dtype;
        v.shape = outputs_[r.index].dims;
        break;
      case TensorRef::kTemp:
        v.data = temps[r.index].get();
        v.dtype = plan.temps[r.index].dtype;
        v.shape = plan.temps[r.index].shape;
        break;
      case TensorRef::kConst:
        v.data = const_cast<uint8_t*>(plan.consts[r.index].bytes.data());
        if (!v.data) v.data = &plan.consts[r.index];  // an empty constant still counts as present
        v.dtype = plan.consts[r.index].dtype;
        v.shape = plan.consts[r.index].shape;
        break;
      case TensorRef::kAbsent:
        break;
    }
    return v;
  };
  for (const PlanStep& s : plan.steps) {
    OpContext ctx;
    ctx.op_type = s.op.c_str();
    ctx.node_name = type_.c_str();
    for (const TensorRef& r : s.inputs) ctx.inputs.push_back(view(r));
    for (const TensorRef& r : s.outputs) ctx.outputs.push_back(view(r));
    ctx.attrs = &s.attrs;
    find_op(s.op)(ctx);
  }
}

std::string op_signature(const std::string& op_type, const std::vector<OperandSpec>& inputs,
                         const std::vector<OperandSpec>& outputs, const aclopAttr& attr) {
  std::ostringstream os;
  os << op_type << '|';
  auto specs = [&](const std::vector<OperandSpec>& v) {
    for (const OperandSpec& s : v) os << s.dtype << ':' << s.format << ':' << dims_to_string(s.dims) << ';';
    os << '|';
  };
  specs(inputs);
  specs(outputs);
  for (const auto& kv : attr.values) os << kv.first << '=' << kv.second.to_string() << ';';
  return os.str();
}

}  // namespace acl_sim
