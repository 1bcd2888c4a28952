// aclDataType <-> NumPy dtype (contract in numpy_dtype.h).
#include "python/numpy_dtype.h"

#include <string>

#include "acl/acl_base.h"
#include "common/dtype.h"

namespace acl_sim::py_bind {
namespace {

// The computed types and complex64/128 (NumPy has no complex32).
bool has_numpy_dtype(const DtypeInfo* d) {
  return d && (d->computed || (d->kind == DtypeKind::kComplex && d->bits >= 64));
}

}  // namespace

py::dtype numpy_dtype_of(int acl, const char* who, Bf16As bf16) {
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

int acl_dtype_of(const py::dtype& dt, const char* who) {
  const int acl = dtype_from_name(dt.attr("name").cast<std::string>());
  if (has_numpy_dtype(find_dtype(acl))) return acl;
  throw py::type_error(std::string(who) + ": unsupported NumPy dtype " + py::str(dt).cast<std::string>());
}

}  // namespace acl_sim::py_bind
