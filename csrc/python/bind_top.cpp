// Top-level `acl`: init/finalize, versions, errors, data buffers (pyACL shapes).
#include <acl/acl.h>

#include <string>

#include "python/bindings.h"

namespace acl_sim::py_bind {

void bind_top(py::module_& acl) {
  // init([path]): the argument is optional; None is rejected (TypeError), as in pyACL.
  acl.def("init", [](std::string path) { return aclInit(path.c_str()); });
  acl.def("init", []() { return aclInit(nullptr); });
  acl.def("finalize", []() {
    py::gil_scoped_release nogil;  // waits for streams; callback threads may need the GIL meanwhile
    return aclFinalize();
  });
  acl.def("get_version", []() {
    int32_t major = 0, minor = 0, patch = 0;
    aclError ret = aclGetVersion(&major, &minor, &patch);
    return py::make_tuple(major, minor, patch, ret);
  });
  acl.def("get_soc_name", []() {
    const char* name = aclrtGetSocName();
    return std::string(name ? name : "");
  });
  // pyACL's acl.app_log(level, message): aclAppLog with the calling Python frame's function, file and line
  acl.def("app_log", [](int level, const std::string& message) {
    py::object frame = py::module_::import("sys").attr("_getframe")(0);
    py::object code = frame.attr("f_code");
    std::string func = py::str(code.attr("co_name")), file = py::str(code.attr("co_filename"));
    uint32_t line = frame.attr("f_lineno").cast<uint32_t>();
    aclAppLog(static_cast<aclLogLevel>(level), func.c_str(), file.c_str(), line, "%s", message.c_str());
  });
  acl.def("get_recent_err_msg", []() {
    const char* msg = aclGetRecentErrMsg();
    return std::string(msg ? msg : "");
  });

  acl.def("create_data_buffer", [](uintptr_t data, size_t size) { return as_int(aclCreateDataBuffer(as_ptr(data), size)); });
  acl.def("destroy_data_buffer",
          [](uintptr_t buf) { return aclDestroyDataBuffer(static_cast<const aclDataBuffer*>(as_ptr(buf))); });
  acl.def("update_data_buffer", [](uintptr_t buf, uintptr_t data, size_t size) {
    return aclUpdateDataBuffer(static_cast<aclDataBuffer*>(as_ptr(buf)), as_ptr(data), size);
  });
  acl.def("get_data_buffer_addr",
          [](uintptr_t buf) { return as_int(aclGetDataBufferAddr(static_cast<const aclDataBuffer*>(as_ptr(buf)))); });
  acl.def("get_data_buffer_size", [](uintptr_t buf) {
    return aclGetDataBufferSizeV2(static_cast<const aclDataBuffer*>(as_ptr(buf)));  // pyACL returns the full size
  });
  acl.def("get_data_buffer_size_v2",
          [](uintptr_t buf) { return aclGetDataBufferSizeV2(static_cast<const aclDataBuffer*>(as_ptr(buf))); });
  acl.def("data_type_size", [](int dt) { return aclDataTypeSize(static_cast<aclDataType>(dt)); });
  acl.def("float_to_float16", [](float v) { return aclFloatToFloat16(v); });
  acl.def("float16_to_float", [](uint16_t v) { return aclFloat16ToFloat(v); });
}

}  // namespace acl_sim::py_bind
