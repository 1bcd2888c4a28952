/**
 * @file aclnn_base.h
 * The aclnn descriptor API (CANN's libnnopbase): tensor, scalar and array descriptors, the
 * operator executor, and the ACLNN_* status codes. acl_sim's own declarations, written from the
 * public hicann/opbase documentation; in acl_sim every symbol lives in libascendcl.so (the
 * toolkit folder's libnnopbase.so / libopapi.so are links to it).
 *
 * Every aclnn operator runs in two phases:
 *   aclnnXxxGetWorkspaceSize(<operands>..., uint64_t* workspaceSize, aclOpExecutor** executor)
 *     validates the operands and captures everything the operator needs into *executor; the
 *     descriptors may be destroyed right after it returns.
 *   aclnnXxx(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream)
 *     enqueues the work on the stream (asynchronous, stream-ordered) and consumes the executor
 *     (unless aclSetAclOpExecutorRepeatable was called on it).
 */
#ifndef ACL_SIM_ACLNN_ACLNN_BASE_H_
#define ACL_SIM_ACLNN_ACLNN_BASE_H_

#include <stdint.h>
#include <stdlib.h>
#ifndef __cplusplus
#include <stdbool.h>
#endif

#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ACLNN_API ACL_FUNC_VISIBILITY

#ifndef ACLNN_META
#define ACLNN_META
typedef struct aclOpExecutor aclOpExecutor;
typedef struct aclTensor aclTensor;
typedef struct aclScalar aclScalar;
typedef struct aclIntArray aclIntArray;
typedef struct aclFloatArray aclFloatArray;
typedef struct aclBoolArray aclBoolArray;
typedef struct aclTensorList aclTensorList;
typedef struct aclScalarList aclScalarList;
typedef int32_t aclnnStatus;
#endif

/* Status codes (values from CANN's "aclnn return codes" table). */
#define ACLNN_SUCCESS 0
#define ACLNN_ERR_PARAM_NULLPTR 161001             /* a required pointer argument is NULL */
#define ACLNN_ERR_PARAM_INVALID 161002             /* an argument is invalid: dtype, shape, handle, value */
#define ACLNN_ERR_RUNTIME_ERROR 361001             /* a runtime call failed (stream, memory) */
#define ACLNN_ERR_INNER 561000                     /* internal error */
#define ACLNN_ERR_INNER_INFERSHAPE_ERROR 561001
#define ACLNN_ERR_INNER_TILING_ERROR 561002
#define ACLNN_ERR_INNER_FIND_KERNEL_ERROR 561003   /* no kernel for the operator: acl_sim does not implement it */
#define ACLNN_ERR_INNER_CREATE_EXECUTOR 561101
#define ACLNN_ERR_INNER_NOT_TRANS_EXECUTOR 561102
#define ACLNN_ERR_INNER_NULLPTR 561103

/**
 * A tensor descriptor: a strided view (viewDims, stride in elements, offset in elements from
 * tensorData) over a storage of storageDims elements that starts at tensorData. The arrays are
 * copied. Returns NULL (message in aclGetRecentErrMsg) for invalid arguments.
 */
ACLNN_API aclTensor* aclCreateTensor(const int64_t* viewDims, uint64_t viewDimsNum, aclDataType dataType,
                                     const int64_t* stride, int64_t offset, aclFormat format,
                                     const int64_t* storageDims, uint64_t storageDimsNum, void* tensorData);
/** A scalar of dataType read (copied) from *value. */
ACLNN_API aclScalar* aclCreateScalar(void* value, aclDataType dataType);
/** Arrays copy their size values; size 0 gives an empty array (value may then be NULL). */
ACLNN_API aclIntArray* aclCreateIntArray(const int64_t* value, uint64_t size);
ACLNN_API aclFloatArray* aclCreateFloatArray(const float* value, uint64_t size);
ACLNN_API aclBoolArray* aclCreateBoolArray(const bool* value, uint64_t size);
/** A list takes ownership of its tensors: aclDestroyTensorList destroys them too. */
ACLNN_API aclTensorList* aclCreateTensorList(const aclTensor* const* value, uint64_t size);
/** A list takes ownership of its scalars: aclDestroyScalarList destroys them too. */
ACLNN_API aclScalarList* aclCreateScalarList(const aclScalar* const* value, uint64_t size);

ACLNN_API aclnnStatus aclDestroyTensor(const aclTensor* tensor);
ACLNN_API aclnnStatus aclDestroyScalar(const aclScalar* scalar);
ACLNN_API aclnnStatus aclDestroyIntArray(const aclIntArray* array);
ACLNN_API aclnnStatus aclDestroyFloatArray(const aclFloatArray* array);
ACLNN_API aclnnStatus aclDestroyBoolArray(const aclBoolArray* array);
ACLNN_API aclnnStatus aclDestroyTensorList(const aclTensorList* array);
ACLNN_API aclnnStatus aclDestroyScalarList(const aclScalarList* array);

/** Queries. The returned dims/strides arrays are allocated with malloc: the caller frees them. */
ACLNN_API aclnnStatus aclGetViewShape(const aclTensor* tensor, int64_t** viewDims, uint64_t* viewDimsNum);
ACLNN_API aclnnStatus aclGetStorageShape(const aclTensor* tensor, int64_t** storageDims, uint64_t* storageDimsNum);
ACLNN_API aclnnStatus aclGetViewStrides(const aclTensor* tensor, int64_t** stridesValue, uint64_t* stridesNum);
ACLNN_API aclnnStatus aclGetViewOffset(const aclTensor* tensor, int64_t* offset);
ACLNN_API aclnnStatus aclGetFormat(const aclTensor* tensor, aclFormat* format);
ACLNN_API aclnnStatus aclGetDataType(const aclTensor* tensor, aclDataType* dataType);
ACLNN_API aclnnStatus aclGetIntArraySize(const aclIntArray* array, uint64_t* size);
ACLNN_API aclnnStatus aclGetFloatArraySize(const aclFloatArray* array, uint64_t* size);
ACLNN_API aclnnStatus aclGetBoolArraySize(const aclBoolArray* array, uint64_t* size);
ACLNN_API aclnnStatus aclGetTensorListSize(const aclTensorList* tensorList, uint64_t* size);
ACLNN_API aclnnStatus aclGetScalarListSize(const aclScalarList* scalarList, uint64_t* size);
/** The storage start address of a tensor, and replacing it (for reusing a descriptor). */
ACLNN_API aclnnStatus aclGetRawTensorAddr(const aclTensor* tensor, void** addr);
ACLNN_API aclnnStatus aclSetRawTensorAddr(aclTensor* tensor, void* addr);

/** Keep an executor after its execute call, so it can be executed again; release it with aclDestroyAclOpExecutor. */
ACLNN_API aclnnStatus aclSetAclOpExecutorRepeatable(aclOpExecutor* executor);
/** Release an executor that was not (or, if repeatable, no longer) needed. */
ACLNN_API aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor* executor);

/** Optional library init/finalize (acl_sim needs neither; configPath may be NULL). */
ACLNN_API aclnnStatus aclnnInit(const char* configPath);
ACLNN_API aclnnStatus aclnnFinalize(void);

#ifdef __cplusplus
}
#endif

#endif  // ACL_SIM_ACLNN_ACLNN_BASE_H_
