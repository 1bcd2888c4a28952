// Loaded kernel binaries, function handles and argument lists: the objects
// behind CANN's aclrtBinHandle / aclrtFuncHandle / aclrtArgsHandle /
// aclrtParamHandle. A "binary" is a host shared object compiled from Ascend
// C-style source (kernel_operator.h); it is dlopen'ed privately (RTLD_LOCAL)
// and kept open until unloaded AND no queued launch still uses it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "acl_sim/kernel/block_context.h"
#include "common/handle_table.h"

namespace acl_sim {

struct LaunchSpec;

/** An open kernel .so. Destroying it dlcloses the module. */
class KernelBinary {
 public:
  /** dlopen @p path; throws ACL_ERROR_INVALID_FILE (100003)-style errors naming the path and dlerror(). */
  static std::shared_ptr<KernelBinary> open(const std::string& path);
  ~KernelBinary();

  const std::string& path() const { return path_; }
  void* module() const { return module_; }
  acl_sim_enter_block_fn enter_hook() const { return enter_; }

 private:
  KernelBinary() = default;
  std::string path_;
  void* module_ = nullptr;
  acl_sim_enter_block_fn enter_ = nullptr;
};

/** One extern "C" kernel entry of a binary. */
struct KernelFunction {
  std::shared_ptr<KernelBinary> binary;
  std::string name;
  void* entry = nullptr;
};

/** A kernel argument list under construction (aclrtKernelArgs*). */
class KernelArgs {
 public:
  struct Param {
    void* handle = nullptr;        // the aclrtParamHandle: an id from next_handle_value(), never reused
    uint64_t slot = 0;             // value for ordinary parameters
    bool placeholder = false;
    std::shared_ptr<uint8_t> data;  // placeholder host buffer (GetPlaceHolderBuffer)
    size_t data_size = 0;
  };

  explicit KernelArgs(std::shared_ptr<KernelFunction> fn) : function_(std::move(fn)) {}

  /** Append an 8-byte-or-smaller value; throws 107000 once finalized, for size 0 or > 8, or past 32 params. */
  void* append(const void* value, size_t size);
  void* append_placeholder();
  /** The host buffer of placeholder @p p, (re)allocated to @p size bytes. */
  void* placeholder_buffer(Param* p, size_t size);
  /** aclrtKernelArgsParaUpdate: replace an ordinary parameter's value. */
  void update(Param* p, const void* value, size_t size);
  void finalize();
  bool finalized() const;
  /** Throws 107017 unless @p p belongs to this list. */
  Param* require_param(void* p);

  const std::shared_ptr<KernelFunction>& function() const { return function_; }
  /** Fill @p spec's slots, copying placeholder data so later host edits do not reach this launch. */
  void build_slots(LaunchSpec& spec) const;

 private:
  void require_open(const char* what) const;

  std::shared_ptr<KernelFunction> function_;
  mutable std::mutex mu_;
  std::vector<std::unique_ptr<Param>> params_;
  bool finalized_ = false;
};

/** Live handle tables of the kernel API. */
struct KernelHandles {
  static KernelHandles& get();
  HandleTable<KernelBinary> binaries;
  HandleTable<KernelFunction> functions;
  HandleTable<KernelArgs> args;

  /** The function named @p name in @p bin; functions are cached, so the same handle comes back. */
  KernelFunction* function(const std::shared_ptr<KernelBinary>& bin, const std::string& name);
  /** Forget @p bin's functions and argument lists (aclrtBinaryUnLoad). */
  void drop_binary(const KernelBinary* bin);
  /** Forget every handle (aclFinalize). */
  void clear();

 private:
  std::mutex mu_;
  std::map<std::pair<const KernelBinary*, std::string>, KernelFunction*> by_name_;
};

}  // namespace acl_sim
