// PeerTransport over MPI, for ranks in different processes (and hosts).
//
// Contract (documented for users): every process of MPI_COMM_WORLD (as
// started by `mpiexec -n N`) calls HcclCommInitRootInfo with the same root
// info and nRanks == N, one rank per process, in any rank order; the
// communicator gets a private MPI communicator ordered by HCCL rank. All calls
// are non-blocking requests polled against a deadline, so a missing peer gives
// HCCL_E_TIMEOUT rather than a hang. A process whose rank leaves
// (HcclCommDestroy, aclFinalize) sends every peer a leave notice with the
// number of collectives it issued; a peer waiting in a later collective fails
// at once with HCCL_E_REMOTE.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "hccl/mpi_lib.h"
#include "hccl/transport.h"

namespace acl_sim::hccl {

class MpiTransport : public PeerTransport {
 public:
  /** Join rank @p rank of the @p n-rank communicator keyed by (@p key_hi, @p key_lo) across
   *  MPI_COMM_WORLD. Throws HCCL_E_PARA (world size != n, ranks not a permutation, different root
   *  infos) or HCCL_E_TIMEOUT (a process never joined, HCCL_CONNECT_TIMEOUT). */
  static std::unique_ptr<MpiTransport> connect(uint32_t n, uint32_t rank, uint64_t key_hi, uint64_t key_lo,
                                               const Deadline& deadline);
  ~MpiTransport() override;

  uint32_t rank() const override { return rank_; }
  uint32_t size() const override { return size_; }
  void isend(uint32_t peer, const void* buf, size_t bytes, int tag) override;
  void irecv(uint32_t peer, void* buf, size_t bytes, int tag) override;
  void wait_all(const Deadline& deadline, const char* what) override;
  void allgather(const void* mine, void* all, size_t bytes, const Deadline& deadline, const char* what) override;
  void set_collective(uint64_t seq) override { collective_ = seq; }
  void announce_leaving(uint64_t issued) override;

 private:
  // The key tells a notice from one sent on an earlier communicator whose MPI context id was reused.
  struct LeaveNotice {
    uint64_t key_hi, key_lo, rank, issued;
  };
  MpiTransport(MpiLib& lib, MpiLib::Comm comm, uint32_t rank, uint32_t size, uint64_t key_hi, uint64_t key_lo)
      : lib_(lib), comm_(comm), rank_(rank), size_(size), key_hi_(key_hi), key_lo_(key_lo) {}
  /** Poll @p reqs until all completed; @p self (may be null: joining) also polls for leave notices. */
  static void wait_requests(MpiLib& lib, std::vector<MpiLib::Request>& reqs, const Deadline& deadline,
                            const char* what, MpiTransport* self);
  void post_notice_receive();        // MPI lock held
  void poll_leave_notice();          // MPI lock held
  void throw_if_peer_left(const char* what) const;

  MpiLib& lib_;
  MpiLib::Comm comm_;
  uint32_t rank_, size_;
  uint64_t key_hi_, key_lo_;
  std::vector<MpiLib::Request> pending_;
  bool broken_ = false;
  // Leave notices. Received: touched only by the thread running a collective (the communicator
  // runs one at a time). Sent: by announce_leaving and the destructor.
  LeaveNotice notice_in_{};
  MpiLib::Request notice_recv_ = MpiLib::kRequestNull;
  uint64_t peers_leave_at_ = kNoCollective, leaver_ = 0;
  uint64_t collective_ = kNoCollective;
  std::vector<LeaveNotice> notices_out_;
  std::vector<MpiLib::Request> notice_sends_;
};

}  // namespace acl_sim::hccl
