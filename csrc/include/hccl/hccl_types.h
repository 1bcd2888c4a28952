/**
 * @file hccl_types.h
 * HCCL (Huawei Collective Communication Library) types, with CANN's names and values.
 */
#ifndef HCCL_TYPES_H_
#define HCCL_TYPES_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** HCCL function return values. */
typedef enum {
  HCCL_SUCCESS = 0,              /**< success */
  HCCL_E_PARA = 1,               /**< parameter error */
  HCCL_E_PTR = 2,                /**< empty pointer */
  HCCL_E_MEMORY = 3,             /**< memory error */
  HCCL_E_INTERNAL = 4,           /**< internal error */
  HCCL_E_NOT_SUPPORT = 5,        /**< not support feature */
  HCCL_E_NOT_FOUND = 6,          /**< not found specific resource */
  HCCL_E_UNAVAIL = 7,            /**< resource unavailable */
  HCCL_E_SYSCALL = 8,            /**< call system interface error */
  HCCL_E_TIMEOUT = 9,            /**< timeout */
  HCCL_E_OPEN_FILE_FAILURE = 10, /**< open file fail */
  HCCL_E_TCP_CONNECT = 11,       /**< tcp connect fail */
  HCCL_E_ROCE_CONNECT = 12,      /**< roce connect fail */
  HCCL_E_TCP_TRANSFER = 13,      /**< tcp transfer fail */
  HCCL_E_ROCE_TRANSFER = 14,     /**< roce transfer fail */
  HCCL_E_RUNTIME = 15,           /**< call runtime api fail */
  HCCL_E_DRV = 16,               /**< call driver api fail */
  HCCL_E_PROFILING = 17,         /**< call profiling api fail */
  HCCL_E_CCE = 18,               /**< call cce api fail */
  HCCL_E_NETWORK = 19,           /**< call network api fail */
  HCCL_E_AGAIN = 20,             /**< try again */
  HCCL_E_REMOTE = 21,            /**< error cqe */
  HCCL_E_SUSPENDING = 22,        /**< error communicator suspending */
  HCCL_E_OPRETRY_FAIL = 23,      /**< retry constraint */
  HCCL_E_OOM = 24,               /**< out of memory */
  HCCL_E_RESERVED                /**< reserved */
} HcclResult;

/** Handle of a communicator. */
typedef void *HcclComm;

/** Reduction of collective operations. */
typedef enum {
  HCCL_REDUCE_SUM = 0,  /**< sum */
  HCCL_REDUCE_PROD = 1, /**< prod */
  HCCL_REDUCE_MAX = 2,  /**< max */
  HCCL_REDUCE_MIN = 3,  /**< min */
  HCCL_REDUCE_RESERVED  /**< reserved */
} HcclReduceOp;

/** Data types of collective operations. */
typedef enum {
  HCCL_DATA_TYPE_INT8 = 0,     /**< int8 */
  HCCL_DATA_TYPE_INT16 = 1,    /**< int16 */
  HCCL_DATA_TYPE_INT32 = 2,    /**< int32 */
  HCCL_DATA_TYPE_FP16 = 3,     /**< fp16 */
  HCCL_DATA_TYPE_FP32 = 4,     /**< fp32 */
  HCCL_DATA_TYPE_INT64 = 5,    /**< int64 */
  HCCL_DATA_TYPE_UINT64 = 6,   /**< uint64 */
  HCCL_DATA_TYPE_UINT8 = 7,    /**< uint8 */
  HCCL_DATA_TYPE_UINT16 = 8,   /**< uint16 */
  HCCL_DATA_TYPE_UINT32 = 9,   /**< uint32 */
  HCCL_DATA_TYPE_FP64 = 10,    /**< fp64 */
  HCCL_DATA_TYPE_BFP16 = 11,   /**< bfp16 */
  HCCL_DATA_TYPE_INT128 = 12,  /**< int128 */
  HCCL_DATA_TYPE_HIF8 = 14,    /**< hif8 */
  HCCL_DATA_TYPE_FP8E4M3 = 15, /**< fp8 e4m3 */
  HCCL_DATA_TYPE_FP8E5M2 = 16, /**< fp8 e5m2 */
  HCCL_DATA_TYPE_FP8E8M0 = 17, /**< fp8 e8m0 */
  HCCL_DATA_TYPE_RESERVED      /**< reserved */
} HcclDataType;

/** Size of HcclRootInfo, the blob rank 0 hands to every other rank out of band. */
#define HCCL_ROOT_INFO_BYTES 4108

/** Root info: opaque to the caller; produced by HcclGetRootInfo, consumed by HcclCommInitRootInfo. */
typedef struct HcclRootInfoDef {
  char internal[HCCL_ROOT_INFO_BYTES];
} HcclRootInfo;

#ifdef __cplusplus
}
#endif
#endif  // HCCL_TYPES_H_
