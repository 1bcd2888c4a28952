#include "executor/kernel_binary.h"

#include <dlfcn.h>
#include <link.h>
#include <sys/stat.h>

#include <cstring>
#include <utility>

#include "common/error.h"
#include "common/error_codes.h"
#include "executor/block_launch.h"
#include "runtime/runtime.h"

namespace acl_sim {

std::shared_ptr<KernelBinary> KernelBinary::open(const std::string& path) {
  struct stat st {};
  ACL_SIM_REQUIRE(::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode), ACL_ERROR_RT_PARAM_INVALID, "kernel binary '",
                  path, "' does not exist or is not a regular file");
  // RTLD_LOCAL: two binaries may define the same kernel names without clashing.
  void* h = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    const char* why = ::dlerror();
    fail(ACL_ERROR_RT_PARAM_INVALID, "cannot load kernel binary '", path, "': ", why ? why : "dlopen failed",
         " (acl_sim loads host shared objects built with g++ -shared -fPIC from kernel_operator.h sources)");
  }
  std::shared_ptr<KernelBinary> bin(new KernelBinary());
  bin->path_ = path;
  bin->module_ = h;
  bin->enter_ = reinterpret_cast<acl_sim_enter_block_fn>(::dlsym(h, "acl_sim_kernel_enter_block"));
  return bin;
}

KernelBinary::~KernelBinary() {
  if (module_) ::dlclose(module_);
}

void* KernelArgs::append(const void* value, size_t size) {
  std::lock_guard<std::mutex> lock(mu_);
  require_open("aclrtKernelArgsAppend");
  ACL_SIM_REQUIRE(value, ACL_ERROR_RT_PARAM_INVALID, "param is NULL");
  ACL_SIM_REQUIRE(size >= 1 && size <= 8, ACL_ERROR_RT_PARAM_INVALID, "paramSize ", size,
                  " is not in [1, 8]: acl_sim passes each kernel parameter in one 8-byte slot; pass larger data "
                  "through a placeholder or the tiling buffer");
  auto p = std::make_unique<Param>();
  p->handle = reinterpret_cast<void*>(next_handle_value());
  std::memcpy(&p->slot, value, size);  // little-endian: narrow values land in the low bytes
  params_.push_back(std::move(p));
  return params_.back()->handle;
}

void* KernelArgs::append_placeholder() {
  std::lock_guard<std::mutex> lock(mu_);
  require_open("aclrtKernelArgsAppendPlaceHolder");
  auto p = std::make_unique<Param>();
  p->handle = reinterpret_cast<void*>(next_handle_value());
  p->placeholder = true;
  params_.push_back(std::move(p));
  return params_.back()->handle;
}

void* KernelArgs::placeholder_buffer(Param* p, size_t size) {
  std::lock_guard<std::mutex> lock(mu_);
  ACL_SIM_REQUIRE(p->placeholder, ACL_ERROR_RT_PARAM_INVALID,
                  "paramHandle was added by aclrtKernelArgsAppend, not aclrtKernelArgsAppendPlaceHolder");
  ACL_SIM_REQUIRE(size > 0, ACL_ERROR_RT_PARAM_INVALID, "dataSize is 0");
  if (!p->data || p->data_size < size) {
    // 64-byte aligned like device memory, so kernels may DataCopy straight from it.
    void* mem = std::aligned_alloc(64, (size + 63) & ~size_t{63});
    if (!mem) throw std::bad_alloc();
    std::memset(mem, 0, (size + 63) & ~size_t{63});
    p->data.reset(static_cast<uint8_t*>(mem), [](uint8_t* q) { std::free(q); });
  }
  p->data_size = size;
  return p->data.get();
}

void KernelArgs::update(Param* p, const void* value, size_t size) {
  std::lock_guard<std::mutex> lock(mu_);
  ACL_SIM_REQUIRE(value, ACL_ERROR_RT_PARAM_INVALID, "param is NULL");
  if (p->placeholder) {
    ACL_SIM_REQUIRE(p->data && size <= p->data_size, ACL_ERROR_RT_PARAM_INVALID, "paramSize ", size,
                    " exceeds the placeholder buffer (", p->data_size, " bytes)");
    std::memcpy(p->data.get(), value, size);
    return;
  }
  ACL_SIM_REQUIRE(size >= 1 && size <= 8, ACL_ERROR_RT_PARAM_INVALID, "paramSize ", size, " is not in [1, 8]");
  p->slot = 0;
  std::memcpy(&p->slot, value, size);
}

void KernelArgs::finalize() {
  std::lock_guard<std::mutex> lock(mu_);
  require_open("aclrtKernelArgsFinalize");
  for (size_t i = 0; i < params_.size(); ++i) {
    ACL_SIM_REQUIRE(!params_[i]->placeholder || params_[i]->data, ACL_ERROR_RT_PARAM_INVALID, "placeholder parameter ",
                    i, " has no buffer: call aclrtKernelArgsGetPlaceHolderBuffer before finalizing");
  }
  finalized_ = true;
}

bool KernelArgs::finalized() const {
  std::lock_guard<std::mutex> lock(mu_);
  return finalized_;
}

KernelArgs::Param* KernelArgs::require_param(void* p) {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto& q : params_) {
    if (q->handle == p) return q.get();
  }
  fail(ACL_ERROR_RT_INVALID_HANDLE, "paramHandle ", p, " does not belong to this argsHandle");
}

void KernelArgs::require_open(const char* what) const {
  ACL_SIM_REQUIRE(!finalized_, ACL_ERROR_RT_PARAM_INVALID, what, " after aclrtKernelArgsFinalize");
  ACL_SIM_REQUIRE(params_.size() < kMaxKernelArgs, ACL_ERROR_RT_PARAM_INVALID, "a kernel takes at most ", kMaxKernelArgs,
                  " parameters");
}

void KernelArgs::build_slots(LaunchSpec& spec) const {
  std::lock_guard<std::mutex> lock(mu_);
  ACL_SIM_REQUIRE(finalized_, ACL_ERROR_RT_PARAM_INVALID, "argsHandle was not finalized (aclrtKernelArgsFinalize)");
  spec.slots.clear();
  for (const auto& p : params_) {
    if (!p->placeholder) {
      spec.slots.push_back(p->slot);
      continue;
    }
    // The runtime copies placeholder data at launch: later host writes must not reach this launch.
    const size_t n = (p->data_size + 63) & ~size_t{63};
    void* mem = std::aligned_alloc(64, n);
    if (!mem) throw std::bad_alloc();
    std::memcpy(mem, p->data.get(), p->data_size);
    spec.owned.emplace_back(mem, [](void* q) { std::free(q); });
    spec.slots.push_back(static_cast<uint64_t>(reinterpret_cast<uintptr_t>(mem)));
  }
}

KernelHandles& KernelHandles::get() {
  static KernelHandles* h = [] {
    auto* k = new KernelHandles();  // never destroyed: handles may be used during exit
    // aclFinalize invalidates every kernel handle; modules close once no queued launch holds them.
    Runtime::get().on_finalize("kernel binaries", [k] { k->clear(); });
    return k;
  }();
  return *h;
}

void KernelHandles::clear() {
  std::lock_guard<std::mutex> lock(mu_);
  by_name_.clear();
  args.clear();
  functions.clear();
  binaries.clear();
}

namespace {

/** True if @p sym lies in the module @p handle itself (dlsym also searches the module's dependencies). */
bool defined_in_module(void* handle, void* sym) {
  struct link_map* lm = nullptr;
  if (::dlinfo(handle, RTLD_DI_LINKMAP, &lm) != 0 || !lm) return true;
  Dl_info info{};
  if (!::dladdr(sym, &info)) return false;
  return info.dli_fbase && reinterpret_cast<uintptr_t>(info.dli_fbase) == static_cast<uintptr_t>(lm->l_addr);
}

}  // namespace

KernelFunction* KernelHandles::function(const std::shared_ptr<KernelBinary>& bin, const std::string& name) {
  std::lock_guard<std::mutex> lock(mu_);
  auto key = std::make_pair(bin.get(), name);
  auto it = by_name_.find(key);
  if (it != by_name_.end() && functions.contains(it->second)) return it->second;
  ::dlerror();
  void* sym = ::dlsym(bin->module(), name.c_str());
  ACL_SIM_REQUIRE(sym && defined_in_module(bin->module(), sym), ACL_ERROR_RT_KERNEL_LOOKUP, "kernel '", name,
                  "' is not defined in '", bin->path(), "' (declare it extern \"C\" __global__ __aicore__)");
  auto fn = std::make_shared<KernelFunction>();
  fn->binary = bin;
  fn->name = name;
  fn->entry = sym;
  KernelFunction* raw = functions.add(fn);
  by_name_[key] = raw;
  return raw;
}

void KernelHandles::drop_binary(const KernelBinary* bin) {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto it = by_name_.begin(); it != by_name_.end();) {
    if (it->first.first == bin) {
      functions.remove(it->second);
      it = by_name_.erase(it);
    } else {
      ++it;
    }
  }
  for (const auto& a : args.snapshot()) {
    if (a->function()->binary.get() == bin) args.remove(args.handle_of(a.get()));
  }
}

}  // namespace acl_sim
