#include <pybind11/stl.h>

#include <vector>

#include "acl/acl_prof.h"
#include "python/bindings.h"

namespace acl_sim::py_bind {

void bind_prof(py::module_& prof) {
  prof.def("init", [](const std::string& path) { return aclprofInit(path.c_str(), path.size()); });
  prof.def("finalize", [] { return aclprofFinalize(); });
  prof.def("create_config",
           [](std::vector<uint32_t> devices, int metrics, uintptr_t events, uint64_t data_types) {
             return as_int(aclprofCreateConfig(devices.data(), static_cast<uint32_t>(devices.size()),
                                               static_cast<aclprofAicoreMetrics>(metrics),
                                               static_cast<const aclprofAicoreEvents*>(as_ptr(events)), data_types));
           });
  prof.def("destroy_config", [](uintptr_t cfg) { return aclprofDestroyConfig(static_cast<aclprofConfig*>(as_ptr(cfg))); });
  prof.def("start", [](uintptr_t cfg) {
    py::gil_scoped_release release;
    return aclprofStart(static_cast<aclprofConfig*>(as_ptr(cfg)));
  });
  prof.def("stop", [](uintptr_t cfg) {
    py::gil_scoped_release release;
    return aclprofStop(static_cast<aclprofConfig*>(as_ptr(cfg)));
  });
}

}  // namespace acl_sim::py_bind
