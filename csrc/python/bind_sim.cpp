// acl_sim._core.sim: simulator introspection that real pyACL lacks
// (SoC profiles, live device stats) for `acl-sim smi` and tools.
#include <pybind11/stl.h>

#include "common/error.h"
#include "common/fault_injection.h"
#include "prof/init_config.h"
#include "prof/op_summary.h"
#include "prof/stats_file.h"
#include "python/bindings.h"
#include "prof/sim_info.h"

namespace acl_sim::py_bind {

namespace {
py::dict profile_dict(const SocProfile& p) {
  py::dict d;
  d["name"] = p.name;
  d["short_name"] = p.short_name;
  d["npu_arch"] = p.npu_arch;
  d["split_cores"] = p.split_cores;
  d["cube_cores"] = p.cube_cores;
  d["vector_cores"] = p.vector_cores;
  d["ub_size"] = p.ub_size;
  d["l1_size"] = p.l1_size;
  d["l0a_size"] = p.l0a_size;
  d["l0b_size"] = p.l0b_size;
  d["l0c_size"] = p.l0c_size;
  d["l2_size"] = p.l2_size;
  d["memory_size"] = p.memory_size;
  d["cube_freq_mhz"] = p.cube_freq_mhz;
  d["peak_fp16_tflops"] = p.peak_fp16_tflops();
  auto roof = prof::roofline_for(p.name);
  d["roofline_cube_tflops"] = roof.cube_flops_per_s / 1e12;
  d["roofline_vector_tflops"] = roof.vector_flops_per_s / 1e12;
  d["roofline_bandwidth_gbps"] = roof.bytes_per_s / 1e9;
  return d;
}
}  // namespace

void bind_sim(py::module_& sim) {
  sim.def("soc_profiles", [] {
    py::list out;
    for (const auto& p : prof::soc_profiles()) out.append(profile_dict(p));
    return out;
  });
  sim.def("current_soc", [] { return profile_dict(prof::current_soc_profile()); });
  sim.def("device_stats_json", [] { return prof::device_stats_json(); });
  // The aclInit config validation, without initialising: returns (ret, message). For fuzzing and tools.
  sim.def("check_init_config", [](const std::string& text) {
    try {
      validate_init_config(text);
      return py::make_tuple(0, std::string());
    } catch (const Error& e) {
      return py::make_tuple(e.code(), std::string(e.what()));
    }
  });
  // Fault injection (common/fault_injection.h): set_fault(name, value) -> bool; clear_faults().
  sim.def("set_fault", [](const std::string& name, int64_t value) { return fault::set_fault(name, value); });
  sim.def("clear_faults", [] { fault::clear_faults(); });
}

}  // namespace acl_sim::py_bind
