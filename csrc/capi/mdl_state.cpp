#include "capi/mdl_state.h"

#include "common/error.h"
#include "op/tensor_desc.h"
#include "runtime/runtime.h"

namespace acl_sim {

void ProfileState::record(std::vector<std::vector<int64_t>> dims) {
  std::lock_guard<std::mutex> lock(mu_);
  last_dims_ = std::move(dims);
}

bool ProfileState::last_dims(size_t index, std::vector<int64_t>& out) const {
  std::lock_guard<std::mutex> lock(mu_);
  if (index >= last_dims_.size()) return false;
  out = last_dims_[index];
  return true;
}

void publish_output_dims(aclmdlDataset& ds, const ModelIO& io, const std::vector<std::vector<int64_t>>& dims) {
  for (size_t i = 0; i < dims.size() && i < ds.descs.size() && i < io.outputs.size(); ++i) {
    if (auto desc = ds.descs[i] ? tensor_descs().find(ds.descs[i]) : nullptr) {
      desc->dims = dims[i];
      continue;
    }
    auto desc = std::make_shared<aclTensorDesc>();
    desc->dtype = static_cast<aclDataType>(io.outputs[i].dtype);
    desc->format = static_cast<aclFormat>(io.outputs[i].format);
    desc->dims = dims[i];
    desc->name = io.outputs[i].name;
    ds.descs[i] = tensor_descs().add(std::move(desc));
    ds.owned_descs.push_back(ds.descs[i]);
  }
}

void LoadedModel::begin_run() {
  std::lock_guard<std::mutex> lock(mu);
  ++in_flight;
}

void LoadedModel::end_run() {
  std::lock_guard<std::mutex> lock(mu);
  if (--in_flight == 0) idle_cv.notify_all();
}

void LoadedModel::wait_idle() {
  std::unique_lock<std::mutex> lock(mu);
  idle_cv.wait(lock, [&] { return in_flight == 0; });
}

ModelTable& ModelTable::instance() {
  static ModelTable* table = [] {
    auto* t = new ModelTable();  // never destroyed: streams may still hold tasks at exit
    // aclFinalize frees devices after this hook: models (their weights and workspaces) go first.
    Runtime::get().on_finalize("aclmdl", [t] {
      for (auto& m : t->clear()) m->wait_idle();
    });
    return t;
  }();
  return *table;
}

uint32_t ModelTable::add(std::shared_ptr<LoadedModel> m) {
  std::lock_guard<std::mutex> lock(mu_);
  uint32_t id = next_id_++;
  m->id = id;
  models_[id] = std::move(m);
  return id;
}

std::shared_ptr<LoadedModel> ModelTable::require(uint32_t id) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = models_.find(id);
  ACL_SIM_REQUIRE(it != models_.end(), ACL_ERROR_GE_EXEC_MODEL_ID_INVALID, "model id ", id,
                  " is not loaded (never loaded, or already unloaded)");
  return it->second;
}

std::shared_ptr<LoadedModel> ModelTable::remove(uint32_t id) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = models_.find(id);
  ACL_SIM_REQUIRE(it != models_.end(), ACL_ERROR_GE_EXEC_MODEL_ID_INVALID, "model id ", id,
                  " is not loaded (never loaded, or already unloaded)");
  auto m = std::move(it->second);
  models_.erase(it);
  return m;
}

std::vector<std::shared_ptr<LoadedModel>> ModelTable::clear() {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::shared_ptr<LoadedModel>> out;
  for (auto& kv : models_) out.push_back(std::move(kv.second));
  models_.clear();
  return out;
}

size_t largest_profile(const Model& m) {
  size_t best = 0, best_bytes = 0;
  for (size_t p = 0; p < m.profile_count(); ++p) {
    size_t bytes = 0;
    for (size_t s : m.input_sizes(p)) bytes += s;
    if (bytes > best_bytes) {
      best = p;
      best_bytes = bytes;
    }
  }
  return best;
}

HandleTable<aclmdlDesc>& model_descs() {
  static HandleTable<aclmdlDesc> t;
  return t;
}

HandleTable<aclmdlDataset>& datasets() {
  static HandleTable<aclmdlDataset> t;
  return t;
}

std::shared_ptr<aclmdlDesc> require_model_desc(const void* handle, bool need_filled) {
  ACL_SIM_REQUIRE(handle != nullptr, ACL_ERROR_INVALID_PARAM, "modelDesc is NULL");
  auto d = model_descs().find(handle);
  ACL_SIM_REQUIRE(d != nullptr, ACL_ERROR_INVALID_PARAM, "modelDesc is not a live aclmdlDesc (destroyed?)");
  ACL_SIM_REQUIRE(!need_filled || d->filled, ACL_ERROR_INVALID_PARAM,
                  "modelDesc is empty: call aclmdlGetDesc(desc, modelId) first");
  return d;
}

std::shared_ptr<aclmdlDataset> require_dataset(const void* handle, const char* what) {
  ACL_SIM_REQUIRE(handle != nullptr, ACL_ERROR_INVALID_PARAM, what, " is NULL");
  auto d = datasets().find(handle);
  ACL_SIM_REQUIRE(d != nullptr, ACL_ERROR_INVALID_PARAM, what, " is not a live aclmdlDataset (destroyed?)");
  return d;
}

void describe(aclmdlDesc& desc, const Model& m, std::shared_ptr<ProfileState> profile) {
  desc.io = m.io();
  desc.output_dims.clear();
  for (size_t p = 0; p < m.profile_count(); ++p) desc.output_dims.push_back(m.output_dims(p));
  desc.largest_profile = largest_profile(m);
  desc.runtime_output_dims = m.has_runtime_output_dims();
  desc.profile = std::move(profile);
  desc.filled = true;
}

}  // namespace acl_sim
