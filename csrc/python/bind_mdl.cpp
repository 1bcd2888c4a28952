#include "python/bindings.h"

namespace acl_sim::py_bind {

void bind_mdl(py::module_& mdl) {}

}  // namespace acl_sim::py_bind
