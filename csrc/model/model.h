// A loaded `.om` model: validated description, weights in device memory, a
// planned workspace, and one prepared executable graph per dynamic profile.
// aclmdl (csrc/capi/, csrc/python/bind_mdl.cpp) is a thin layer over this class.
//
// Thread-safety: everything here is safe to call concurrently. Several
// threads/streams may run() the same Model at once with their own buffers;
// each concurrent run takes its own workspace from a small per-model pool
// (when the user supplied work memory there is one workspace, and runs of
// that model are serialised, since the user gave memory for one run).
//
// Lifetime: a Model owns device memory (weights, workspaces) from its
// Device's pool, so it must be destroyed before the Device (aclmdlUnload, or
// the Runtime::on_finalize hook that unloads every model).
#pragma once

#include "common/export.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "kernels/op_registry.h"

#define ACL_SIM_MODEL_API ACL_SIM_EXPORT

namespace acl_sim {

class Device;
class MemPool;
class GraphExecutor;
struct OmModel;

/** AIPP on a model input (IODESC "aipp", written by ATC for --insert_op_conf; docs/aipp.md). */
struct AippInfo {
  enum class Kind { None, Static, Dynamic, DynamicData };
  Kind kind = Kind::None;
  std::vector<int64_t> dims_v2;          // aclmdlGetInputDimsV2 (product = input size)
  int64_t data_input_index = -1;         // Dynamic: index of the ascend_dynamic_aipp_data input
  int64_t batch = 0;                     // Dynamic / DynamicData: images per run
  int64_t max_src_image_size = 0;        // Dynamic
  std::vector<int64_t> src_dims;         // the model's own input (before AIPP)
  int src_dtype = 0;                     // aclDataType of that input
  int src_format = 0;                    // aclFormat of that input
  std::vector<std::pair<std::string, double>> config;  // Static: the checked aipp_op parameters
  double value(const std::string& key, double def = 0) const {
    for (const auto& kv : config)
      if (kv.first == key) return kv.second;
    return def;
  }
};

/** One model input or output, as IODESC describes it (dims hold -1 in dynamic positions). */
struct IoDesc {
  std::string name;
  int dtype = 0;                // aclDataType
  int format = 2;               // aclFormat (0 NCHW, 1 NHWC, 2 ND)
  std::vector<int64_t> dims;    // outputs: the largest profile's shape
  size_t size = 0;              // bytes of the largest profile
  AippInfo aipp;                // inputs only
};

enum class DynamicKind { None, Batch, HW, Dims };

struct DynamicInfo {
  DynamicKind kind = DynamicKind::None;
  std::vector<std::vector<int64_t>> profiles;  // batch: [b]; hw: [h, w]; dims: every -1 in input order
  int64_t mbatch_input_index = -1;             // index of `ascend_mbatch_shape_data` in inputs, or -1
};

struct ModelIO {
  std::vector<IoDesc> inputs;   // includes ascend_mbatch_shape_data (last) when dynamic
  std::vector<IoDesc> outputs;
  DynamicInfo dynamic;
};

/** What a node hook sees: the node and its resolved tensors (valid only during the call). */
struct NodeEvent {
  const class Model* model;
  size_t profile;
  size_t node_index;
  const char* node_name;
  const char* op_type;
  const std::vector<std::string>* sources;  // ONNX node names this node came from
  const OpContext* op;                      // inputs/outputs with data pointers, shapes, dtypes; attrs
};

/** Observer called before and after every node (profiler, dump, compare). Either function may be null.
 *  Called on the running thread; must not throw (an exception is reported as the node's failure). */
struct NodeHook {
  void (*before)(void* user, const NodeEvent& event) = nullptr;
  void (*after)(void* user, const NodeEvent& event) = nullptr;
  void* user = nullptr;
};

/** Where load() puts weights and workspaces. */
struct ModelMemory {
  MemPool* pool = nullptr;       // device pool; nullptr = host heap (tests and tools only)
  void* work = nullptr;          // user work memory (load_from_file_with_mem), or nullptr
  size_t work_size = 0;
  void* weight = nullptr;        // user weight memory, or nullptr
  size_t weight_size = 0;
  bool map_weights = false;      // use the weights in place inside the (mapped) file bytes, no copy
  bool describe_only = false;    // validate and describe only: no weight copy, no workspace; run() fails
                                 // (aclmdlGetDescFromFile/FromMem)
};

class ACL_SIM_MODEL_API Model {
 public:
  /** Parse and validate @p data (a whole .om image; copied, the caller may free it), copy weights into
   *  @p dev's memory (or @p weight), and reserve the workspace (from @p dev or @p work).
   *  Throws ACL_ERROR_INVALID_FILE (100003) / ACL_ERROR_PARSE_MODEL (100013) for damaged files,
   *  ACL_ERROR_INVALID_PARAM (100000) for too-small user memory, 207001 when the device is full. */
  static std::shared_ptr<Model> load(const void* data, size_t size, Device& dev, void* work = nullptr,
                                     size_t work_size = 0, void* weight = nullptr, size_t weight_size = 0);
  /** As load(), reading @p path (ACL_ERROR_GE_EXEC_MODEL_PATH_INVALID 145002 if it cannot be read).
   *  With ACL_SIM_MMAP_WEIGHTS=1 (and no user weight memory) the WEIGHTS section is used in place from a
   *  read-only private mapping instead of being copied. */
  static std::shared_ptr<Model> load_file(const std::string& path, Device& dev, void* work = nullptr,
                                          size_t work_size = 0, void* weight = nullptr, size_t weight_size = 0);
  /** The general form: @p mem says where weights and workspaces live. */
  static std::shared_ptr<Model> load_with(const void* data, size_t size, const ModelMemory& mem);
  static std::shared_ptr<Model> load_file_with(const std::string& path, const ModelMemory& mem);

  /** Work (largest profile's workspace) and weight bytes a load needs; validates the file like load(). */
  static void query_size(const void* data, size_t size, size_t* work, size_t* weight);
  static void query_size_file(const std::string& path, size_t* work, size_t* weight);

  ~Model();
  Model(const Model&) = delete;
  Model& operator=(const Model&) = delete;

  const ModelIO& io() const;
  /** 1 for a static model, else the number of dynamic profiles (IODESC order). */
  size_t profile_count() const;
  /** Input/output shapes of @p profile (no -1). Throws 100000 for a bad profile index. */
  std::vector<std::vector<int64_t>> input_dims(size_t profile) const;
  std::vector<std::vector<int64_t>> output_dims(size_t profile) const;
  /** Bytes each input / output occupies in @p profile (valid as long as the model). */
  const std::vector<size_t>& input_sizes(size_t profile) const;
  const std::vector<size_t>& output_sizes(size_t profile) const;
  /** Workspace bytes per run (largest profile) and weight bytes. */
  size_t work_size() const;
  size_t weight_size() const;
  /** Number of nodes of @p profile's graph. */
  size_t node_count(size_t profile) const;
  /** The META section as JSON text ("{}" when absent). */
  const std::string& meta_json() const;

  /** Runs profile @p profile on the calling thread: reads inputs / writes outputs at the given addresses
   *  (one per io().inputs / io().outputs entry, each at least input_sizes()/output_sizes() bytes; the
   *  caller validates buffer sizes). Throws 100000 for a wrong count, null pointer or profile, and the
   *  failing node's error (message names the node and op). Thread-safe (see above). */
  void run(size_t profile, const std::vector<void*>& inputs, const std::vector<void*>& outputs) const;
  /** As run(); also returns in @p actual_output_dims the dims each output has in this run: a model with
   *  run-time output dims (has_runtime_output_dims) writes only that many elements of each output buffer. */
  void run(size_t profile, const std::vector<void*>& inputs, const std::vector<void*>& outputs,
           std::vector<std::vector<int64_t>>* actual_output_dims) const;
  /** True when some output dim is set at run time by a shape-setting op (NonZero, NonMaxSuppression, Unique,
   *  Compress, ...): IODESC gives -1 there, output_dims()/output_sizes() give the bound (the buffer to allocate),
   *  and the run reports the actual dims (docs/dynamic_shapes.md). */
  bool has_runtime_output_dims() const;

  /** Install the observer for this model's nodes (nullptr or a hook with both functions null: none).
   *  Takes effect for runs that start afterwards. */
  void set_node_hook(const NodeHook* hook);
  /** A process-wide observer called for every model's nodes, after the model's own (profiler). */
  static void set_global_node_hook(const NodeHook* hook);

  struct Impl;  // opaque (model.cpp)

 private:
  Model();
  std::unique_ptr<Impl> impl_;
};

}  // namespace acl_sim
