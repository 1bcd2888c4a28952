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

#define ACL_SIM_EXPORT __attribute__((visibility("default")))

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

ACL_SIM_EXPORT size_t dtype_size(int dtype) {
  switch (dtype) {
    case ACL_FLOAT: case ACL_INT32: case ACL_UINT32: case ACL_COMPLEX32: return 4;
    case ACL_FLOAT16: case ACL_INT16: case ACL_UINT16: case ACL_BF16: return 2;
    case ACL_INT8: case ACL_UINT8: case ACL_BOOL: return 1;
    case ACL_FLOAT8_E5M2: case ACL_FLOAT8_E4M3FN: case ACL_FLOAT8_E8M0: return 1;
    case ACL_INT64: case ACL_UINT64: case ACL_DOUBLE: case ACL_COMPLEX64: return 8;
    case ACL_COMPLEX128: return 16;
    default: return 0;  // sub-byte and string types have no fixed element size
  }
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
