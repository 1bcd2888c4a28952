// Model: load, describe and run (contract in model.h).
#include "model/model.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "acl/acl_base.h"
#include "common/error.h"
#include "model/graph_executor.h"
#include "model/model_memory.h"
#include "model/om_reader.h"
#include "runtime/device.h"

namespace acl_sim {

namespace {

/** A workspace and the graphs prepared against it (lazily, per profile). Used by one run at a time. */
struct WorkSlot {
  OwnedBlock owned;          // empty when the workspace is user memory
  uint8_t* workspace = nullptr;
  std::vector<std::unique_ptr<PreparedGraph>> prepared;  // index = profile
};

std::shared_ptr<const NodeHook> g_global_hook;  // accessed with std::atomic_load/store

std::shared_ptr<const NodeHook> make_hook(const NodeHook* hook) {
  if (!hook || (!hook->before && !hook->after)) return nullptr;
  return std::make_shared<const NodeHook>(*hook);
}

bool env_flag(const char* name) {
  const char* v = std::getenv(name);
  return v && *v && std::strcmp(v, "0") != 0;
}

}  // namespace

struct Model::Impl {
  OmModel om;
  std::unique_ptr<MappedFile> file;  // kept only when weights are used in place
  OwnedBlock weight_block;
  const uint8_t* weights = nullptr;
  std::vector<GraphExecutor> executors;
  uint64_t work_size = 0;
  bool describe_only = false;
  bool runtime_output_dims = false;  // some output tensor has a run-time dim (any profile)

  std::vector<std::vector<std::vector<int64_t>>> in_dims, out_dims;  // [profile][io]
  std::vector<std::vector<size_t>> in_sizes, out_sizes;

  MemPool* pool = nullptr;
  uint8_t* user_work = nullptr;  // non-null: one slot on user memory, runs serialised
  std::mutex slots_mu;
  std::condition_variable slot_free;
  std::vector<std::unique_ptr<WorkSlot>> free_slots;
  size_t slot_count = 0;

  std::shared_ptr<const NodeHook> hook;  // accessed with std::atomic_load/store

  std::unique_ptr<WorkSlot> new_slot() {
    auto slot = std::make_unique<WorkSlot>();
    if (user_work) {
      slot->workspace = user_work;
    } else {
      slot->owned = OwnedBlock(pool, size_t(work_size));
      slot->workspace = slot->owned.data();
    }
    slot->prepared.resize(executors.size());
    return slot;
  }

  std::unique_ptr<WorkSlot> acquire() {
    std::unique_lock<std::mutex> lock(slots_mu);
    if (user_work) slot_free.wait(lock, [&] { return !free_slots.empty(); });
    if (!free_slots.empty()) {
      auto s = std::move(free_slots.back());
      free_slots.pop_back();
      return s;
    }
    ++slot_count;
    lock.unlock();
    try {
      return new_slot();
    } catch (...) {
      std::lock_guard<std::mutex> relock(slots_mu);
      --slot_count;
      throw;
    }
  }

  void release(std::unique_ptr<WorkSlot> s) {
    {
      std::lock_guard<std::mutex> lock(slots_mu);
      free_slots.push_back(std::move(s));
    }
    slot_free.notify_one();
  }

  /** Shapes and sizes of each profile's inputs and outputs. */
  void describe_profiles() {
    const ModelIO& io = om.io;
    for (size_t p = 0; p < om.graphs.size(); ++p) {
      const GraphDesc& g = om.graphs[p];
      for (const auto& t : g.tensors)
        if (t.kind == TensorKind::Output)
          for (int32_t s : t.sym) runtime_output_dims = runtime_output_dims || s >= 0;
      std::vector<std::vector<int64_t>> ins(io.inputs.size()), outs(io.outputs.size());
      std::vector<bool> in_known(io.inputs.size(), false);
      for (const auto& t : g.tensors) {
        if (t.kind == TensorKind::Input) {
          ins[t.index] = t.shape;
          in_known[t.index] = true;
        } else if (t.kind == TensorKind::Output) {
          outs[t.index] = t.shape;
        }
      }
      // Inputs the graph does not read (the mbatch input, unused inputs): dims from IODESC with every -1
      // replaced by the profile's values in order.
      const std::vector<int64_t>* values = io.dynamic.profiles.empty() ? nullptr : &io.dynamic.profiles[p];
      size_t next = 0;
      for (size_t i = 0; i < io.inputs.size(); ++i) {
        std::vector<int64_t> d = io.inputs[i].dims;
        for (auto& v : d) {
          if (v >= 0) continue;
          if (values && !values->empty()) v = (*values)[std::min(next, values->size() - 1)];
          else v = 1;
          if (io.dynamic.kind != DynamicKind::Batch) ++next;
        }
        if (!in_known[i]) ins[i] = std::move(d);
      }
      std::vector<size_t> isz, osz;
      for (size_t i = 0; i < ins.size(); ++i) {
        size_t n = dtype_size(io.inputs[i].dtype);
        for (int64_t v : ins[i]) n *= size_t(v);
        isz.push_back(std::min(n, io.inputs[i].size));
      }
      for (size_t i = 0; i < outs.size(); ++i) {
        size_t n = dtype_size(io.outputs[i].dtype);
        for (int64_t v : outs[i]) n *= size_t(v);
        osz.push_back(n);
      }
      in_dims.push_back(std::move(ins));
      out_dims.push_back(std::move(outs));
      in_sizes.push_back(std::move(isz));
      out_sizes.push_back(std::move(osz));
    }
  }

  void check_profile(size_t profile) const {
    ACL_SIM_REQUIRE(profile < om.graphs.size(), ACL_ERROR_INVALID_PARAM, "profile ", profile,
                    " out of range: the model has ", om.graphs.size());
  }
};

Model::Model() : impl_(std::make_unique<Impl>()) {}

Model::~Model() {
  // Workspaces go back to the pool before the weights (OwnedBlock destructors).
  impl_->free_slots.clear();
}

namespace {

std::shared_ptr<Model> finish_load(std::shared_ptr<Model> model, Model::Impl& m, const uint8_t* image,
                                   const ModelMemory& mem, bool weights_in_place) {
  m.pool = mem.pool;
  for (const auto& g : m.om.graphs) m.work_size = std::max(m.work_size, g.workspace_size);
  if (mem.describe_only) {
    m.describe_only = true;
    m.describe_profiles();
    return model;
  }
  const uint8_t* src = image + m.om.weights_offset;
  size_t wsize = size_t(m.om.weights_size);
  if (mem.weight) {
    ACL_SIM_REQUIRE(mem.weight_size >= wsize, ACL_ERROR_INVALID_PARAM, "weight memory of ", mem.weight_size,
                    " bytes is too small: the model needs ", wsize, " (aclmdlQuerySize)");
    std::memcpy(mem.weight, src, wsize);
    m.weights = static_cast<const uint8_t*>(mem.weight);
  } else if (weights_in_place) {
    m.weights = src;
  } else {
    m.weight_block = OwnedBlock(mem.pool, wsize);
    if (wsize) std::memcpy(m.weight_block.data(), src, wsize);
    m.weights = m.weight_block.data();
  }
  if (mem.work) {
    ACL_SIM_REQUIRE(mem.work_size >= m.work_size, ACL_ERROR_INVALID_PARAM, "work memory of ", mem.work_size,
                    " bytes is too small: the model needs ", m.work_size, " (aclmdlQuerySize)");
    m.user_work = static_cast<uint8_t*>(mem.work);
  }
  m.executors.reserve(m.om.graphs.size());
  for (const auto& g : m.om.graphs) m.executors.emplace_back(g, m.weights);
  m.describe_profiles();
  // Take the first workspace now, so a device without room fails at load as on CANN.
  auto slot = m.new_slot();
  m.slot_count = 1;
  m.free_slots.push_back(std::move(slot));
  return model;
}

ModelMemory device_memory(Device& dev, void* work, size_t work_size, void* weight, size_t weight_size) {
  ModelMemory mem;
  mem.pool = &dev.pool();
  mem.work = work;
  mem.work_size = work_size;
  mem.weight = weight;
  mem.weight_size = weight_size;
  mem.map_weights = env_flag("ACL_SIM_MMAP_WEIGHTS");
  return mem;
}

}  // namespace

std::shared_ptr<Model> Model::load_with(const void* data, size_t size, const ModelMemory& mem) {
  std::shared_ptr<Model> model(new Model());
  Impl& m = *model->impl_;
  auto image = static_cast<const uint8_t*>(data);
  m.om = read_om(image, size);
  // The caller keeps ownership of @p data, so weights are always copied here.
  return finish_load(model, m, image, mem, false);
}

std::shared_ptr<Model> Model::load_file_with(const std::string& path, const ModelMemory& mem) {
  std::shared_ptr<Model> model(new Model());
  Impl& m = *model->impl_;
  auto file = std::make_unique<MappedFile>(path);
  m.om = read_om(file->data(), file->size());
  bool in_place = mem.map_weights && !mem.weight;
  finish_load(model, m, file->data(), mem, in_place);
  if (in_place) m.file = std::move(file);
  return model;
}

std::shared_ptr<Model> Model::load(const void* data, size_t size, Device& dev, void* work, size_t work_size,
                                   void* weight, size_t weight_size) {
  return load_with(data, size, device_memory(dev, work, work_size, weight, weight_size));
}

std::shared_ptr<Model> Model::load_file(const std::string& path, Device& dev, void* work, size_t work_size,
                                        void* weight, size_t weight_size) {
  return load_file_with(path, device_memory(dev, work, work_size, weight, weight_size));
}

void Model::query_size(const void* data, size_t size, size_t* work, size_t* weight) {
  OmModel om = read_om(static_cast<const uint8_t*>(data), size);
  uint64_t w = 0;
  for (const auto& g : om.graphs) w = std::max(w, g.workspace_size);
  if (work) *work = size_t(w);
  if (weight) *weight = size_t(om.weights_size);
}

void Model::query_size_file(const std::string& path, size_t* work, size_t* weight) {
  MappedFile file(path);
  query_size(file.data(), file.size(), work, weight);
}

const ModelIO& Model::io() const { return impl_->om.io; }
size_t Model::profile_count() const { return impl_->om.graphs.size(); }

std::vector<std::vector<int64_t>> Model::input_dims(size_t profile) const {
  impl_->check_profile(profile);
  return impl_->in_dims[profile];
}

std::vector<std::vector<int64_t>> Model::output_dims(size_t profile) const {
  impl_->check_profile(profile);
  return impl_->out_dims[profile];
}

const std::vector<size_t>& Model::input_sizes(size_t profile) const {
  impl_->check_profile(profile);
  return impl_->in_sizes[profile];
}

const std::vector<size_t>& Model::output_sizes(size_t profile) const {
  impl_->check_profile(profile);
  return impl_->out_sizes[profile];
}

size_t Model::work_size() const { return size_t(impl_->work_size); }
size_t Model::weight_size() const { return size_t(impl_->om.weights_size); }

size_t Model::node_count(size_t profile) const {
  impl_->check_profile(profile);
  return impl_->om.graphs[profile].nodes.size();
}

const std::string& Model::meta_json() const { return impl_->om.meta_json; }

void Model::run(size_t profile, const std::vector<void*>& inputs, const std::vector<void*>& outputs) const {
  run(profile, inputs, outputs, nullptr);
}

bool Model::has_runtime_output_dims() const { return impl_->runtime_output_dims; }

void Model::run(size_t profile, const std::vector<void*>& inputs, const std::vector<void*>& outputs,
                std::vector<std::vector<int64_t>>* actual_output_dims) const {
  Impl& m = *impl_;
  ACL_SIM_REQUIRE(!m.describe_only, ACL_ERROR_INVALID_PARAM, "the model was loaded for description only");
  m.check_profile(profile);
  const ModelIO& io = m.om.io;
  ACL_SIM_REQUIRE(inputs.size() == io.inputs.size(), ACL_ERROR_INVALID_PARAM, "the model has ", io.inputs.size(),
                  " inputs, ", inputs.size(), " buffers were given");
  ACL_SIM_REQUIRE(outputs.size() == io.outputs.size(), ACL_ERROR_INVALID_PARAM, "the model has ", io.outputs.size(),
                  " outputs, ", outputs.size(), " buffers were given");
  for (size_t i = 0; i < inputs.size(); ++i)
    ACL_SIM_REQUIRE(inputs[i] || m.in_sizes[profile][i] == 0, ACL_ERROR_INVALID_PARAM, "input ", i, " (",
                    io.inputs[i].name, ") buffer is NULL");
  for (size_t i = 0; i < outputs.size(); ++i)
    ACL_SIM_REQUIRE(outputs[i] || m.out_sizes[profile][i] == 0, ACL_ERROR_INVALID_PARAM, "output ", i, " (",
                    io.outputs[i].name, ") buffer is NULL");

  std::shared_ptr<const NodeHook> model_hook = std::atomic_load(&m.hook);
  std::shared_ptr<const NodeHook> global_hook = std::atomic_load(&g_global_hook);
  RunHooks hooks{model_hook.get(), global_hook.get()};

  std::unique_ptr<WorkSlot> slot = m.acquire();
  try {
    auto& prepared = slot->prepared[profile];
    if (!prepared) {
      prepared = std::make_unique<PreparedGraph>();
      m.executors[profile].prepare(*prepared, slot->workspace);
    }
    m.executors[profile].run(*prepared, inputs, outputs, hooks, this, profile);
    if (actual_output_dims) {
      if (prepared->symbols.empty()) *actual_output_dims = m.out_dims[profile];
      else m.executors[profile].output_dims(*prepared, *actual_output_dims);
    }
  } catch (...) {
    m.release(std::move(slot));
    throw;
  }
  m.release(std::move(slot));
}

void Model::set_node_hook(const NodeHook* hook) { std::atomic_store(&impl_->hook, make_hook(hook)); }

void Model::set_global_node_hook(const NodeHook* hook) { std::atomic_store(&g_global_hook, make_hook(hook)); }

}  // namespace acl_sim
