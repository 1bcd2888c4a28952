#include "python/bindings.h"

namespace acl_sim::py_bind {

PYBIND11_MODULE(_core, m) {
  m.doc() = "acl_sim core: the pyACL-shaped face of the C API";
  bind_top(m);
  auto rt = m.def_submodule("rt");
  bind_rt(rt);
  auto util = m.def_submodule("util");
  bind_util(util);
  auto kern = m.def_submodule("kernel");
  bind_kernel(kern);
  auto op = m.def_submodule("op");
  bind_op(m, op);
  auto mdl = m.def_submodule("mdl");
  bind_mdl(mdl);
  bind_mdl_aipp(mdl);
  auto blas = m.def_submodule("blas");
  bind_blas(blas);
  auto hccl = m.def_submodule("hccl");
  bind_hccl(hccl);
  auto prof = m.def_submodule("prof");
  bind_prof(prof);
  auto testing = m.def_submodule("testing");
  bind_testing(testing);
  auto testing_model = m.def_submodule("testing_model");
  bind_testing_model(testing_model);
  auto sim = m.def_submodule("sim");
  bind_sim(sim);
}

}  // namespace acl_sim::py_bind
