// Internal state behind the aclmdl* C API: the loaded-model table (model ids),
// model descriptions and datasets. The C entry points live in mdl_*.cpp.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "acl/acl_mdl.h"
#include "common/handle_table.h"
#include "model/model.h"

namespace acl_sim {

class Device;

/** The profile a dynamic model last ran or was set to; shared by the model and the descs taken from it. */
struct ProfileState {
  std::atomic<int64_t> current{-1};  // -1: none chosen yet (cur output dims = largest profile)

  // A model with run-time output dims (Model::has_runtime_output_dims): the outputs' dims in the
  // execution that finished last (aclmdlGetCurOutputDims reports them).
  void record(std::vector<std::vector<int64_t>> dims);
  /** False until an execution finished (or for an index it did not report). */
  bool last_dims(size_t index, std::vector<int64_t>& out) const;

 private:
  mutable std::mutex mu_;
  std::vector<std::vector<int64_t>> last_dims_;
};

/** One aclmdlLoad* result. */
struct LoadedModel {
  uint32_t id = 0;
  std::shared_ptr<Model> model;
  Device* device = nullptr;
  std::shared_ptr<ProfileState> profile = std::make_shared<ProfileState>();

  // Executions queued on streams but not finished: unload waits for them.
  std::mutex mu;
  std::condition_variable idle_cv;
  int64_t in_flight = 0;

  void begin_run();
  void end_run();
  void wait_idle();
};

class ModelTable {
 public:
  static ModelTable& instance();
  uint32_t add(std::shared_ptr<LoadedModel> m);
  /** The live model; throws 145003 naming @p id when unknown or unloaded. */
  std::shared_ptr<LoadedModel> require(uint32_t id) const;
  std::shared_ptr<LoadedModel> remove(uint32_t id);
  std::vector<std::shared_ptr<LoadedModel>> clear();

 private:
  mutable std::mutex mu_;
  uint32_t next_id_ = 1;
  std::unordered_map<uint32_t, std::shared_ptr<LoadedModel>> models_;
};

/** Index of the largest profile (by total input bytes), the default for dims queries. */
size_t largest_profile(const Model& m);

}  // namespace acl_sim

/** A snapshot of a model's description (aclmdlGetDesc copies; it outlives unload). */
struct aclmdlDesc {
  bool filled = false;
  acl_sim::ModelIO io;
  std::vector<std::vector<std::vector<int64_t>>> output_dims;  // [profile][output] dims
  size_t largest_profile = 0;
  bool runtime_output_dims = false;                 // Model::has_runtime_output_dims
  std::shared_ptr<acl_sim::ProfileState> profile;  // null for descs from a file
};

struct aclmdlDataset {
  std::vector<aclDataBuffer*> buffers;
  std::vector<aclTensorDesc*> descs;  // parallel to buffers; null when unset
  // Descs an execution created for run-time output dims (aclmdlGetDatasetTensorDesc); destroyed with the dataset.
  std::vector<aclTensorDesc*> owned_descs;
};

namespace acl_sim {

HandleTable<aclmdlDesc>& model_descs();
HandleTable<aclmdlDataset>& datasets();

/** The live desc; throws 100000 for NULL/dead. @p need_filled: also require aclmdlGetDesc to have run. */
std::shared_ptr<aclmdlDesc> require_model_desc(const void* handle, bool need_filled = true);
std::shared_ptr<aclmdlDataset> require_dataset(const void* handle, const char* what);

/** After an execution of a model with run-time output dims: output i's tensor desc in @p ds gets the
 *  dims of that run (a desc the user set is updated; else one owned by the dataset is created). */
void publish_output_dims(aclmdlDataset& ds, const ModelIO& io, const std::vector<std::vector<int64_t>>& dims);

/** Fill @p desc from @p m. */
void describe(aclmdlDesc& desc, const Model& m, std::shared_ptr<ProfileState> profile);

}  // namespace acl_sim
