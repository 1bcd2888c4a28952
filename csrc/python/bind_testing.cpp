#include "python/bindings.h"

namespace acl_sim::py_bind {

void bind_testing(py::module_& t) {}

}  // namespace acl_sim::py_bind
