// acl_sim._core.testing_model: loads an .om into host memory and runs it on
// NumPy arrays through the same C++ Model/GraphExecutor that aclmdl uses,
// bypassing devices and streams. Model tests and benchmarks use it to check
// numerics and time nodes; it is not part of the pyACL surface (users go
// through acl.mdl).
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <chrono>
#include <cstring>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/error.h"
#include "model/model.h"
#include "python/bindings.h"
#include "python/numpy_dtype.h"

namespace acl_sim::py_bind {
namespace {

py::object g_model_error;

[[noreturn]] void raise_model_error(const Error& e) {
  std::string text = std::string(e.what()) + " (error code " + std::to_string(e.code()) + ")";
  py::object err = g_model_error(py::str(text));
  err.attr("code") = e.code();
  PyErr_SetObject(g_model_error.ptr(), err.ptr());
  throw py::error_already_set();
}

template <class F>
auto guarded(F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const Error& e) {
    raise_model_error(e);
  }
}

py::dict io_dict(const IoDesc& d) {
  py::dict out;
  out["name"] = d.name;
  out["dtype"] = d.dtype;
  out["format"] = d.format;
  out["dims"] = d.dims;
  out["size"] = d.size;
  return out;
}

/** Per-node wall time accumulated by a NodeHook. */
struct NodeTimer {
  using Clock = std::chrono::steady_clock;
  std::vector<Clock::time_point> start;
  std::vector<double> seconds;
  std::vector<std::string> names, ops;
  static void before(void* user, const NodeEvent& ev) {
    auto* t = static_cast<NodeTimer*>(user);
    if (t->names[ev.node_index].empty()) {
      t->names[ev.node_index] = ev.node_name;
      t->ops[ev.node_index] = ev.op_type;
    }
    t->start[ev.node_index] = Clock::now();
  }
  static void after(void* user, const NodeEvent& ev) {
    auto* t = static_cast<NodeTimer*>(user);
    t->seconds[ev.node_index] += std::chrono::duration<double>(Clock::now() - t->start[ev.node_index]).count();
  }
};

class PyModel {
 public:
  explicit PyModel(std::shared_ptr<Model> m) : model_(std::move(m)) {}

  /** Inputs as contiguous arrays of the profile's shapes; the mbatch input is filled in when omitted. */
  std::vector<py::array> prepare_inputs(const py::list& inputs, size_t profile) const {
    const ModelIO& io = model_->io();
    auto dims = guarded([&] { return model_->input_dims(profile); });
    size_t given = inputs.size();
    bool auto_mbatch = io.dynamic.mbatch_input_index >= 0 && given + 1 == io.inputs.size();
    if (given != io.inputs.size() && !auto_mbatch)
      throw py::value_error("testing_model: the model has " + std::to_string(io.inputs.size()) + " inputs, got " +
                            std::to_string(given));
    std::vector<py::array> arrays;
    for (size_t i = 0; i < io.inputs.size(); ++i) {
      py::array a;
      if (i < given) {
        a = py::array::ensure(inputs[i], py::array::c_style);
        if (!a) throw py::type_error("testing_model: input " + std::to_string(i) + " is not array-like");
      } else {
        const auto& vals = io.dynamic.profiles[profile];
        py::array_t<int64_t> mb(py::ssize_t(vals.size()));
        std::memcpy(mb.mutable_data(), vals.data(), vals.size() * sizeof(int64_t));
        a = mb;
      }
      py::dtype want = numpy_dtype_of(io.inputs[i].dtype, "testing_model", Bf16As::kBits);
      if (!a.dtype().is(want) && a.dtype().num() != want.num())
        throw py::type_error("testing_model: input " + std::to_string(i) + " must have dtype " +
                             py::str(want).cast<std::string>() + ", got " + py::str(a.dtype()).cast<std::string>());
      std::vector<int64_t> shape(a.shape(), a.shape() + a.ndim());
      if (shape != dims[i]) throw py::value_error("testing_model: input " + std::to_string(i) + " has the wrong shape");
      arrays.push_back(a);
    }
    return arrays;
  }

  py::list run(const py::list& inputs, size_t profile, size_t repeats) {
    if (repeats == 0) throw py::value_error("testing_model: repeats must be >= 1");
    auto arrays = prepare_inputs(inputs, profile);
    auto out_dims = guarded([&] { return model_->output_dims(profile); });
    const ModelIO& io = model_->io();
    std::vector<void*> in_ptrs, out_ptrs;
    std::vector<std::vector<int64_t>> actual;
    for (auto& a : arrays) in_ptrs.push_back(const_cast<void*>(a.data()));
    py::list results;
    for (size_t i = 0; i < out_dims.size(); ++i) {
      std::vector<py::ssize_t> shape(out_dims[i].begin(), out_dims[i].end());
      py::array out(numpy_dtype_of(io.outputs[i].dtype, "testing_model", Bf16As::kBits), shape);
      out_ptrs.push_back(out.mutable_data());
      results.append(out);
    }
    {
      py::gil_scoped_release release;
      guarded([&] {
        for (size_t r = 0; r < repeats; ++r) model_->run(profile, in_ptrs, out_ptrs, &actual);
        return 0;
      });
    }
    // Run-time output dims (NonZero, ...): the data is dense at the front of the bound-sized buffer.
    for (size_t i = 0; i < actual.size() && i < out_dims.size(); ++i) {
      if (actual[i] == out_dims[i]) continue;
      int64_t n = 1;
      for (int64_t d : actual[i]) n *= d;
      std::vector<py::ssize_t> shape(actual[i].begin(), actual[i].end());
      py::array flat = results[i].cast<py::array>().attr("reshape")(-1);
      results[i] = flat[py::slice(0, n, 1)].attr("reshape")(shape).attr("copy")();
    }
    return results;
  }

  /** [(node name, op type, seconds per run)] measured over @p repeats runs. */
  py::list node_times(const py::list& inputs, size_t profile, size_t repeats) {
    if (repeats == 0) throw py::value_error("testing_model: repeats must be >= 1");
    size_t n = guarded([&] { return model_->node_count(profile); });
    NodeTimer timer;
    timer.start.resize(n);
    timer.seconds.assign(n, 0.0);
    timer.names.resize(n);
    timer.ops.resize(n);
    NodeHook hook{&NodeTimer::before, &NodeTimer::after, &timer};
    model_->set_node_hook(&hook);
    try {
      run(inputs, profile, repeats);
    } catch (...) {
      model_->set_node_hook(nullptr);
      throw;
    }
    model_->set_node_hook(nullptr);
    py::list out;
    for (size_t i = 0; i < n; ++i)
      out.append(py::make_tuple(timer.names[i], timer.ops[i], timer.seconds[i] / double(repeats)));
    return out;
  }

  std::shared_ptr<Model> model_;
};

ModelMemory host_memory(bool map_weights) {
  ModelMemory mem;
  mem.map_weights = map_weights;
  return mem;
}

}  // namespace

void bind_testing_model(py::module_& t) {
  static py::exception<Error> model_error(t, "ModelError", PyExc_RuntimeError);
  g_model_error = model_error;

  py::class_<PyModel>(t, "Model", "A loaded .om in host memory (tests and benchmarks only).")
      .def_static(
          "from_file",
          [](const std::string& path, bool map_weights) {
            return PyModel(guarded([&] { return Model::load_file_with(path, host_memory(map_weights)); }));
          },
          py::arg("path"), py::arg("map_weights") = false)
      .def_static(
          "from_bytes",
          [](const py::bytes& data) {
            std::string s = data;
            return PyModel(guarded([&] { return Model::load_with(s.data(), s.size(), host_memory(false)); }));
          },
          py::arg("data"))
      .def("run", &PyModel::run, py::arg("inputs"), py::arg("profile") = 0, py::arg("repeats") = 1,
           "Run profile `profile` `repeats` times; returns the outputs as NumPy arrays.")
      .def("node_times", &PyModel::node_times, py::arg("inputs"), py::arg("profile") = 0, py::arg("repeats") = 1,
           "[(node, op, seconds per run)] measured through the per-node hook.")
      .def_property_readonly("profile_count", [](const PyModel& m) { return m.model_->profile_count(); })
      .def_property_readonly("work_size", [](const PyModel& m) { return m.model_->work_size(); })
      .def_property_readonly("weight_size", [](const PyModel& m) { return m.model_->weight_size(); })
      .def_property_readonly("meta_json", [](const PyModel& m) { return m.model_->meta_json(); })
      .def("node_count", [](const PyModel& m, size_t p) { return guarded([&] { return m.model_->node_count(p); }); })
      .def("input_dims", [](const PyModel& m, size_t p) { return guarded([&] { return m.model_->input_dims(p); }); })
      .def("output_dims", [](const PyModel& m, size_t p) { return guarded([&] { return m.model_->output_dims(p); }); })
      .def("inputs", [](const PyModel& m) {
        py::list l;
        for (const auto& d : m.model_->io().inputs) l.append(io_dict(d));
        return l;
      })
      .def("outputs", [](const PyModel& m) {
        py::list l;
        for (const auto& d : m.model_->io().outputs) l.append(io_dict(d));
        return l;
      })
      .def("dynamic", [](const PyModel& m) {
        const DynamicInfo& d = m.model_->io().dynamic;
        static const char* kinds[] = {"none", "batch", "hw", "dims"};
        py::dict out;
        out["kind"] = kinds[int(d.kind)];
        out["profiles"] = d.profiles;
        out["mbatch_input_index"] = d.mbatch_input_index;
        return out;
      });

  t.def(
      "run_om",
      [](const std::string& path, const py::list& inputs, size_t profile) {
        PyModel m(guarded([&] { return Model::load_file_with(path, host_memory(false)); }));
        return m.run(inputs, profile, 1);
      },
      py::arg("path"), py::arg("inputs"), py::arg("profile") = 0,
      "Load the .om at `path` into host memory and run it once on NumPy inputs; returns the outputs.");

  t.def(
      "query_size",
      [](const py::bytes& data) {
        std::string s = data;
        size_t work = 0, weight = 0;
        guarded([&] {
          Model::query_size(s.data(), s.size(), &work, &weight);
          return 0;
        });
        return py::make_tuple(work, weight);
      },
      py::arg("data"), "(work bytes, weight bytes) of an .om image; raises ModelError for a damaged one.");
}

}  // namespace acl_sim::py_bind
