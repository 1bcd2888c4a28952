// The operator registry (contract in op_registry.h).
//
// Registration happens from static initialisers in every kernels/*.cpp, so the
// table is a function-local static (no static-initialisation-order problem).
// The entry points are exported from libascendcl.so (the library is built with
// hidden visibility) so the test bindings in _core can reach ops directly.
#include "kernels/op_registry.h"
#include "kernels/op_shape_traits.h"

#include <algorithm>
#include <cstdio>
#include <mutex>
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

}  // namespace

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
