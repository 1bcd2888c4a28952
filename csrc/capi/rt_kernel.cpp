// extern "C" kernel-binary and launch entry points (acl/acl_rt_kernel.h and
// acl_sim/kernel/host_launch.h). Bodies validate, then hand over to
// csrc/executor/ (kernel_binary.h, block_launch.h).
#include <algorithm>
#include <cstring>
#include <string>

#include "acl/acl.h"
#include "acl_sim/kernel/host_launch.h"
#include "capi/api_guard.h"
#include "executor/block_launch.h"
#include "executor/kernel_binary.h"
#include "runtime/runtime.h"
#include "runtime/stream.h"

using acl_sim::fail;
using acl_sim::KernelArgs;
using acl_sim::KernelFunction;
using acl_sim::KernelHandles;
using acl_sim::capi::api_call;

namespace {

std::shared_ptr<KernelFunction> require_function(aclrtFuncHandle h) {
  ACL_SIM_REQUIRE(h, ACL_ERROR_INVALID_PARAM, "funcHandle is NULL");
  auto fn = KernelHandles::get().functions.find(h);
  ACL_SIM_REQUIRE(fn, ACL_ERROR_RT_INVALID_HANDLE, "funcHandle ", h,
                  " is not a live function handle (unknown, or its binary was unloaded)");
  return fn;
}

std::shared_ptr<KernelArgs> require_args(aclrtArgsHandle h) {
  ACL_SIM_REQUIRE(h, ACL_ERROR_INVALID_PARAM, "argsHandle is NULL");
  auto a = KernelHandles::get().args.find(h);
  ACL_SIM_REQUIRE(a, ACL_ERROR_RT_INVALID_HANDLE, "argsHandle ", h,
                  " is not a live argument list (unknown, or its binary was unloaded)");
  return a;
}

void enqueue(acl_sim::LaunchSpec spec, aclrtStream stream) {
  auto s = acl_sim::resolve_stream(stream);
  acl_sim::enqueue_launch(*s, std::move(spec));
}

}  // namespace

extern "C" {

ACL_FUNC_VISIBILITY aclError aclrtBinaryLoadFromFile(const char* binPath, aclrtBinaryLoadOptions* options,
                                                     aclrtBinHandle* binHandle) {
  return api_call("aclrtBinaryLoadFromFile", [&] {
    acl_sim::Runtime::get().require_initialized();
    ACL_SIM_REQUIRE(binPath && *binPath, ACL_ERROR_INVALID_PARAM, "binPath is NULL or empty");
    ACL_SIM_REQUIRE(binHandle, ACL_ERROR_INVALID_PARAM, "binHandle is NULL");
    if (options) {
      ACL_SIM_REQUIRE(options->numOpt == 0 || options->options, ACL_ERROR_INVALID_PARAM, "options->options is NULL with numOpt ",
                      options->numOpt);
      for (size_t i = 0; i < options->numOpt; ++i) {
        const auto t = options->options[i].type;
        ACL_SIM_REQUIRE(t == ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD || t == ACL_RT_BINARY_LOAD_OPT_MAGIC ||
                            t == ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE,
                        ACL_ERROR_RT_PARAM_INVALID, "options[", i, "].type ", static_cast<int>(t), " is not a known option");
      }
    }
    auto bin = acl_sim::KernelBinary::open(binPath);
    *binHandle = KernelHandles::get().binaries.add(std::move(bin));
  });
}

ACL_FUNC_VISIBILITY aclError aclrtBinaryUnLoad(aclrtBinHandle binHandle) {
  return api_call("aclrtBinaryUnLoad", [&] {
    ACL_SIM_REQUIRE(binHandle, ACL_ERROR_INVALID_PARAM, "binHandle is NULL");
    auto bin = KernelHandles::get().binaries.remove(binHandle);
    ACL_SIM_REQUIRE(bin, ACL_ERROR_RT_INVALID_HANDLE, "binHandle ", binHandle, " is not a loaded binary (already unloaded?)");
    KernelHandles::get().drop_binary(bin.get());
  });
}

ACL_FUNC_VISIBILITY aclError aclrtBinaryGetFunction(const aclrtBinHandle binHandle, const char* kernelName,
                                                    aclrtFuncHandle* funcHandle) {
  return api_call("aclrtBinaryGetFunction", [&] {
    ACL_SIM_REQUIRE(binHandle, ACL_ERROR_INVALID_PARAM, "binHandle is NULL");
    ACL_SIM_REQUIRE(kernelName && *kernelName, ACL_ERROR_INVALID_PARAM, "kernelName is NULL or empty");
    ACL_SIM_REQUIRE(funcHandle, ACL_ERROR_INVALID_PARAM, "funcHandle is NULL");
    auto bin = KernelHandles::get().binaries.find(binHandle);
    ACL_SIM_REQUIRE(bin, ACL_ERROR_RT_INVALID_HANDLE, "binHandle ", binHandle, " is not a loaded binary");
    *funcHandle = KernelHandles::get().function(bin, kernelName);
  });
}

ACL_FUNC_VISIBILITY aclError aclrtGetFunctionName(aclrtFuncHandle funcHandle, uint32_t maxLen, char* name) {
  return api_call("aclrtGetFunctionName", [&] {
    ACL_SIM_REQUIRE(name && maxLen > 0, ACL_ERROR_INVALID_PARAM, "name is NULL or maxLen is 0");
    auto fn = require_function(funcHandle);
    const size_t n = std::min<size_t>(fn->name.size(), maxLen - 1);
    std::memcpy(name, fn->name.data(), n);
    name[n] = '\0';
  });
}

ACL_FUNC_VISIBILITY aclError aclrtKernelArgsInit(aclrtFuncHandle funcHandle, aclrtArgsHandle* argsHandle) {
  return api_call("aclrtKernelArgsInit", [&] {
    ACL_SIM_REQUIRE(argsHandle, ACL_ERROR_INVALID_PARAM, "argsHandle is NULL");
    auto fn = require_function(funcHandle);
    *argsHandle = KernelHandles::get().args.add(std::make_shared<KernelArgs>(std::move(fn)));
  });
}

ACL_FUNC_VISIBILITY aclError aclrtKernelArgsAppend(aclrtArgsHandle argsHandle, void* param, size_t paramSize,
                                                   aclrtParamHandle* paramHandle) {
  return api_call("aclrtKernelArgsAppend", [&] {
    ACL_SIM_REQUIRE(param, ACL_ERROR_INVALID_PARAM, "param is NULL");
    ACL_SIM_REQUIRE(paramHandle, ACL_ERROR_INVALID_PARAM, "paramHandle is NULL");
    *paramHandle = require_args(argsHandle)->append(param, paramSize);
  });
}

ACL_FUNC_VISIBILITY aclError aclrtKernelArgsAppendPlaceHolder(aclrtArgsHandle argsHandle, aclrtParamHandle* paramHandle) {
  return api_call("aclrtKernelArgsAppendPlaceHolder", [&] {
    ACL_SIM_REQUIRE(paramHandle, ACL_ERROR_INVALID_PARAM, "paramHandle is NULL");
    *paramHandle = require_args(argsHandle)->append_placeholder();
  });
}

ACL_FUNC_VISIBILITY aclError aclrtKernelArgsGetPlaceHolderBuffer(aclrtArgsHandle argsHandle, aclrtParamHandle paramHandle,
                                                                 size_t dataSize, void** bufferAddr) {
  return api_call("aclrtKernelArgsGetPlaceHolderBuffer", [&] {
    ACL_SIM_REQUIRE(bufferAddr, ACL_ERROR_INVALID_PARAM, "bufferAddr is NULL");
    ACL_SIM_REQUIRE(paramHandle, ACL_ERROR_INVALID_PARAM, "paramHandle is NULL");
    auto args = require_args(argsHandle);
    *bufferAddr = args->placeholder_buffer(args->require_param(paramHandle), dataSize);
  });
}

ACL_FUNC_VISIBILITY aclError aclrtKernelArgsParaUpdate(aclrtArgsHandle argsHandle, aclrtParamHandle paramHandle,
                                                       void* param, size_t paramSize) {
  return api_call("aclrtKernelArgsParaUpdate", [&] {
    ACL_SIM_REQUIRE(paramHandle, ACL_ERROR_INVALID_PARAM, "paramHandle is NULL");
    auto args = require_args(argsHandle);
    args->update(args->require_param(paramHandle), param, paramSize);
  });
}

ACL_FUNC_VISIBILITY aclError aclrtKernelArgsFinalize(aclrtArgsHandle argsHandle) {
  return api_call("aclrtKernelArgsFinalize", [&] { require_args(argsHandle)->finalize(); });
}

ACL_FUNC_VISIBILITY aclError aclrtLaunchKernelWithConfig(aclrtFuncHandle funcHandle, uint32_t numBlocks, aclrtStream stream,
                                                         aclrtLaunchKernelCfg* cfg, aclrtArgsHandle argsHandle,
                                                         void* reserve) {
  return api_call("aclrtLaunchKernelWithConfig", [&] {
    acl_sim::Runtime::get().require_initialized();
    auto fn = require_function(funcHandle);
    auto args = require_args(argsHandle);
    ACL_SIM_REQUIRE(args->function() == fn, ACL_ERROR_RT_PARAM_INVALID, "argsHandle was built for kernel '",
                    args->function()->name, "', not '", fn->name, "'");
    ACL_SIM_REQUIRE(reserve == nullptr, ACL_ERROR_INVALID_PARAM, "reserve must be NULL");
    if (cfg) {
      ACL_SIM_REQUIRE(cfg->numAttrs == 0 || cfg->attrs, ACL_ERROR_INVALID_PARAM, "cfg->attrs is NULL with numAttrs ",
                      cfg->numAttrs);
      // Scheduling attributes have no effect on the host pool; unknown ids are still an error.
      for (size_t i = 0; i < cfg->numAttrs; ++i) {
        const int id = static_cast<int>(cfg->attrs[i].id);
        ACL_SIM_REQUIRE(id == ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE || (id >= ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE &&
                                                                       id <= ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT),
                        ACL_ERROR_RT_PARAM_INVALID, "cfg->attrs[", i, "].id ", id, " is not a launch attribute");
      }
    }
    acl_sim::validate_launch("aclrtLaunchKernelWithConfig", numBlocks, 0);
    acl_sim::LaunchSpec spec;
    spec.name = fn->name;
    spec.entry = fn->entry;
    spec.enter = fn->binary->enter_hook();
    spec.block_dim = numBlocks;
    spec.keep_alive = fn->binary;
    args->build_slots(spec);
    enqueue(std::move(spec), stream);
  });
}

ACL_FUNC_VISIBILITY aclError aclrtLaunchKernel(aclrtFuncHandle funcHandle, uint32_t numBlocks, const void* argsData,
                                               size_t argsSize, aclrtStream stream) {
  return api_call("aclrtLaunchKernel", [&] {
    acl_sim::Runtime::get().require_initialized();
    auto fn = require_function(funcHandle);
    ACL_SIM_REQUIRE(argsSize % 8 == 0, ACL_ERROR_RT_PARAM_INVALID, "argsSize ", argsSize,
                    " is not a multiple of 8 (one 8-byte slot per kernel parameter)");
    ACL_SIM_REQUIRE(argsData || argsSize == 0, ACL_ERROR_INVALID_PARAM, "argsData is NULL");
    acl_sim::validate_launch("aclrtLaunchKernel", numBlocks, argsSize / 8);
    auto s = acl_sim::resolve_stream(stream);
    const acl_sim::SocProfile* soc = &s->device().profile();
    // The slots live in (device) memory written by earlier stream tasks: read them when the task runs.
    const uint64_t* slots = static_cast<const uint64_t*>(argsData);
    const size_t n = argsSize / 8;
    auto spec = std::make_shared<acl_sim::LaunchSpec>();
    spec->name = fn->name;
    spec->entry = fn->entry;
    spec->enter = fn->binary->enter_hook();
    spec->block_dim = numBlocks;
    spec->keep_alive = fn->binary;
    s->enqueue("kernel_launch", [spec, slots, n, soc] {
      spec->slots.assign(slots, slots + n);
      acl_sim::run_blocks(*spec, *soc);
    });
  });
}

ACL_FUNC_VISIBILITY aclError aclsimLaunchKernelDirect(const char* name, void* entry, acl_sim_enter_block_fn enter,
                                                      uint32_t blockDim, aclrtStream stream, const uint64_t* args,
                                                      size_t numArgs) {
  return api_call("aclsimLaunchKernelDirect", [&] {
    acl_sim::Runtime::get().require_initialized();
    ACL_SIM_REQUIRE(entry, ACL_ERROR_INVALID_PARAM, "kernel entry is NULL");
    ACL_SIM_REQUIRE(args || numArgs == 0, ACL_ERROR_INVALID_PARAM, "args is NULL");
    acl_sim::validate_launch("ACLRT_LAUNCH_KERNEL", blockDim, numArgs);
    acl_sim::LaunchSpec spec;
    spec.name = name ? name : "kernel";
    spec.entry = entry;
    spec.enter = enter;
    spec.block_dim = blockDim;
    spec.slots.assign(args, args + numArgs);
    enqueue(std::move(spec), stream);
  });
}

ACL_FUNC_VISIBILITY aclError aclsimLaunchFunction(void* funcHandle, uint32_t blockDim, aclrtStream stream,
                                                  const uint64_t* args, size_t numArgs) {
  return api_call("aclsimLaunchFunction", [&] {
    acl_sim::Runtime::get().require_initialized();
    auto fn = require_function(funcHandle);
    ACL_SIM_REQUIRE(args || numArgs == 0, ACL_ERROR_INVALID_PARAM, "args is NULL");
    acl_sim::validate_launch("launch", blockDim, numArgs);
    acl_sim::LaunchSpec spec;
    spec.name = fn->name;
    spec.entry = fn->entry;
    spec.enter = fn->binary->enter_hook();
    spec.block_dim = blockDim;
    spec.keep_alive = fn->binary;
    spec.slots.assign(args, args + numArgs);
    enqueue(std::move(spec), stream);
  });
}

}  // extern "C"
