// The pybind11 module is a thin face over the C API: each binding parses
// pyACL's positional arguments, calls the extern "C" function and shapes the
// result by pyACL's rules (see DEVELOPERS.md). One bind_*.cpp per submodule.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>

namespace acl_sim::py_bind {

namespace py = pybind11;

/** pyACL passes every handle and pointer as an int. */
inline void* as_ptr(uintptr_t v) { return reinterpret_cast<void*>(v); }
inline uintptr_t as_int(const void* p) { return reinterpret_cast<uintptr_t>(p); }

void bind_top(py::module_& acl);      // acl.init/finalize/data buffers/...   (runtime)
void bind_rt(py::module_& rt);        // acl.rt                                (runtime)
void bind_util(py::module_& util);    // acl.util                              (runtime)
void bind_kernel(py::module_& kern);  // acl_sim._core.kernel: load .so, launch (executor)
void bind_op(py::module_& acl, py::module_& op);  // tensor descs + acl.op     (single-op)
void bind_mdl(py::module_& mdl);      // acl.mdl                               (aclmdl)
void bind_mdl_aipp(py::module_& mdl); // acl.mdl AIPP functions                (aclmdl)
void bind_blas(py::module_& blas);    // acl.blas                              (aclblas)
void bind_hccl(py::module_& hccl);    // acl_sim.hccl                          (hccl)
void bind_prof(py::module_& prof);    // acl.prof                              (profiler)
void bind_testing(py::module_& t);    // acl_sim._core.testing: direct kernel entry points for tests
void bind_testing_model(py::module_& t);  // acl_sim._core.testing_model: run .om files on NumPy (model tests)
void bind_sim(py::module_& sim);      // acl_sim._core.sim: SoC profiles, device stats (tools)

}  // namespace acl_sim::py_bind
