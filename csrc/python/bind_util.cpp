#include "python/bindings.h"

namespace acl_sim::py_bind {

void bind_util(py::module_& util) {}

}  // namespace acl_sim::py_bind
