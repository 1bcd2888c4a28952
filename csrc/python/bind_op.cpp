// Top-level tensor-description functions and acl.op, over the C API.
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "acl/acl.h"
#include "python/bindings.h"

namespace acl_sim::py_bind {

namespace {

aclTensorDesc* TD(uintptr_t v) { return static_cast<aclTensorDesc*>(as_ptr(v)); }
aclopAttr* A(uintptr_t v) { return static_cast<aclopAttr*>(as_ptr(v)); }

template <class T>
std::vector<T*> handles(const std::vector<uintptr_t>& v) {
  std::vector<T*> out;
  out.reserve(v.size());
  for (uintptr_t h : v) out.push_back(static_cast<T*>(as_ptr(h)));
  return out;
}

}  // namespace

void bind_op(py::module_& acl, py::module_& op) {
  using nogil = py::gil_scoped_release;

  // ---- tensor descriptions (top level) ----
  acl.def("create_tensor_desc", [](int dtype, const std::vector<int64_t>& dims, int format) {
    return as_int(aclCreateTensorDesc(static_cast<aclDataType>(dtype), static_cast<int>(dims.size()),
                                      dims.empty() ? nullptr : dims.data(), static_cast<aclFormat>(format)));
  });
  acl.def("destroy_tensor_desc", [](uintptr_t d) { aclDestroyTensorDesc(TD(d)); });
  acl.def("get_tensor_desc_size", [](uintptr_t d) { return aclGetTensorDescSize(TD(d)); });
  acl.def("get_tensor_desc_type", [](uintptr_t d) { return static_cast<int>(aclGetTensorDescType(TD(d))); });
  acl.def("get_tensor_desc_format", [](uintptr_t d) { return static_cast<int>(aclGetTensorDescFormat(TD(d))); });
  acl.def("get_tensor_desc_num_dims", [](uintptr_t d) { return aclGetTensorDescNumDims(TD(d)); });
  acl.def("get_tensor_desc_element_count", [](uintptr_t d) { return aclGetTensorDescElementCount(TD(d)); });
  acl.def("get_tensor_desc_dim", [](uintptr_t d, size_t i) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    return aclGetTensorDescDim(TD(d), i);
#pragma GCC diagnostic pop
  });
  acl.def("get_tensor_desc_dim_v2", [](uintptr_t d, size_t i) {
    int64_t dim = 0;
    aclError ret = aclGetTensorDescDimV2(TD(d), i, &dim);
    return py::make_tuple(dim, ret);
  });
  acl.def("set_tensor_desc_name", [](uintptr_t d, const std::string& name) { aclSetTensorDescName(TD(d), name.c_str()); });
  acl.def("get_tensor_desc_name", [](uintptr_t d) {
    const char* s = aclGetTensorDescName(TD(d));
    return std::string(s ? s : "");
  });

  // ---- attributes ----
  op.def("create_attr", [] { return as_int(aclopCreateAttr()); });
  op.def("destroy_attr", [](uintptr_t a) { aclopDestroyAttr(A(a)); });
  op.def("set_attr_bool", [](uintptr_t a, const std::string& n, int v) {
    return aclopSetAttrBool(A(a), n.c_str(), static_cast<uint8_t>(v != 0));
  });
  op.def("set_attr_int", [](uintptr_t a, const std::string& n, int64_t v) { return aclopSetAttrInt(A(a), n.c_str(), v); });
  op.def("set_attr_float",
         [](uintptr_t a, const std::string& n, float v) { return aclopSetAttrFloat(A(a), n.c_str(), v); });
  op.def("set_attr_string", [](uintptr_t a, const std::string& n, const std::string& v) {
    return aclopSetAttrString(A(a), n.c_str(), v.c_str());
  });
  op.def("set_attr_data_type", [](uintptr_t a, const std::string& n, int v) {
    return aclopSetAttrDataType(A(a), n.c_str(), static_cast<aclDataType>(v));
  });
  op.def("set_attr_list_bool", [](uintptr_t a, const std::string& n, const std::vector<int>& v) {
    std::vector<uint8_t> b(v.begin(), v.end());
    for (auto& x : b) x = x ? 1 : 0;
    return aclopSetAttrListBool(A(a), n.c_str(), static_cast<int>(b.size()), b.data());
  });
  op.def("set_attr_list_int", [](uintptr_t a, const std::string& n, const std::vector<int64_t>& v) {
    return aclopSetAttrListInt(A(a), n.c_str(), static_cast<int>(v.size()), v.data());
  });
  op.def("set_attr_list_float", [](uintptr_t a, const std::string& n, const std::vector<float>& v) {
    return aclopSetAttrListFloat(A(a), n.c_str(), static_cast<int>(v.size()), v.data());
  });
  op.def("set_attr_list_string", [](uintptr_t a, const std::string& n, const std::vector<std::string>& v) {
    std::vector<const char*> p;
    for (const auto& s : v) p.push_back(s.c_str());
    return aclopSetAttrListString(A(a), n.c_str(), static_cast<int>(p.size()), p.data());
  });
  op.def("set_attr_list_list_int", [](uintptr_t a, const std::string& n, const std::vector<std::vector<int64_t>>& v) {
    std::vector<int> counts;
    std::vector<const int64_t*> ptrs;
    for (const auto& l : v) {
      counts.push_back(static_cast<int>(l.size()));
      ptrs.push_back(l.data());
    }
    return aclopSetAttrListListInt(A(a), n.c_str(), static_cast<int>(v.size()), counts.data(), ptrs.data());
  });

  // ---- models and execution ----
  op.def("set_model_dir", [](const std::string& dir) { return aclopSetModelDir(dir.c_str()); });
  op.def("load", [](uintptr_t ptr, size_t size) { return aclopLoad(as_ptr(ptr), size); });
  auto exec_v2 = [](const std::string& type, const std::vector<uintptr_t>& in_descs,
                    const std::vector<uintptr_t>& in_bufs, const std::vector<uintptr_t>& out_descs,
                    const std::vector<uintptr_t>& out_bufs, uintptr_t attr, uintptr_t stream) {
    auto id = handles<aclTensorDesc>(in_descs);
    auto ib = handles<aclDataBuffer>(in_bufs);
    auto od = handles<aclTensorDesc>(out_descs);
    auto ob = handles<aclDataBuffer>(out_bufs);
    if (id.size() != ib.size() || od.size() != ob.size()) return static_cast<aclError>(ACL_ERROR_INVALID_PARAM);
    nogil g;
    return aclopExecuteV2(type.c_str(), static_cast<int>(id.size()), id.data(), ib.data(), static_cast<int>(od.size()),
                          od.data(), ob.data(), A(attr), as_ptr(stream));
  };
  op.def("execute_v2", exec_v2);
  op.def("execute", exec_v2);
  op.def("create_handle", [](const std::string& type, const std::vector<uintptr_t>& in_descs,
                             const std::vector<uintptr_t>& out_descs, uintptr_t attr) {
    auto id = handles<const aclTensorDesc>(in_descs);
    auto od = handles<const aclTensorDesc>(out_descs);
    aclopHandle* h = nullptr;
    aclError ret = aclopCreateHandle(type.c_str(), static_cast<int>(id.size()), id.data(), static_cast<int>(od.size()),
                                     od.data(), A(attr), &h);
    return py::make_tuple(as_int(h), ret);
  });
  op.def("destroy_handle", [](uintptr_t h) { aclopDestroyHandle(static_cast<aclopHandle*>(as_ptr(h))); });
  op.def("execute_with_handle", [](uintptr_t h, const std::vector<uintptr_t>& in_bufs,
                                   const std::vector<uintptr_t>& out_bufs, uintptr_t stream) {
    auto ib = handles<const aclDataBuffer>(in_bufs);
    auto ob = handles<aclDataBuffer>(out_bufs);
    nogil g;
    return aclopExecWithHandle(static_cast<aclopHandle*>(as_ptr(h)), static_cast<int>(ib.size()), ib.data(),
                               static_cast<int>(ob.size()), ob.data(), as_ptr(stream));
  });
}

}  // namespace acl_sim::py_bind
