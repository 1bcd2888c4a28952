#include "python/bindings.h"

namespace acl_sim::py_bind {

void bind_hccl(py::module_& hccl) {}

}  // namespace acl_sim::py_bind
