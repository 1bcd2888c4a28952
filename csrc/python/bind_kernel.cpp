// acl_sim._core.kernel: load a compiled kernel .so, look kernels up by name,
// launch them with blockDim, pointer/integer arguments and a stream.
// pyACL conventions: handles and pointers are ints; out-params come back as
// (value, ret); everything else returns ret.
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "acl/acl.h"
#include "acl_sim/kernel/host_launch.h"
#include "python/bindings.h"

namespace acl_sim::py_bind {

void bind_kernel(py::module_& kern) {
  kern.doc() = "Kernel binaries (host .so built from kernel_operator.h sources) and launches";

  kern.def(
      "load",
      [](const std::string& path) {
        aclrtBinHandle bin = nullptr;
        aclError ret = aclrtBinaryLoadFromFile(path.c_str(), nullptr, &bin);
        return py::make_tuple(as_int(bin), ret);
      },
      py::arg("path"), "aclrtBinaryLoadFromFile(path) -> (bin, ret)");

  kern.def(
      "get_function",
      [](uintptr_t bin, const std::string& name) {
        aclrtFuncHandle fn = nullptr;
        aclError ret = aclrtBinaryGetFunction(as_ptr(bin), name.c_str(), &fn);
        return py::make_tuple(as_int(fn), ret);
      },
      py::arg("bin"), py::arg("name"), "aclrtBinaryGetFunction(bin, name) -> (func, ret)");

  kern.def(
      "launch",
      [](uintptr_t func, uint32_t block_dim, const std::vector<uint64_t>& args, uintptr_t stream) {
        py::gil_scoped_release release;
        return aclsimLaunchFunction(as_ptr(func), block_dim, as_ptr(stream), args.data(), args.size());
      },
      py::arg("func"), py::arg("block_dim"), py::arg("args"), py::arg("stream"),
      "Enqueue func on stream as block_dim blocks; args are ints (device pointers or integers). -> ret");

  kern.def(
      "unload", [](uintptr_t bin) { return aclrtBinaryUnLoad(as_ptr(bin)); }, py::arg("bin"),
      "aclrtBinaryUnLoad(bin) -> ret");

  kern.def(
      "get_function_name",
      [](uintptr_t func) {
        char name[256] = {0};
        aclError ret = aclrtGetFunctionName(as_ptr(func), sizeof(name), name);
        return py::make_tuple(std::string(ret == ACL_SUCCESS ? name : ""), ret);
      },
      py::arg("func"), "aclrtGetFunctionName(func) -> (name, ret)");

  kern.attr("MAX_BLOCK_DIM") = 65535;
  kern.attr("MAX_ARGS") = ACL_SIM_KERNEL_MAX_ARGS;
}

}  // namespace acl_sim::py_bind
