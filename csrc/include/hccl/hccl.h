/**
 * @file hccl.h
 * HCCL communicators and collective operations (CANN names and signatures).
 *
 * Collectives are asynchronous in the order of @p stream: they return once the
 * operation is queued; synchronise the stream before reading the results.
 * Every rank of a communicator must call the same collectives in the same
 * order with matching counts and data types.
 */
#ifndef HCCL_H_
#define HCCL_H_

#include <stdint.h>

#include "acl/acl_base.h"
#include "hccl/hccl_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Initialise rank @p rank of a communicator described by a rank-table JSON file. */
ACL_FUNC_VISIBILITY HcclResult HcclCommInitClusterInfo(const char *clusterInfo, uint32_t rank, HcclComm *comm);
/** Produce the root info (on the root rank) that every rank passes to HcclCommInitRootInfo. */
ACL_FUNC_VISIBILITY HcclResult HcclGetRootInfo(HcclRootInfo *rootInfo);
/** Initialise rank @p rank of an @p nRanks communicator; blocks until every rank joined (HCCL_CONNECT_TIMEOUT). */
ACL_FUNC_VISIBILITY HcclResult HcclCommInitRootInfo(uint32_t nRanks, const HcclRootInfo *rootInfo, uint32_t rank,
                                                    HcclComm *comm);
/** One process, one thread per device: create @p ndev communicators, rank i on devices[i] (devices[0] is root). */
ACL_FUNC_VISIBILITY HcclResult HcclCommInitAll(uint32_t ndev, int32_t *devices, HcclComm *comms);
/** Number of ranks of @p comm. */
ACL_FUNC_VISIBILITY HcclResult HcclGetRankSize(HcclComm comm, uint32_t *rankSize);
/** Rank of the caller in @p comm. */
ACL_FUNC_VISIBILITY HcclResult HcclGetRankId(HcclComm comm, uint32_t *rank);
/** The error an asynchronous collective of @p comm hit (HCCL_SUCCESS if none). */
ACL_FUNC_VISIBILITY HcclResult HcclGetCommAsyncError(HcclComm comm, HcclResult *asyncError);
/** A readable name for @p code. */
ACL_FUNC_VISIBILITY const char *HcclGetErrorString(HcclResult code);

ACL_FUNC_VISIBILITY HcclResult HcclAllReduce(void *sendBuf, void *recvBuf, uint64_t count, HcclDataType dataType,
                                             HcclReduceOp op, HcclComm comm, aclrtStream stream);
ACL_FUNC_VISIBILITY HcclResult HcclBroadcast(void *buf, uint64_t count, HcclDataType dataType, uint32_t root,
                                             HcclComm comm, aclrtStream stream);
ACL_FUNC_VISIBILITY HcclResult HcclReduceScatter(void *sendBuf, void *recvBuf, uint64_t recvCount,
                                                 HcclDataType dataType, HcclReduceOp op, HcclComm comm,
                                                 aclrtStream stream);
ACL_FUNC_VISIBILITY HcclResult HcclScatter(void *sendBuf, void *recvBuf, uint64_t recvCount, HcclDataType dataType,
                                           uint32_t root, HcclComm comm, aclrtStream stream);
ACL_FUNC_VISIBILITY HcclResult HcclAllGather(void *sendBuf, void *recvBuf, uint64_t sendCount, HcclDataType dataType,
                                             HcclComm comm, aclrtStream stream);
ACL_FUNC_VISIBILITY HcclResult HcclReduce(void *sendBuf, void *recvBuf, uint64_t count, HcclDataType dataType,
                                          HcclReduceOp op, uint32_t root, HcclComm comm, aclrtStream stream);
ACL_FUNC_VISIBILITY HcclResult HcclAlltoAll(const void *sendBuf, uint64_t sendCount, HcclDataType sendType,
                                            const void *recvBuf, uint64_t recvCount, HcclDataType recvType,
                                            HcclComm comm, aclrtStream stream);
/** Counts and displacements are arrays of rankSize uint64_t, in elements. */
ACL_FUNC_VISIBILITY HcclResult HcclAlltoAllV(const void *sendBuf, const void *sendCounts, const void *sdispls,
                                             HcclDataType sendType, const void *recvBuf, const void *recvCounts,
                                             const void *rdispls, HcclDataType recvType, HcclComm comm,
                                             aclrtStream stream);
ACL_FUNC_VISIBILITY HcclResult HcclSend(void *sendBuf, uint64_t count, HcclDataType dataType, uint32_t destRank,
                                        HcclComm comm, aclrtStream stream);
ACL_FUNC_VISIBILITY HcclResult HcclRecv(void *recvBuf, uint64_t count, HcclDataType dataType, uint32_t srcRank,
                                        HcclComm comm, aclrtStream stream);
ACL_FUNC_VISIBILITY HcclResult HcclBarrier(HcclComm comm, aclrtStream stream);
/** Destroy @p comm; queued collectives keep it alive until they ran. */
ACL_FUNC_VISIBILITY HcclResult HcclCommDestroy(HcclComm comm);

#ifdef __cplusplus
}
#endif
#endif  // HCCL_H_
