#include "python/bindings.h"

namespace acl_sim::py_bind {

void bind_kernel(py::module_& kern) {}

}  // namespace acl_sim::py_bind
