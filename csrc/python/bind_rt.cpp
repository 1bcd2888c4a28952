#include "python/bindings.h"

namespace acl_sim::py_bind {

void bind_rt(py::module_& rt) {}

}  // namespace acl_sim::py_bind
