/**
 * @file acl_rt_kernel.h
 * Kernel binaries and launches: CANN's runtime binary-load flow
 * (aclrtBinaryLoadFromFile -> aclrtBinaryGetFunction -> aclrtKernelArgs* ->
 * aclrtLaunchKernelWithConfig -> aclrtBinaryUnLoad), with CANN's type names
 * and signatures. Included at the end of acl_rt.h.
 *
 * In acl_sim a kernel binary is a host shared object compiled with g++ from
 * Ascend C-style source (kernel_operator.h), not an NPU fatbin; see
 * docs/kernel_programming.md. Each kernel parameter travels in one 8-byte
 * slot (pointers and integers).
 */
#ifndef ACL_SIM_ACL_RT_KERNEL_H_
#define ACL_SIM_ACL_RT_KERNEL_H_

#include "acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef void *aclrtBinary;
typedef void *aclrtBinHandle;
typedef void *aclrtFuncHandle;
typedef void *aclrtArgsHandle;
typedef void *aclrtParamHandle;

#define ACL_RT_BINARY_MAGIC_ELF_AICORE 0x43554245U
#define ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE 0x41415246U
#define ACL_RT_BINARY_MAGIC_ELF_CUBE_CORE 0x41494343U

typedef enum aclrtBinaryLoadOptionType {
  ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD = 1,
  ACL_RT_BINARY_LOAD_OPT_LAZY_MAGIC = 2,
  ACL_RT_BINARY_LOAD_OPT_MAGIC = 2,
  ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE = 3,
} aclrtBinaryLoadOptionType;

typedef union aclrtBinaryLoadOptionValue {
  uint32_t isLazyLoad;
  uint32_t magic;
  int32_t cpuKernelMode;
  uint32_t rsv[4];
} aclrtBinaryLoadOptionValue;

typedef struct {
  aclrtBinaryLoadOptionType type;
  aclrtBinaryLoadOptionValue value;
} aclrtBinaryLoadOption;

typedef struct aclrtBinaryLoadOptions {
  aclrtBinaryLoadOption *options;
  size_t numOpt;
} aclrtBinaryLoadOptions;

typedef enum { ACL_RT_ENGINE_TYPE_AIC = 0, ACL_RT_ENGINE_TYPE_AIV } aclrtEngineType;

typedef enum aclrtLaunchKernelAttrId {
  ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE = 1,
  ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE = 3,
  ACL_RT_LAUNCH_KERNEL_ATTR_BLOCKDIM_OFFSET,
  ACL_RT_LAUNCH_KERNEL_ATTR_BLOCK_TASK_PREFETCH,
  ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP,
  ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT,
} aclrtLaunchKernelAttrId;

typedef union aclrtLaunchKernelAttrValue {
  uint8_t schemMode;
  uint32_t localMemorySize;
  aclrtEngineType engineType;
  uint32_t blockDimOffset;
  uint8_t isBlockTaskPrefetch;
  uint8_t isDataDump;
  uint16_t timeout;
  uint32_t rsv[4];
} aclrtLaunchKernelAttrValue;

typedef struct aclrtLaunchKernelAttr {
  aclrtLaunchKernelAttrId id;
  aclrtLaunchKernelAttrValue value;
} aclrtLaunchKernelAttr;

typedef struct aclrtLaunchKernelCfg {
  aclrtLaunchKernelAttr *attrs;
  size_t numAttrs;
} aclrtLaunchKernelCfg;

/** Load a kernel binary (here: a host .so). @p options may be NULL; LAZY_LOAD and MAGIC are accepted and ignored. */
ACL_FUNC_VISIBILITY aclError aclrtBinaryLoadFromFile(const char *binPath, aclrtBinaryLoadOptions *options,
                                                     aclrtBinHandle *binHandle);

/** Unload: later use of the handle, its functions and argument lists fails; queued launches still complete. */
ACL_FUNC_VISIBILITY aclError aclrtBinaryUnLoad(aclrtBinHandle binHandle);

/** Look up an extern "C" kernel by name; ACL_ERROR_RT_KERNEL_LOOKUP (507027) when absent. */
ACL_FUNC_VISIBILITY aclError aclrtBinaryGetFunction(const aclrtBinHandle binHandle, const char *kernelName,
                                                    aclrtFuncHandle *funcHandle);

/** Copy the kernel's name (NUL-terminated, truncated to maxLen-1). */
ACL_FUNC_VISIBILITY aclError aclrtGetFunctionName(aclrtFuncHandle funcHandle, uint32_t maxLen, char *name);

ACL_FUNC_VISIBILITY aclError aclrtKernelArgsInit(aclrtFuncHandle funcHandle, aclrtArgsHandle *argsHandle);

/** Append one parameter of @p paramSize bytes (1..8 in acl_sim) read from @p param. */
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsAppend(aclrtArgsHandle argsHandle, void *param, size_t paramSize,
                                                   aclrtParamHandle *paramHandle);

/** Append a parameter whose host data the runtime copies to device memory at launch; the kernel gets its address. */
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsAppendPlaceHolder(aclrtArgsHandle argsHandle, aclrtParamHandle *paramHandle);

/** The host buffer (@p dataSize bytes) to fill for placeholder @p paramHandle. */
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsGetPlaceHolderBuffer(aclrtArgsHandle argsHandle,
                                                                 aclrtParamHandle paramHandle, size_t dataSize,
                                                                 void **bufferAddr);

/** Replace a parameter's value (placeholders: overwrite the start of the buffer). */
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsParaUpdate(aclrtArgsHandle argsHandle, aclrtParamHandle paramHandle,
                                                       void *param, size_t paramSize);

ACL_FUNC_VISIBILITY aclError aclrtKernelArgsFinalize(aclrtArgsHandle argsHandle);

/**
 * Enqueue the kernel on @p stream (NULL: the current context's default stream) as numBlocks logical
 * blocks. Asynchronous: kernel faults (UB overflow, DataCopy misalignment) are returned by the next
 * aclrtSynchronizeStream as ACL_ERROR_RT_AICORE_EXCEPTION. @p cfg may be NULL; @p reserve must be NULL.
 */
ACL_FUNC_VISIBILITY aclError aclrtLaunchKernelWithConfig(aclrtFuncHandle funcHandle, uint32_t numBlocks,
                                                         aclrtStream stream, aclrtLaunchKernelCfg *cfg,
                                                         aclrtArgsHandle argsHandle, void *reserve);

/** Launch with the arguments already laid out as 8-byte slots in memory at @p argsData (read when the task runs). */
ACL_FUNC_VISIBILITY aclError aclrtLaunchKernel(aclrtFuncHandle funcHandle, uint32_t numBlocks, const void *argsData,
                                               size_t argsSize, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif  // ACL_SIM_ACL_RT_KERNEL_H_
