#include "python/bindings.h"

namespace acl_sim::py_bind {

void bind_top(py::module_& acl) {}

}  // namespace acl_sim::py_bind
