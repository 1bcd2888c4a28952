// aclDataType <-> NumPy dtype (contract in numpy_dtype.h).
#include "python/numpy_dtype.h"

#include <string>
#include <utility>
#include <vector>

#include "acl/acl_base.h"
#include "common/dtype.h"

namespace acl_sim::py_bind {
namespace {

// The computed types and complex64/128 (NumPy has no complex32).
bool has_numpy_dtype(const DtypeInfo* d) {
  return d && (d->computed || (d->kind == DtypeKind::kComplex && d->bits >= 64));
}

py::dtype make_numpy_dtype(int acl, const char* who, Bf16As bf16) {
  const DtypeInfo* d = find_dtype(acl);
  if (acl == ACL_BF16) {
    if (bf16 == Bf16As::kMlDtypes) {
      try {
        return py::dtype::from_args(py::module_::import("ml_dtypes").attr("bfloat16"));
      } catch (py::error_already_set&) {
      }
    }
    return py::dtype("uint16");
  }
  if (has_numpy_dtype(d)) return py::dtype(std::string(d->name));
  throw py::value_error(std::string(who) + ": unsupported aclDataType " + std::to_string(acl) + " (" +
                        dtype_name(acl) + ")");
}

int acl_dtype_by_name(const py::dtype& dt, const char* who) {
  const int acl = dtype_from_name(dt.attr("name").cast<std::string>());
  if (has_numpy_dtype(find_dtype(acl))) return acl;
  throw py::type_error(std::string(who) + ": unsupported NumPy dtype " + py::str(dt).cast<std::string>());
}

constexpr int kCachedCodes = 64;  // aclDataType values below this are cached by numpy_dtype_of

}  // namespace

// Both directions are remembered and the objects held for the process (the GIL guards the tables): a dtype made
// from its name parses the string, and the reverse reads and looks up its name. Without the tables a
// testing.run_op call on a small MatMul took 5.6 us, with them 1.1 us (numpy.matmul: 0.7 us).
py::dtype numpy_dtype_of(int acl, const char* who, Bf16As bf16) {
  static PyObject* made[2][kCachedCodes] = {};
  const bool cacheable = acl >= 0 && acl < kCachedCodes;
  PyObject*& slot = made[bf16 == Bf16As::kBits ? 1 : 0][cacheable ? acl : 0];
  if (cacheable && slot) return py::reinterpret_borrow<py::dtype>(slot);
  py::dtype dt = make_numpy_dtype(acl, who, bf16);
  if (cacheable) slot = dt.inc_ref().ptr();
  return dt;
}

int acl_dtype_of(const py::dtype& dt, const char* who) {
  // NumPy's builtin dtypes are singletons, so identity finds them.
  static std::vector<std::pair<PyObject*, int>> seen;
  for (const auto& [obj, acl] : seen)
    if (obj == dt.ptr()) return acl;
  const int acl = acl_dtype_by_name(dt, who);
  if (seen.size() < 64) seen.emplace_back(dt.inc_ref().ptr(), acl);
  return acl;
}

}  // namespace acl_sim::py_bind
