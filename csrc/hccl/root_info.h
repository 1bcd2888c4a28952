// The HcclRootInfo blob (4108 bytes, opaque to callers): what the ranks of a
// communicator need to find each other. For in-process ranks it names a key
// in the process-wide rendezvous store; for MPI ranks it carries the same key,
// matched by every process of MPI_COMM_WORLD (see transport_mpi.h).
#pragma once

#include <cstdint>
#include <string>

#include "hccl/hccl_types.h"

namespace acl_sim::hccl {

enum class TransportKind : uint32_t { kLocal = 1, kMpi = 2 };

struct RootInfoData {
  TransportKind transport = TransportKind::kLocal;
  uint64_t pid = 0;
  uint64_t unique = 0;  // per HcclGetRootInfo call
  std::string host;
  /** Key shared by every rank of the communicator. */
  std::string key() const;
};

/** A fresh root info for this process; the transport is chosen by choose_transport(). */
RootInfoData make_root_info();
/** MPI when ACL_SIM_HCCL_TRANSPORT=mpi, or (unset / "auto") when the process was started by an MPI
 *  launcher for more than one process (PMI_SIZE / OMPI_COMM_WORLD_SIZE / MPI_LOCALNRANKS > 1);
 *  in-process otherwise. */
TransportKind choose_transport();

void encode_root_info(const RootInfoData& d, HcclRootInfo* out);
/** Throws Error(HCCL_E_PARA) unless @p in holds a blob made by encode_root_info. */
RootInfoData decode_root_info(const HcclRootInfo* in);

}  // namespace acl_sim::hccl
