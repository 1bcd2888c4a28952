#include "python/bindings.h"

namespace acl_sim::py_bind {

void bind_op(py::module_& acl, py::module_& op) {}

}  // namespace acl_sim::py_bind
