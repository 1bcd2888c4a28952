// Operator attributes with ONNX semantics: a name -> value map filled by the
// .om reader (model nodes), aclop (aclopSetAttr*) and the aclnn/blas
// translations, and read by the kernels. Getters convert where ONNX producers
// disagree on a kind (a whole float where an int is meant, one int for a
// one-element list).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "common/export.h"

namespace acl_sim {

using AttrValue = std::variant<int64_t, double, std::string, std::vector<int64_t>, std::vector<double>>;

/** Getters return @p def for a missing name and throw ACL_ERROR_OP_ATTR_NOT_MATCH for a value of
 *  the wrong kind. Not synchronised: fill before sharing, read concurrently afterwards. */
class ACL_SIM_EXPORT Attrs {
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

}  // namespace acl_sim
