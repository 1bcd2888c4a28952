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
#include <cstdint>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "common/dtype.h"  // dtype_size, dtype_name: the vocabulary of TensorView::dtype

namespace acl_sim {

/** A dense, row-major tensor in device (or host) memory. dtype is an aclDataType number. */
struct TensorView {
  void* data = nullptr;  // nullptr: an absent optional input
  int dtype = 0;
  std::vector<int64_t> shape;

  int64_t numel() const {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    return n;
  }
  bool present() const { return data != nullptr; }
};

using AttrValue = std::variant<int64_t, double, std::string, std::vector<int64_t>, std::vector<double>>;

class Attrs {
 public:
  void set(const std::string& name, AttrValue v) { values_[name] = std::move(v); }
  bool has(const std::string& name) const { return values_.count(name) != 0; }
  int64_t get_int(const std::string& name, int64_t def) const;
  double get_float(const std::string& name, double def) const;
  std::string get_string(const std::string& name, const std::string& def) const;
  std::vector<int64_t> get_ints(const std::string& name, const std::vector<int64_t>& def = {}) const;
  std::vector<double> get_floats(const std::string& name, const std::vector<double>& def = {}) const;
  const std::map<std::string, AttrValue>& all() const { return values_; }

 private:
  std::map<std::string, AttrValue> values_;
};

struct OpContext {
  const char* op_type = "";
  const char* node_name = "";
  std::vector<TensorView> inputs;
  std::vector<TensorView> outputs;
  const Attrs* attrs = nullptr;
};

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
