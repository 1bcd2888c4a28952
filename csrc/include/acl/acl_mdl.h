/**
 * @file acl_mdl.h
 * AscendCL offline-model API (aclmdl*): load an .om model produced by
 * `acl-sim atc`, describe its inputs and outputs, and execute it on a stream.
 * Names, types, limits and signatures follow CANN's acl_mdl.h so programs
 * written for CANN compile unchanged. Semantics and error codes: docs/aclmdl.md.
 */
#ifndef ACL_SIM_ACL_MDL_H_
#define ACL_SIM_ACL_MDL_H_

#include <stddef.h>
#include <stdint.h>

#include "acl_base.h"
#include "acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ACL_DIM_ENDPOINTS 2
#define ACL_MAX_DIM_CNT 128
#define ACL_MAX_TENSOR_NAME_LEN 128
#define ACL_MAX_BATCH_NUM 128
#define ACL_MAX_HW_NUM 128
#define ACL_MAX_SHAPE_COUNT 128
#define ACL_INVALID_NODE_INDEX 0xFFFFFFFF

#define ACL_MDL_LOAD_FROM_FILE 1
#define ACL_MDL_LOAD_FROM_FILE_WITH_MEM 2
#define ACL_MDL_LOAD_FROM_MEM 3
#define ACL_MDL_LOAD_FROM_MEM_WITH_MEM 4

/** Name of the extra input ATC adds to models compiled with dynamic batch / image size / dims. */
#define ACL_DYNAMIC_TENSOR_NAME "ascend_mbatch_shape_data"
#define ACL_DYNAMIC_AIPP_NAME "ascend_dynamic_aipp_data"

typedef struct aclmdlDataset aclmdlDataset;
typedef struct aclmdlDesc aclmdlDesc;

typedef struct aclmdlIODims {
  char name[ACL_MAX_TENSOR_NAME_LEN]; /**< tensor name */
  size_t dimCount;                    /**< number of valid entries in dims */
  int64_t dims[ACL_MAX_DIM_CNT];      /**< dims; -1 marks a dynamic position */
} aclmdlIODims;

typedef struct aclmdlBatch {
  size_t batchCount;                  /**< number of compiled batch sizes */
  uint64_t batch[ACL_MAX_BATCH_NUM];  /**< the batch sizes */
} aclmdlBatch;

typedef struct aclmdlHW {
  size_t hwCount;                     /**< number of compiled (h, w) pairs */
  uint64_t hw[ACL_MAX_HW_NUM][2];     /**< the (h, w) pairs */
} aclmdlHW;

/* ---- descriptions ---------------------------------------------------- */

/** A new, empty model description; NULL on allocation failure. Fill it with aclmdlGetDesc. */
ACL_FUNC_VISIBILITY aclmdlDesc *aclmdlCreateDesc(void);
ACL_FUNC_VISIBILITY aclError aclmdlDestroyDesc(aclmdlDesc *modelDesc);
/** Copy the description of loaded model @p modelId into @p modelDesc (a snapshot; stays valid after unload). */
ACL_FUNC_VISIBILITY aclError aclmdlGetDesc(aclmdlDesc *modelDesc, uint32_t modelId);
/** Describe an .om file without loading it. */
ACL_FUNC_VISIBILITY aclError aclmdlGetDescFromFile(aclmdlDesc *modelDesc, const char *modelPath);
ACL_FUNC_VISIBILITY aclError aclmdlGetDescFromMem(aclmdlDesc *modelDesc, const void *model, size_t modelSize);

/** Number of inputs, including ascend_mbatch_shape_data for dynamic models; 0 on a bad desc. */
ACL_FUNC_VISIBILITY size_t aclmdlGetNumInputs(aclmdlDesc *modelDesc);
ACL_FUNC_VISIBILITY size_t aclmdlGetNumOutputs(aclmdlDesc *modelDesc);
/** Byte size of input @p index (the largest profile for dynamic models); 0 on error. */
ACL_FUNC_VISIBILITY size_t aclmdlGetInputSizeByIndex(aclmdlDesc *modelDesc, size_t index);
ACL_FUNC_VISIBILITY size_t aclmdlGetOutputSizeByIndex(aclmdlDesc *modelDesc, size_t index);

/** Dims of input @p index, with -1 in dynamic positions. */
ACL_FUNC_VISIBILITY aclError aclmdlGetInputDims(const aclmdlDesc *modelDesc, size_t index, aclmdlIODims *dims);
/** As aclmdlGetInputDims (they differ only for static AIPP, which acl_sim does not compile). */
ACL_FUNC_VISIBILITY aclError aclmdlGetInputDimsV2(const aclmdlDesc *modelDesc, size_t index, aclmdlIODims *dims);
/** Dims of output @p index for the largest profile. */
ACL_FUNC_VISIBILITY aclError aclmdlGetOutputDims(const aclmdlDesc *modelDesc, size_t index, aclmdlIODims *dims);
/**
 * Dims of output @p index for the profile chosen by the last dynamic setter on this model
 * (the largest profile if none was set; the real dims for static models).
 */
ACL_FUNC_VISIBILITY aclError aclmdlGetCurOutputDims(const aclmdlDesc *modelDesc, size_t index, aclmdlIODims *dims);

/** Tensor name; lives as long as @p modelDesc. NULL on error. */
ACL_FUNC_VISIBILITY const char *aclmdlGetInputNameByIndex(const aclmdlDesc *modelDesc, size_t index);
ACL_FUNC_VISIBILITY const char *aclmdlGetOutputNameByIndex(const aclmdlDesc *modelDesc, size_t index);
/** ACL_FORMAT_UNDEFINED on error. */
ACL_FUNC_VISIBILITY aclFormat aclmdlGetInputFormat(const aclmdlDesc *modelDesc, size_t index);
ACL_FUNC_VISIBILITY aclFormat aclmdlGetOutputFormat(const aclmdlDesc *modelDesc, size_t index);
/** ACL_DT_UNDEFINED on error. */
ACL_FUNC_VISIBILITY aclDataType aclmdlGetInputDataType(const aclmdlDesc *modelDesc, size_t index);
ACL_FUNC_VISIBILITY aclDataType aclmdlGetOutputDataType(const aclmdlDesc *modelDesc, size_t index);
ACL_FUNC_VISIBILITY aclError aclmdlGetInputIndexByName(const aclmdlDesc *modelDesc, const char *name, size_t *index);
ACL_FUNC_VISIBILITY aclError aclmdlGetOutputIndexByName(const aclmdlDesc *modelDesc, const char *name, size_t *index);

/** Compiled batch sizes; batchCount 0 for a model without dynamic batch. */
ACL_FUNC_VISIBILITY aclError aclmdlGetDynamicBatch(const aclmdlDesc *modelDesc, aclmdlBatch *batch);
/** Compiled (h, w) pairs; hwCount 0 for a model without dynamic image size. @p index is -1 or an input. */
ACL_FUNC_VISIBILITY aclError aclmdlGetDynamicHW(const aclmdlDesc *modelDesc, size_t index, aclmdlHW *hw);
/** Number of dynamic-dims profiles (0 if none). @p index must be (size_t)-1. */
ACL_FUNC_VISIBILITY aclError aclmdlGetInputDynamicGearCount(const aclmdlDesc *modelDesc, size_t index,
                                                            size_t *gearCount);
/**
 * Fill @p dims[0..gearCount) with the dynamic-dims profiles: each entry holds the values of every
 * -1 of every input, in input order. @p gearCount must equal aclmdlGetInputDynamicGearCount.
 */
ACL_FUNC_VISIBILITY aclError aclmdlGetInputDynamicDims(const aclmdlDesc *modelDesc, size_t index, aclmdlIODims *dims,
                                                       size_t gearCount);

/* ---- datasets -------------------------------------------------------- */

ACL_FUNC_VISIBILITY aclmdlDataset *aclmdlCreateDataset(void);
/** Destroys the dataset only; its data buffers stay alive and are the caller's to destroy. */
ACL_FUNC_VISIBILITY aclError aclmdlDestroyDataset(const aclmdlDataset *dataset);
ACL_FUNC_VISIBILITY aclError aclmdlAddDatasetBuffer(aclmdlDataset *dataset, aclDataBuffer *dataBuffer);
/** Attach a tensor description (real shape of a dynamic input) to buffer @p index. */
ACL_FUNC_VISIBILITY aclError aclmdlSetDatasetTensorDesc(aclmdlDataset *dataset, aclTensorDesc *tensorDesc,
                                                        size_t index);
ACL_FUNC_VISIBILITY aclTensorDesc *aclmdlGetDatasetTensorDesc(const aclmdlDataset *dataset, size_t index);
ACL_FUNC_VISIBILITY size_t aclmdlGetDatasetNumBuffers(const aclmdlDataset *dataset);
/** NULL if @p index is out of range. */
ACL_FUNC_VISIBILITY aclDataBuffer *aclmdlGetDatasetBuffer(const aclmdlDataset *dataset, size_t index);

/* ---- loading --------------------------------------------------------- */

/** Load on the current context's device; work and weight memory come from the device pool. */
ACL_FUNC_VISIBILITY aclError aclmdlLoadFromFile(const char *modelPath, uint32_t *modelId);
ACL_FUNC_VISIBILITY aclError aclmdlLoadFromMem(const void *model, size_t modelSize, uint32_t *modelId);
/**
 * Load using caller-provided device memory: @p workPtr/@p workSize for the workspace and
 * @p weightPtr/@p weightSize for the weights (either may be NULL/0 to let acl_sim allocate).
 * Sizes must be at least those reported by aclmdlQuerySize. The memory must outlive the model.
 */
ACL_FUNC_VISIBILITY aclError aclmdlLoadFromFileWithMem(const char *modelPath, uint32_t *modelId, void *workPtr,
                                                       size_t workSize, void *weightPtr, size_t weightSize);
ACL_FUNC_VISIBILITY aclError aclmdlLoadFromMemWithMem(const void *model, size_t modelSize, uint32_t *modelId,
                                                      void *workPtr, size_t workSize, void *weightPtr,
                                                      size_t weightSize);
/** Work (largest profile) and weight byte sizes the model needs. */
ACL_FUNC_VISIBILITY aclError aclmdlQuerySize(const char *fileName, size_t *workSize, size_t *weightSize);
ACL_FUNC_VISIBILITY aclError aclmdlQuerySizeFromMem(const void *model, size_t modelSize, size_t *workSize,
                                                    size_t *weightSize);
/** Waits for the model's queued executions, then frees what acl_sim allocated for it. */
ACL_FUNC_VISIBILITY aclError aclmdlUnload(uint32_t modelId);

/* ---- execution ------------------------------------------------------- */

/** Run the model synchronously on the current context's default stream. */
ACL_FUNC_VISIBILITY aclError aclmdlExecute(uint32_t modelId, const aclmdlDataset *input, aclmdlDataset *output);
/**
 * Validate, then enqueue the run on @p stream and return at once. The datasets and the memory
 * they name must stay valid until the stream is synchronised.
 */
ACL_FUNC_VISIBILITY aclError aclmdlExecuteAsync(uint32_t modelId, const aclmdlDataset *input, aclmdlDataset *output,
                                                aclrtStream stream);

/* ---- dynamic shapes -------------------------------------------------- */

/**
 * Choose batch size @p batchSize for the next executions with @p dataset: writes the profile into
 * the ascend_mbatch_shape_data buffer at @p index. The size must be one of the compiled ones.
 */
ACL_FUNC_VISIBILITY aclError aclmdlSetDynamicBatchSize(uint32_t modelId, aclmdlDataset *dataset, size_t index,
                                                       uint64_t batchSize);
ACL_FUNC_VISIBILITY aclError aclmdlSetDynamicHWSize(uint32_t modelId, aclmdlDataset *dataset, size_t index,
                                                    uint64_t height, uint64_t width);
/** @p dims holds the full dims of every input concatenated, or only the dynamic values (see docs). */
ACL_FUNC_VISIBILITY aclError aclmdlSetInputDynamicDims(uint32_t modelId, aclmdlDataset *dataset, size_t index,
                                                       const aclmdlIODims *dims);

#ifdef __cplusplus
}
#endif

#endif  // ACL_SIM_ACL_MDL_H_
