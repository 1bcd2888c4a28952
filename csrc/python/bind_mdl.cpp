// acl.mdl: pyACL's model API over the aclmdl* C functions. Return shapes follow
// pyACL (DEVELOPERS.md, "Python face"): out-parameters → (out..., ret); dims getters →
// (dict, ret) with an empty dict on failure; add_dataset_buffer → (ds, ret).
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "acl/acl.h"
#include "python/bindings.h"

namespace acl_sim::py_bind {

namespace {

using desc_t = aclmdlDesc*;

desc_t D(uintptr_t v) { return static_cast<desc_t>(as_ptr(v)); }
aclmdlDataset* DS(uintptr_t v) { return static_cast<aclmdlDataset*>(as_ptr(v)); }

py::dict dims_dict(const aclmdlIODims& d) {
  py::dict out;
  out["name"] = std::string(d.name);
  out["dimCount"] = d.dimCount;
  py::list dims;
  for (size_t k = 0; k < d.dimCount && k < ACL_MAX_DIM_CNT; ++k) dims.append(d.dims[k]);
  out["dims"] = dims;
  return out;
}

template <class Fn>
py::tuple dims_getter(Fn fn, uintptr_t desc, size_t index) {
  aclmdlIODims d{};
  aclError ret = fn(D(desc), index, &d);
  if (ret != ACL_SUCCESS) return py::make_tuple(py::dict(), ret);
  return py::make_tuple(dims_dict(d), ret);
}

std::string str_or_empty(const char* s) { return s ? std::string(s) : std::string(); }

}  // namespace

void bind_mdl(py::module_& mdl) {
  using py::call_guard;
  using nogil = py::gil_scoped_release;

  // ---- load / unload ----
  mdl.def("load_from_file", [](const std::string& path) {
    uint32_t id = 0;
    aclError ret;
    {
      nogil g;
      ret = aclmdlLoadFromFile(path.c_str(), &id);
    }
    return py::make_tuple(id, ret);
  });
  mdl.def("load_from_mem", [](uintptr_t ptr, size_t size) {
    uint32_t id = 0;
    aclError ret;
    {
      nogil g;
      ret = aclmdlLoadFromMem(as_ptr(ptr), size, &id);
    }
    return py::make_tuple(id, ret);
  });
  mdl.def("load_from_file_with_mem", [](const std::string& path, uintptr_t work, size_t work_size, uintptr_t weight,
                                        size_t weight_size) {
    uint32_t id = 0;
    aclError ret;
    {
      nogil g;
      ret = aclmdlLoadFromFileWithMem(path.c_str(), &id, as_ptr(work), work_size, as_ptr(weight), weight_size);
    }
    return py::make_tuple(id, ret);
  });
  mdl.def("load_from_mem_with_mem", [](uintptr_t ptr, size_t size, uintptr_t work, size_t work_size, uintptr_t weight,
                                       size_t weight_size) {
    uint32_t id = 0;
    aclError ret;
    {
      nogil g;
      ret = aclmdlLoadFromMemWithMem(as_ptr(ptr), size, &id, as_ptr(work), work_size, as_ptr(weight), weight_size);
    }
    return py::make_tuple(id, ret);
  });
  mdl.def("unload", [](uint32_t id) { return aclmdlUnload(id); }, call_guard<nogil>());
  mdl.def("query_size", [](const std::string& path) {
    size_t work = 0, weight = 0;
    aclError ret = aclmdlQuerySize(path.c_str(), &work, &weight);
    return py::make_tuple(work, weight, ret);
  });
  mdl.def("query_size_from_mem", [](uintptr_t ptr, size_t size) {
    size_t work = 0, weight = 0;
    aclError ret = aclmdlQuerySizeFromMem(as_ptr(ptr), size, &work, &weight);
    return py::make_tuple(work, weight, ret);
  });

  // ---- descriptions ----
  mdl.def("create_desc", [] { return as_int(aclmdlCreateDesc()); });
  mdl.def("destroy_desc", [](uintptr_t d) { return aclmdlDestroyDesc(D(d)); });
  mdl.def("get_desc", [](uintptr_t d, uint32_t id) { return aclmdlGetDesc(D(d), id); });
  mdl.def("get_desc_from_file", [](uintptr_t d, const std::string& path) {
    return aclmdlGetDescFromFile(D(d), path.c_str());
  }, call_guard<nogil>());
  mdl.def("get_desc_from_mem", [](uintptr_t d, uintptr_t ptr, size_t size) {
    return aclmdlGetDescFromMem(D(d), as_ptr(ptr), size);
  }, call_guard<nogil>());
  mdl.def("get_num_inputs", [](uintptr_t d) { return aclmdlGetNumInputs(D(d)); });
  mdl.def("get_num_outputs", [](uintptr_t d) { return aclmdlGetNumOutputs(D(d)); });
  mdl.def("get_input_size_by_index", [](uintptr_t d, size_t i) { return aclmdlGetInputSizeByIndex(D(d), i); });
  mdl.def("get_output_size_by_index", [](uintptr_t d, size_t i) { return aclmdlGetOutputSizeByIndex(D(d), i); });
  mdl.def("get_input_dims", [](uintptr_t d, size_t i) { return dims_getter(aclmdlGetInputDims, d, i); });
  mdl.def("get_input_dims_v2", [](uintptr_t d, size_t i) { return dims_getter(aclmdlGetInputDimsV2, d, i); });
  mdl.def("get_output_dims", [](uintptr_t d, size_t i) { return dims_getter(aclmdlGetOutputDims, d, i); });
  mdl.def("get_cur_output_dims", [](uintptr_t d, size_t i) { return dims_getter(aclmdlGetCurOutputDims, d, i); });
  mdl.def("get_input_name_by_index",
          [](uintptr_t d, size_t i) { return str_or_empty(aclmdlGetInputNameByIndex(D(d), i)); });
  mdl.def("get_output_name_by_index",
          [](uintptr_t d, size_t i) { return str_or_empty(aclmdlGetOutputNameByIndex(D(d), i)); });
  mdl.def("get_input_format", [](uintptr_t d, size_t i) { return static_cast<int>(aclmdlGetInputFormat(D(d), i)); });
  mdl.def("get_output_format", [](uintptr_t d, size_t i) { return static_cast<int>(aclmdlGetOutputFormat(D(d), i)); });
  mdl.def("get_input_data_type",
          [](uintptr_t d, size_t i) { return static_cast<int>(aclmdlGetInputDataType(D(d), i)); });
  mdl.def("get_output_data_type",
          [](uintptr_t d, size_t i) { return static_cast<int>(aclmdlGetOutputDataType(D(d), i)); });
  mdl.def("get_input_index_by_name", [](uintptr_t d, const std::string& name) {
    size_t idx = 0;
    aclError ret = aclmdlGetInputIndexByName(D(d), name.c_str(), &idx);
    return py::make_tuple(idx, ret);
  });
  mdl.def("get_output_index_by_name", [](uintptr_t d, const std::string& name) {
    size_t idx = 0;
    aclError ret = aclmdlGetOutputIndexByName(D(d), name.c_str(), &idx);
    return py::make_tuple(idx, ret);
  });

  // ---- dynamic shapes ----
  mdl.def("get_dynamic_batch", [](uintptr_t d) -> py::tuple {
    aclmdlBatch b{};
    aclError ret = aclmdlGetDynamicBatch(D(d), &b);
    if (ret != ACL_SUCCESS) return py::make_tuple(py::dict(), ret);
    py::dict out;
    out["batchCount"] = b.batchCount;
    py::list batch;
    for (size_t k = 0; k < b.batchCount; ++k) batch.append(b.batch[k]);
    out["batch"] = batch;
    return py::make_tuple(out, ret);
  });
  mdl.def("get_dynamic_hw", [](uintptr_t d, int64_t index) -> py::tuple {
    aclmdlHW hw{};
    aclError ret = aclmdlGetDynamicHW(D(d), static_cast<size_t>(index), &hw);
    if (ret != ACL_SUCCESS) return py::make_tuple(py::dict(), ret);
    py::dict out;
    out["hwCount"] = hw.hwCount;
    py::list pairs;
    for (size_t k = 0; k < hw.hwCount; ++k) pairs.append(py::make_tuple(hw.hw[k][0], hw.hw[k][1]));
    out["hw"] = pairs;
    return py::make_tuple(out, ret);
  });
  mdl.def("get_input_dynamic_gear_count", [](uintptr_t d, int64_t index) {
    size_t n = 0;
    aclError ret = aclmdlGetInputDynamicGearCount(D(d), static_cast<size_t>(index), &n);
    return py::make_tuple(n, ret);
  });
  mdl.def("get_input_dynamic_dims", [](uintptr_t d, int64_t index, size_t gear_count) -> py::tuple {
    if (gear_count > 4096) return py::make_tuple(py::list(), static_cast<aclError>(ACL_ERROR_INVALID_PARAM));
    std::vector<aclmdlIODims> dims(gear_count);
    aclError ret = aclmdlGetInputDynamicDims(D(d), static_cast<size_t>(index), dims.data(), gear_count);
    py::list out;
    if (ret == ACL_SUCCESS)
      for (const auto& g : dims) out.append(dims_dict(g));
    return py::make_tuple(out, ret);
  });
  mdl.def("set_dynamic_batch_size", [](uint32_t id, uintptr_t ds, size_t index, uint64_t batch) {
    return aclmdlSetDynamicBatchSize(id, DS(ds), index, batch);
  });
  mdl.def("set_dynamic_hw_size", [](uint32_t id, uintptr_t ds, size_t index, uint64_t h, uint64_t w) {
    return aclmdlSetDynamicHWSize(id, DS(ds), index, h, w);
  });
  mdl.def("set_input_dynamic_dims", [](uint32_t id, uintptr_t ds, size_t index, const py::dict& dims) {
    aclmdlIODims d{};
    if (dims.contains("name")) {
      std::string name = py::cast<std::string>(dims["name"]);
      name.copy(d.name, ACL_MAX_TENSOR_NAME_LEN - 1);
    }
    if (!dims.contains("dims")) throw py::value_error("acl.mdl.set_input_dynamic_dims: dims dict needs 'dims'");
    auto values = py::cast<std::vector<int64_t>>(dims["dims"]);
    if (values.size() > ACL_MAX_DIM_CNT) throw py::value_error("acl.mdl.set_input_dynamic_dims: too many dims");
    d.dimCount = dims.contains("dimCount") ? py::cast<size_t>(dims["dimCount"]) : values.size();
    if (d.dimCount > values.size()) throw py::value_error("acl.mdl.set_input_dynamic_dims: dimCount > len(dims)");
    for (size_t k = 0; k < values.size(); ++k) d.dims[k] = values[k];
    return aclmdlSetInputDynamicDims(id, DS(ds), index, &d);
  });

  // ---- datasets ----
  mdl.def("create_dataset", [] { return as_int(aclmdlCreateDataset()); });
  mdl.def("destroy_dataset", [](uintptr_t ds) { return aclmdlDestroyDataset(DS(ds)); });
  mdl.def("add_dataset_buffer", [](uintptr_t ds, uintptr_t buf) {
    aclError ret = aclmdlAddDatasetBuffer(DS(ds), static_cast<aclDataBuffer*>(as_ptr(buf)));
    return py::make_tuple(ds, ret);
  });
  mdl.def("get_dataset_buffer", [](uintptr_t ds, size_t i) { return as_int(aclmdlGetDatasetBuffer(DS(ds), i)); });
  mdl.def("get_dataset_num_buffers", [](uintptr_t ds) { return aclmdlGetDatasetNumBuffers(DS(ds)); });
  mdl.def("set_dataset_tensor_desc", [](uintptr_t ds, uintptr_t desc, size_t i) {
    return aclmdlSetDatasetTensorDesc(DS(ds), static_cast<aclTensorDesc*>(as_ptr(desc)), i);
  });
  mdl.def("get_dataset_tensor_desc",
          [](uintptr_t ds, size_t i) { return as_int(aclmdlGetDatasetTensorDesc(DS(ds), i)); });

  // ---- execution ----
  mdl.def("execute", [](uint32_t id, uintptr_t in, uintptr_t out) { return aclmdlExecute(id, DS(in), DS(out)); },
          call_guard<nogil>());
  mdl.def("execute_async", [](uint32_t id, uintptr_t in, uintptr_t out, uintptr_t stream) {
    return aclmdlExecuteAsync(id, DS(in), DS(out), as_ptr(stream));
  }, call_guard<nogil>());
}

}  // namespace acl_sim::py_bind
