// The operator registry and the Attrs accessors (contract in op_registry.h).
//
// Registration happens from static initialisers in every kernels/*.cpp, so the
// table is a function-local static (no static-initialisation-order problem).
// The entry points are exported from libascendcl.so (the library is built with
// hidden visibility) so the test bindings in _core can reach ops directly.
#include "kernels/op_registry.h"
#include "kernels/op_shape_traits.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <mutex>
#include <type_traits>
#include <unordered_map>

#include "acl/acl_base.h"
#include "common/error.h"
#include "common/export.h"

namespace acl_sim {
namespace {

struct Entry {
  OpFn fn;
  bool sets_output_shape;
};

struct Registry {
  std::mutex mu;
  std::unordered_map<std::string, Entry> ops;
};

Registry& registry() {
  static Registry r;
  return r;
}

const char* kind_name(const AttrValue& v) {
  switch (v.index()) {
    case 0: return "int";
    case 1: return "float";
    case 2: return "string";
    case 3: return "ints";
    default: return "floats";
  }
}

[[noreturn]] void wrong_kind(const std::string& name, const AttrValue& v, const char* want) {
  fail(ACL_ERROR_OP_ATTR_NOT_MATCH, "attribute '", name, "' is ", kind_name(v), ", expected ", want);
}

}  // namespace

ACL_SIM_EXPORT int64_t Attrs::get_int(const std::string& name, int64_t def) const {
  auto it = values_.find(name);
  if (it == values_.end()) return def;
  if (auto* i = std::get_if<int64_t>(&it->second)) return *i;
  // ONNX float attributes holding whole numbers are accepted where an int is meant.
  if (auto* d = std::get_if<double>(&it->second)) {
    if (std::floor(*d) == *d) return static_cast<int64_t>(*d);
  }
  wrong_kind(name, it->second, "int");
}

ACL_SIM_EXPORT double Attrs::get_float(const std::string& name, double def) const {
  auto it = values_.find(name);
  if (it == values_.end()) return def;
  if (auto* d = std::get_if<double>(&it->second)) return *d;
  if (auto* i = std::get_if<int64_t>(&it->second)) return static_cast<double>(*i);
  wrong_kind(name, it->second, "float");
}

ACL_SIM_EXPORT std::string Attrs::get_string(const std::string& name, const std::string& def) const {
  auto it = values_.find(name);
  if (it == values_.end()) return def;
  if (auto* s = std::get_if<std::string>(&it->second)) return *s;
  wrong_kind(name, it->second, "string");
}

ACL_SIM_EXPORT std::vector<int64_t> Attrs::get_ints(const std::string& name, const std::vector<int64_t>& def) const {
  auto it = values_.find(name);
  if (it == values_.end()) return def;
  if (auto* v = std::get_if<std::vector<int64_t>>(&it->second)) return *v;
  if (auto* i = std::get_if<int64_t>(&it->second)) return {*i};
  // An empty list may arrive as "floats" when its element kind was unknown.
  if (auto* v = std::get_if<std::vector<double>>(&it->second)) {
    std::vector<int64_t> out;
    for (double d : *v) {
      if (std::floor(d) != d) wrong_kind(name, it->second, "ints");
      out.push_back(static_cast<int64_t>(d));
    }
    return out;
  }
  wrong_kind(name, it->second, "ints");
}

ACL_SIM_EXPORT std::vector<double> Attrs::get_floats(const std::string& name, const std::vector<double>& def) const {
  auto it = values_.find(name);
  if (it == values_.end()) return def;
  if (auto* v = std::get_if<std::vector<double>>(&it->second)) return *v;
  if (auto* v = std::get_if<std::vector<int64_t>>(&it->second)) return std::vector<double>(v->begin(), v->end());
  if (auto* d = std::get_if<double>(&it->second)) return {*d};
  wrong_kind(name, it->second, "floats");
}

ACL_SIM_EXPORT void register_op(const std::string& op_type, OpFn fn) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  auto [it, inserted] = r.ops.emplace(op_type, Entry{fn, false});
  // Two kernel files claiming one op is a build bug; keep the first so the
  // library still loads, and say so loudly.
  if (!inserted && it->second.fn != fn) {
    std::fprintf(stderr, "acl_sim: op '%s' registered twice; keeping the first registration\n", op_type.c_str());
  }
}

ACL_SIM_EXPORT OpFn find_op(const std::string& op_type) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  auto it = r.ops.find(op_type);
  return it == r.ops.end() ? nullptr : it->second.fn;
}

ACL_SIM_EXPORT void mark_shape_setting_op(const std::string& op_type) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  auto it = r.ops.find(op_type);
  if (it != r.ops.end()) it->second.sets_output_shape = true;
}

ACL_SIM_EXPORT bool op_sets_output_shape(const std::string& op_type) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  auto it = r.ops.find(op_type);
  return it != r.ops.end() && it->second.sets_output_shape;
}

ACL_SIM_EXPORT std::vector<std::string> registered_ops() {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  std::vector<std::string> names;
  names.reserve(r.ops.size());
  for (auto& kv : r.ops) names.push_back(kv.first);
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace acl_sim
