#include "python/bindings.h"

namespace acl_sim::py_bind {

void bind_prof(py::module_& prof) {}

}  // namespace acl_sim::py_bind
