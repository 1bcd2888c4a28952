// `acl.util`: pointer/bytes/NumPy helpers and native threads (no C counterpart).
#include <pybind11/numpy.h>

#include <cstring>
#include <mutex>
#include <pthread.h>
#include <thread>
#include <unordered_map>

#include "acl/acl_base.h"
#include "python/bindings.h"

namespace acl_sim::py_bind {
namespace {

std::mutex g_threads_mu;
std::unordered_map<uint64_t, std::thread>& threads() {
  static auto* t = new std::unordered_map<uint64_t, std::thread>();
  return *t;
}

/** pyACL's NPY type codes → NumPy dtype. */
py::dtype npy_dtype(int code) {
  switch (code) {
    case 0: return py::dtype("bool");
    case 1: return py::dtype("int8");
    case 2: return py::dtype("uint8");
    case 3: return py::dtype("int16");
    case 4: return py::dtype("uint16");
    case 5: return py::dtype("int32");
    case 6: return py::dtype("uint32");
    case 7: return py::dtype("int64");
    case 8: return py::dtype("uint64");
    case 11: return py::dtype("float32");
    case 12: return py::dtype("float64");
    case 23: return py::dtype("float16");
    default: throw py::value_error("acl.util.ptr_to_numpy: unsupported npy type " + std::to_string(code));
  }
}

void warn_deprecated(const char* what) {
  PyErr_WarnEx(PyExc_Warning, what, 1);
}

}  // namespace

void bind_util(py::module_& util) {
  util.def("bytes_to_ptr", [](py::handle b) -> uintptr_t {
    // The object's own buffer, no copy (samples write into it).
    if (PyBytes_Check(b.ptr())) return as_int(PyBytes_AS_STRING(b.ptr()));
    if (PyByteArray_Check(b.ptr())) return as_int(PyByteArray_AS_STRING(b.ptr()));
    throw py::type_error("acl.util.bytes_to_ptr args parse failed");
  });
  util.def("ptr_to_bytes", [](uintptr_t ptr, size_t size) {
    if (!ptr && size) throw py::value_error("acl.util.ptr_to_bytes: ptr is NULL");
    return py::bytes(static_cast<const char*>(as_ptr(ptr)), size);
  });
  util.def("numpy_to_ptr", [](py::array arr) {
    warn_deprecated("acl.util.numpy_to_ptr is deprecated, use acl.util.bytes_to_ptr instead");
    return as_int(arr.data());
  });
  util.def("numpy_contiguous_to_ptr", [](py::array arr) {
    py::array c = py::array::ensure(arr, py::array::c_style);
    if (!c) throw py::error_already_set();
    return py::make_tuple(as_int(c.data()), c);
  });
  util.def("ptr_to_numpy", [](uintptr_t ptr, py::tuple shape, int npy_type) {
    warn_deprecated("acl.util.ptr_to_numpy is deprecated, use acl.util.ptr_to_bytes instead");
    if (!ptr) throw py::value_error("acl.util.ptr_to_numpy: ptr is NULL");
    std::vector<py::ssize_t> dims;
    for (auto d : shape) dims.push_back(d.cast<py::ssize_t>());
    // A no-op capsule as base makes pybind11 wrap the memory instead of copying it.
    py::capsule base(as_ptr(ptr), [](void*) {});
    return py::array(npy_dtype(npy_type), dims, {}, as_ptr(ptr), base);
  });

  util.def("start_thread", [](py::object fn, py::object args) {
    if (!PyCallable_Check(fn.ptr())) throw py::type_error("acl.util.start_thread args parse failed");
    auto* job = new std::pair<py::object, py::object>(std::move(fn), std::move(args));
    // The new native thread has no current context (as in pyACL).
    std::thread t([job] {
      py::gil_scoped_acquire gil;
      try {
        job->first(job->second);
      } catch (py::error_already_set& e) {
        e.discard_as_unraisable("acl.util.start_thread thread function");
      }
      delete job;
    });
    uint64_t tid = static_cast<uint64_t>(t.native_handle());
    {
      std::lock_guard<std::mutex> lock(g_threads_mu);
      threads().emplace(tid, std::move(t));
    }
    return py::make_tuple(tid, 0);
  });
  util.def("stop_thread", [](uint64_t tid) {
    std::thread t;
    {
      std::lock_guard<std::mutex> lock(g_threads_mu);
      auto it = threads().find(tid);
      if (it == threads().end()) return ACL_ERROR_INVALID_PARAM;  // not a start_thread id
      t = std::move(it->second);
      threads().erase(it);
    }
    py::gil_scoped_release nogil;
    if (t.joinable()) t.join();
    return 0;
  });
}

}  // namespace acl_sim::py_bind
