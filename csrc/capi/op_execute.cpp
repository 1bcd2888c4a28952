// aclopExecuteV2 / aclopExecute / aclopCompileAndExecute, handles, and the
// single-op model directory. Validation happens at the call (so misuse gets
// its code at once); the kernels run as a task on the stream.
#include <memory>
#include <string>
#include <vector>

#include "acl/acl_op.h"
#include "acl/acl_op_compiler.h"
#include "capi/api_guard.h"
#include "capi/data_buffer_view.h"
#include "capi/desc_handles.h"
#include "capi/op_handle.h"
#include "common/error.h"
#include "common/handle_table.h"
#include "op/compiled_op.h"
#include "op/singleop_store.h"
#include "op/tensor_desc.h"
#include "runtime/runtime.h"
#include "runtime/stream.h"

struct aclopHandle {
  std::shared_ptr<acl_sim::CompiledOp> op;
};

namespace acl_sim {
namespace {

HandleTable<aclopHandle>& op_handles() {
  static HandleTable<aclopHandle> table;
  return table;
}

std::vector<OperandSpec> specs_of(int n, const aclTensorDesc* const descs[], const char* what) {
  ACL_SIM_REQUIRE(n >= 0, ACL_ERROR_INVALID_PARAM, "num", what, "s ", n, " is negative");
  ACL_SIM_REQUIRE(n == 0 || descs != nullptr, ACL_ERROR_INVALID_PARAM, what, "Desc is NULL with ", n, " ", what, "s");
  std::vector<OperandSpec> out;
  for (int i = 0; i < n; ++i) {
    std::string name = str(what, "Desc[", i, "]");
    auto d = require_tensor_desc(descs[i], name.c_str());
    out.push_back({static_cast<int>(d->dtype), static_cast<int>(d->format), d->dims});
  }
  return out;
}

// Addresses of the buffers, each checked against the byte size its operand needs.
template <class Ptr>
std::vector<Ptr> addresses_of(int n, const aclDataBuffer* const bufs[], const std::vector<OperandSpec>& specs,
                              bool input) {
  const char* what = input ? "input" : "output";
  ACL_SIM_REQUIRE(static_cast<size_t>(n) == specs.size(), input ? ACL_ERROR_OP_INPUT_NOT_MATCH : ACL_ERROR_OP_OUTPUT_NOT_MATCH,
                  "got ", n, " ", what, " buffers for ", specs.size(), " ", what, " descs");
  ACL_SIM_REQUIRE(n == 0 || bufs != nullptr, ACL_ERROR_INVALID_PARAM, what, "s is NULL with ", n, " ", what, "s");
  std::vector<Ptr> out;
  for (int i = 0; i < n; ++i) {
    std::string name = str(what, "s[", i, "]");
    capi::BufferView b = capi::view_data_buffer(bufs[i], name.c_str());
    size_t need = specs[i].bytes();
    ACL_SIM_REQUIRE(need == 0 || b.addr != nullptr, ACL_ERROR_INVALID_PARAM, what, " ", i,
                    " buffer has a NULL address");
    ACL_SIM_REQUIRE(b.size >= need, input ? ACL_ERROR_OP_INPUT_NOT_MATCH : ACL_ERROR_OP_OUTPUT_NOT_MATCH, what, " ", i,
                    " expects ", need, " bytes, buffer has ", b.size);
    out.push_back(static_cast<Ptr>(b.addr));
  }
  return out;
}

void enqueue_op(std::shared_ptr<CompiledOp> op, int n_in, const aclDataBuffer* const inputs[], int n_out,
                const aclDataBuffer* const outputs[], aclrtStream stream) {
  auto in = addresses_of<const void*>(n_in, inputs, op->inputs(), true);
  auto out = addresses_of<void*>(n_out, outputs, op->outputs(), false);
  capi::enqueue_compiled_op(std::move(op), std::move(in), std::move(out), stream);
}

aclError execute(const char* fn, const char* opType, int numInputs, const aclTensorDesc* const inputDesc[],
                 const aclDataBuffer* const inputs[], int numOutputs, const aclTensorDesc* const outputDesc[],
                 const aclDataBuffer* const outputs[], const aclopAttr* attr, aclrtStream stream) {
  return capi::api_call(fn, [&] {
    Runtime::get().require_initialized();
    ACL_SIM_REQUIRE(opType != nullptr && opType[0] != '\0', ACL_ERROR_INVALID_PARAM, "opType is NULL or empty");
    auto in_specs = specs_of(numInputs, inputDesc, "input");
    auto out_specs = specs_of(numOutputs, outputDesc, "output");
    aclopAttr attrs = resolve_op_attr(attr);
    auto op = SingleOpStore::instance().resolve(opType, std::move(in_specs), std::move(out_specs), attrs);
    enqueue_op(std::move(op), numInputs, inputs, numOutputs, outputs, stream);
  });
}

}  // namespace

namespace capi {

aclopHandle* add_op_handle(std::shared_ptr<CompiledOp> op) {
  auto h = std::make_shared<aclopHandle>();
  h->op = std::move(op);
  return op_handles().add(std::move(h));
}

void enqueue_compiled_op(std::shared_ptr<CompiledOp> op, std::vector<const void*> in, std::vector<void*> out,
                         aclrtStream stream) {
  resolve_stream(stream)->enqueue("op_execute", [op = std::move(op), in = std::move(in), out = std::move(out)] { op->run(in, out); });
}

}  // namespace capi
}  // namespace acl_sim

using acl_sim::capi::api_call;

extern "C" {

aclError aclopSetModelDir(const char* modelDir) {
  return api_call("aclopSetModelDir", [&] {
    ACL_SIM_REQUIRE(modelDir != nullptr && modelDir[0] != '\0', ACL_ERROR_INVALID_PARAM, "modelDir is NULL or empty");
    acl_sim::SingleOpStore::instance().load_dir(modelDir);
  });
}

aclError aclopLoad(const void* model, size_t modelSize) {
  return api_call("aclopLoad", [&] {
    ACL_SIM_REQUIRE(model != nullptr && modelSize > 0, ACL_ERROR_INVALID_PARAM, "model is NULL or modelSize is 0");
    acl_sim::SingleOpStore::instance().load_bytes(model, modelSize, "aclopLoad model");
  });
}

aclError aclopExecuteV2(const char* opType, int numInputs, aclTensorDesc* inputDesc[], aclDataBuffer* inputs[],
                        int numOutputs, aclTensorDesc* outputDesc[], aclDataBuffer* outputs[], aclopAttr* attr,
                        aclrtStream stream) {
  return acl_sim::execute("aclopExecuteV2", opType, numInputs, inputDesc, inputs, numOutputs, outputDesc, outputs,
                          attr, stream);
}

aclError aclopExecute(const char* opType, int numInputs, const aclTensorDesc* const inputDesc[],
                      const aclDataBuffer* const inputs[], int numOutputs, const aclTensorDesc* const outputDesc[],
                      aclDataBuffer* const outputs[], const aclopAttr* attr, aclrtStream stream) {
  return acl_sim::execute("aclopExecute", opType, numInputs, inputDesc, inputs, numOutputs, outputDesc, outputs, attr,
                          stream);
}

aclError aclopCompileAndExecute(const char* opType, int numInputs, const aclTensorDesc* const inputDesc[],
                                const aclDataBuffer* const inputs[], int numOutputs,
                                const aclTensorDesc* const outputDesc[], aclDataBuffer* const outputs[],
                                const aclopAttr* attr, aclopEngineType engineType, aclopCompileType compileFlag,
                                const char* opPath, aclrtStream stream) {
  return acl_sim::execute("aclopCompileAndExecute", opType, numInputs, inputDesc, inputs, numOutputs, outputDesc,
                          outputs, attr, stream);
}

aclError aclopCompile(const char* opType, int numInputs, const aclTensorDesc* const inputDesc[], int numOutputs,
                      const aclTensorDesc* const outputDesc[], const aclopAttr* attr, aclopEngineType engineType,
                      aclopCompileType compileFlag, const char* opPath) {
  return api_call("aclopCompile", [&] {
    acl_sim::Runtime::get().require_initialized();
    ACL_SIM_REQUIRE(opType != nullptr && opType[0] != '\0', ACL_ERROR_INVALID_PARAM, "opType is NULL or empty");
    auto in_specs = acl_sim::specs_of(numInputs, inputDesc, "input");
    auto out_specs = acl_sim::specs_of(numOutputs, outputDesc, "output");
    aclopAttr attrs = acl_sim::resolve_op_attr(attr);
    acl_sim::SingleOpStore::instance().resolve(opType, std::move(in_specs), std::move(out_specs), attrs);
  });
}

aclError aclopCreateHandle(const char* opType, int numInputs, const aclTensorDesc* const inputDesc[], int numOutputs,
                           const aclTensorDesc* const outputDesc[], const aclopAttr* opAttr, aclopHandle** handle) {
  return api_call("aclopCreateHandle", [&] {
    acl_sim::Runtime::get().require_initialized();
    ACL_SIM_REQUIRE(opType != nullptr && opType[0] != '\0', ACL_ERROR_INVALID_PARAM, "opType is NULL or empty");
    ACL_SIM_REQUIRE(handle != nullptr, ACL_ERROR_INVALID_PARAM, "handle is NULL");
    auto in_specs = acl_sim::specs_of(numInputs, inputDesc, "input");
    auto out_specs = acl_sim::specs_of(numOutputs, outputDesc, "output");
    aclopAttr attrs = acl_sim::resolve_op_attr(opAttr);
    *handle = acl_sim::capi::add_op_handle(
        acl_sim::SingleOpStore::instance().resolve(opType, std::move(in_specs), std::move(out_specs), attrs));
  });
}

void aclopDestroyHandle(aclopHandle* handle) {
  api_call("aclopDestroyHandle", [&] {
    if (handle == nullptr) return;
    ACL_SIM_REQUIRE(acl_sim::op_handles().remove(handle) != nullptr, ACL_ERROR_INVALID_PARAM,
                    "handle is not a live aclopHandle (double destroy?)");
  });
}

aclError aclopExecWithHandle(aclopHandle* handle, int numInputs, const aclDataBuffer* const inputs[], int numOutputs,
                             aclDataBuffer* const outputs[], aclrtStream stream) {
  return api_call("aclopExecWithHandle", [&] {
    acl_sim::Runtime::get().require_initialized();
    ACL_SIM_REQUIRE(handle != nullptr, ACL_ERROR_INVALID_PARAM, "handle is NULL");
    auto h = acl_sim::op_handles().find(handle);
    ACL_SIM_REQUIRE(h != nullptr, ACL_ERROR_INVALID_PARAM, "handle is not a live aclopHandle");
    acl_sim::enqueue_op(h->op, numInputs, inputs, numOutputs, outputs, stream);
  });
}

}  // extern "C"
