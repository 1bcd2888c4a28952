// acl_sim._core.testing: runs one registered operator directly on host NumPy
// buffers, bypassing devices and streams. Kernel tests use it to check every
// op against a NumPy reference; it is not part of the pyACL surface.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cstring>
#include <string>
#include <vector>

#include "common/dtype.h"
#include "common/error.h"
#include "common/error_codes.h"
#include "executor/core_round_trip.h"
#include "executor/thread_pool.h"
#include "kernels/cpu_features.h"
#include "kernels/gemm.h"
#include "kernels/op_registry.h"
#include "python/bindings.h"
#include "python/numpy_dtype.h"

namespace acl_sim::py_bind {
namespace {

bool is_int_like(py::handle v) { return PyBool_Check(v.ptr()) || PyIndex_Check(v.ptr()); }

AttrValue to_attr(const std::string& name, py::handle v) {
  if (is_int_like(v)) return static_cast<int64_t>(py::int_(py::reinterpret_borrow<py::object>(v)));
  if (py::isinstance<py::str>(v)) return v.cast<std::string>();
  if (py::isinstance<py::bytes>(v)) return std::string(v.cast<py::bytes>());
  if (py::isinstance<py::list>(v) || py::isinstance<py::tuple>(v) || py::isinstance<py::array>(v)) {
    py::sequence seq = py::reinterpret_borrow<py::sequence>(v);
    bool all_int = true;
    for (py::handle e : seq) all_int = all_int && is_int_like(e);
    if (all_int) {
      std::vector<int64_t> out;
      for (py::handle e : seq) out.push_back(py::int_(py::reinterpret_borrow<py::object>(e)));
      return out;
    }
    std::vector<double> out;
    for (py::handle e : seq) out.push_back(py::float_(py::reinterpret_borrow<py::object>(e)));
    return out;
  }
  try {
    return static_cast<double>(py::float_(py::reinterpret_borrow<py::object>(v)));
  } catch (py::error_already_set&) {
    throw py::type_error("run_op: attribute '" + name + "' has an unsupported type");
  }
}

}  // namespace

void bind_testing(py::module_& t) {
  // A plain Python exception class (RuntimeError subclass) whose instances carry .code.
  static py::object& op_error = *new py::object(py::reinterpret_steal<py::object>(
      PyErr_NewException("acl_sim._core.testing.OpError", PyExc_RuntimeError, nullptr)));
  t.attr("OpError") = op_error;

  t.def("registered_ops", [] { return registered_ops(); }, "Sorted names of every registered operator.");

  t.def(
      "kernel_isa",
      [] {
        const CpuFeatures& f = cpu_features();
        py::dict d;
        d["isa"] = kernel_isa_name(f.isa);
        d["gemm_kernel"] = gemm_kernel_name();
        d["avx2"] = f.avx2;
        d["avx512"] = f.avx512;
        d["f16c"] = f.f16c;
        d["avx512_double_pumped"] = f.avx512_double_pumped;
        d["host_threads"] = ThreadPool::instance().concurrency();
        return d;
      },
      "Which kernel ISA this process picked (after ACL_SIM_KERNEL_ISA), the GEMM micro-kernel, the CPU's "
      "features and the host pool's thread count (for benchmark headers).");

  t.def(
      "core_round_trip_ns",
      [](int rounds) {
        py::gil_scoped_release unlocked;
        return core_round_trip_ns(rounds);
      },
      py::arg("rounds") = 20000,
      "Median ns of a cache-line round trip between threads pinned to the process's first two CPUs (-1: fewer "
      "than two, or no pinning): how far apart the host placed them, for benchmark reports.");

  t.def("dtype_size", [](int dtype) { return dtype_size(dtype); }, "Bytes per element of an aclDataType (0: unsupported).");
  t.def("dtype_table", [] {
    size_t n = 0;
    const DtypeInfo* rows = all_dtypes(&n);
    py::list out;
    for (size_t i = 0; i < n; ++i)
      out.append(py::make_tuple(rows[i].dtype, rows[i].acl_name, rows[i].name, rows[i].bits,
                                rows[i].computed, rows[i].onnx));
    return out;
  }, "The C++ dtype table (common/dtype.h) as (value, ACL name, name, bits, computed, onnx) rows.");
  t.def("error_codes", [] {
    size_t n = 0;
    const ErrorCodeInfo* rows = all_error_codes(&n);
    py::list out;
    for (size_t i = 0; i < n; ++i) out.append(py::make_tuple(rows[i].code, rows[i].name));
    return out;
  }, "The C++ error-code name table (common/error_codes.h) as (code, name) rows.");
  t.def("hccl_result_of", [](int code) { return static_cast<int>(hccl_result_of(code)); },
        "The HcclResult an HCCL entry point returns for a core error code.");

  t.def(
      "run_op",
      [](const std::string& op_type, const py::list& inputs, const std::vector<std::vector<int64_t>>& output_shapes,
         const std::vector<int>& output_dtypes, const py::dict& attrs, const py::object& input_dtypes) {
        OpFn fn = find_op(op_type);
        if (!fn) {
          py::object err = op_error(py::str("run_op: no operator '" + op_type + "' is registered (error code " +
                                            std::to_string(ACL_ERROR_OP_NOT_FOUND) + ")"));
          err.attr("code") = ACL_ERROR_OP_NOT_FOUND;
          PyErr_SetObject(op_error.ptr(), err.ptr());
          throw py::error_already_set();
        }
        if (output_shapes.size() != output_dtypes.size())
          throw py::value_error("run_op: output_shapes and output_dtypes differ in length");
        std::vector<int> in_dtypes;
        if (!input_dtypes.is_none()) in_dtypes = input_dtypes.cast<std::vector<int>>();

        Attrs attr_values;
        for (auto kv : attrs) {
          std::string name = py::str(kv.first);
          attr_values.set(name, to_attr(name, kv.second));
        }

        OpContext ctx;
        ctx.op_type = op_type.c_str();
        ctx.node_name = "testing.run_op";
        ctx.attrs = &attr_values;
        std::vector<py::array> keep;  // holds the contiguous input copies alive during the call
        for (size_t i = 0; i < inputs.size(); ++i) {
          TensorView v;
          if (!inputs[i].is_none()) {
            py::array a = py::array::ensure(inputs[i], py::array::c_style);
            if (!a) throw py::type_error("run_op: input " + std::to_string(i) + " is not array-like");
            v.dtype = i < in_dtypes.size() && in_dtypes[i] >= 0 ? in_dtypes[i] : acl_dtype_of(a.dtype(), "run_op");
            for (py::ssize_t d = 0; d < a.ndim(); ++d) v.shape.push_back(a.shape(d));
            v.data = const_cast<void*>(a.data());
            // A zero-element array still counts as present.
            if (!v.data) v.data = &v;
            keep.push_back(a);
          }
          ctx.inputs.push_back(std::move(v));
        }
        py::list results;
        for (size_t i = 0; i < output_shapes.size(); ++i) {
          for (int64_t d : output_shapes[i])
            if (d < 0) throw py::value_error("run_op: negative output dimension");
          std::vector<py::ssize_t> shape(output_shapes[i].begin(), output_shapes[i].end());
          // Left uninitialised, as the model path leaves device outputs: a kernel must write every element
          // (the tests would see the garbage otherwise), and a zeroing pass here would be timed with the op.
          py::array out(numpy_dtype_of(output_dtypes[i], "run_op"), shape);
          TensorView v;
          v.dtype = output_dtypes[i];
          v.shape = output_shapes[i];
          v.data = out.mutable_data();
          ctx.outputs.push_back(std::move(v));
          results.append(out);
        }

        int code = 0;
        std::string message;
        {
          py::gil_scoped_release release;
          try {
            fn(ctx);
          } catch (const Error& e) {
            code = e.code();
            message = e.what();
          } catch (const std::exception& e) {
            code = -1;
            message = e.what();
          }
        }
        if (code != 0) {
          std::string text = op_type + ": " + message + (code > 0 ? " (error code " + std::to_string(code) + ")" : "");
          py::object err = op_error(py::str(text));
          err.attr("code") = code;
          PyErr_SetObject(op_error.ptr(), err.ptr());
          throw py::error_already_set();
        }
        // A shape-setting op (NonZero, Unique, ...) wrote a smaller actual shape: its data is dense at the front.
        for (size_t i = 0; i < ctx.outputs.size(); ++i) {
          if (ctx.outputs[i].shape == output_shapes[i]) continue;
          std::vector<py::ssize_t> shape(ctx.outputs[i].shape.begin(), ctx.outputs[i].shape.end());
          py::array full = results[i].cast<py::array>();
          py::array flat = full.attr("reshape")(-1);
          results[i] = flat[py::slice(0, ctx.outputs[i].numel(), 1)].attr("reshape")(shape).attr("copy")();
        }
        return results;
      },
      py::arg("op_type"), py::arg("inputs"), py::arg("output_shapes"), py::arg("output_dtypes"),
      py::arg("attrs") = py::dict(), py::arg("input_dtypes") = py::none(),
      "Run registered operator `op_type` on host NumPy arrays (None = absent optional input) and return its "
      "outputs, allocated with the given shapes and aclDataType numbers (for a shape-setting op such as NonZero "
      "the shapes are capacities and the outputs come back with the shapes the op wrote). input_dtypes optionally overrides the "
      "aclDataType of each input (e.g. 27 to pass bfloat16 bits as uint16). Errors raise OpError with .code.");
}

}  // namespace acl_sim::py_bind
