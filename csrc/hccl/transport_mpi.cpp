#include "hccl/transport_mpi.h"

#include <sched.h>
#include <time.h>

#include <algorithm>
#include <cstring>

#include "common/error.h"
#include "hccl/hccl_types.h"

namespace acl_sim::hccl {
namespace {

// MPI counts are ints: large messages go as consecutive pieces with the same
// tag (MPI keeps their order between one pair of ranks).
constexpr size_t kPiece = size_t(1) << 30;
// Tags outside collective_tag / send_recv_tag (transport.h).
constexpr int kAllgatherTag = 30000;
constexpr int kLeaveTag = 30001;
void* const kStatusIgnore = reinterpret_cast<void*>(1);  // MPI_STATUS_IGNORE in the MPICH ABI

void check(int rc, const char* call) {
  ACL_SIM_REQUIRE(rc == MpiLib::kSuccess, HCCL_E_REMOTE, call, " failed with MPI error ", rc);
}

struct JoinRecord {
  uint64_t key_hi, key_lo;
  uint32_t n, rank;
};

}  // namespace

void MpiTransport::wait_requests(MpiLib& lib, std::vector<MpiLib::Request>& reqs, const Deadline& deadline,
                                 const char* what, MpiTransport* self) {
  size_t polls = 0;
  while (true) {
    bool all_done = true;
    {
      std::lock_guard<std::mutex> lock(MpiLib::lock());
      for (auto& r : reqs) {
        if (r == MpiLib::kRequestNull) continue;
        int flag = 0;
        check(lib.Test(&r, &flag, kStatusIgnore), "MPI_Test");
        if (!flag) all_done = false;
      }
      if (self && !all_done) self->poll_leave_notice();
    }
    if (all_done) {
      reqs.clear();
      return;
    }
    if (self) self->throw_if_peer_left(what);
    if (deadline.passed())
      fail(HCCL_E_TIMEOUT, what, ": timed out after ", deadline.seconds(),
           " s waiting for peer processes (HCCL_EXEC_TIMEOUT / HCCL_CONNECT_TIMEOUT); a rank did not call the "
           "matching operation");
    // Poll tightly at first (latency), then back off so a long wait does not burn a core.
    if (++polls < 2000) {
      sched_yield();
    } else {
      timespec ts{0, 50000};
      nanosleep(&ts, nullptr);
    }
  }
}

std::unique_ptr<MpiTransport> MpiTransport::connect(uint32_t n, uint32_t rank, uint64_t key_hi, uint64_t key_lo,
                                                    const Deadline& deadline) {
  MpiLib& lib = MpiLib::get();
  int world = 0, me = 0;
  {
    std::lock_guard<std::mutex> lock(MpiLib::lock());
    check(lib.Comm_size(MpiLib::kCommWorld, &world), "MPI_Comm_size");
    check(lib.Comm_rank(MpiLib::kCommWorld, &me), "MPI_Comm_rank");
  }
  ACL_SIM_REQUIRE(static_cast<uint32_t>(world) == n, HCCL_E_PARA, "nRanks ", n, " differs from the ", world,
                  " processes of MPI_COMM_WORLD: cross-process communicators take one rank per process and every "
                  "process launched by mpiexec");
  ACL_SIM_REQUIRE(rank < n, HCCL_E_PARA, "rank ", rank, " is out of range for nRanks ", n);
  JoinRecord mine{key_hi, key_lo, n, rank};
  std::vector<JoinRecord> all(n);
  std::vector<MpiLib::Request> reqs(1, MpiLib::kRequestNull);
  {
    std::lock_guard<std::mutex> lock(MpiLib::lock());
    check(lib.Iallgather(&mine, sizeof(mine), MpiLib::kByte, all.data(), sizeof(mine), MpiLib::kByte,
                         MpiLib::kCommWorld, &reqs[0]),
          "MPI_Iallgather");
  }
  try {
    wait_requests(lib, reqs, deadline, "HcclCommInitRootInfo", nullptr);
  } catch (const Error& e) {
    fail(e.code(), "timed out after ", deadline.seconds(),
         " s waiting for every MPI process to call HcclCommInitRootInfo (HCCL_CONNECT_TIMEOUT)");
  }
  std::vector<bool> seen(n, false);
  for (uint32_t p = 0; p < n; ++p) {
    const JoinRecord& r = all[p];
    ACL_SIM_REQUIRE(r.key_hi == key_hi && r.key_lo == key_lo, HCCL_E_PARA, "MPI process ", p,
                    " joined with a different root info; every rank must use the blob from HcclGetRootInfo");
    ACL_SIM_REQUIRE(r.n == n, HCCL_E_PARA, "MPI process ", p, " passed nRanks ", r.n, ", this one ", n);
    ACL_SIM_REQUIRE(r.rank < n && !seen[r.rank], HCCL_E_PARA, "rank ", r.rank, " was claimed twice or is out of range");
    seen[r.rank] = true;
  }
  MpiLib::Comm comm = 0;
  {
    std::lock_guard<std::mutex> lock(MpiLib::lock());
    check(lib.Comm_split(MpiLib::kCommWorld, 0, static_cast<int>(rank), &comm), "MPI_Comm_split");
    lib.Comm_set_errhandler(comm, MpiLib::kErrorsReturn);
  }
  std::unique_ptr<MpiTransport> t(new MpiTransport(lib, comm, rank, n, key_hi, key_lo));
  std::lock_guard<std::mutex> lock(MpiLib::lock());
  t->post_notice_receive();
  return t;
}

void MpiTransport::post_notice_receive() {
  check(lib_.Irecv(&notice_in_, sizeof(notice_in_), MpiLib::kByte, MpiLib::kAnySource, kLeaveTag, comm_,
                   &notice_recv_),
        "MPI_Irecv");
}

void MpiTransport::poll_leave_notice() {
  if (notice_recv_ == MpiLib::kRequestNull) return;
  int flag = 0;
  check(lib_.Test(&notice_recv_, &flag, kStatusIgnore), "MPI_Test");
  if (!flag) return;
  if (notice_in_.key_hi == key_hi_ && notice_in_.key_lo == key_lo_ && notice_in_.issued < peers_leave_at_) {
    peers_leave_at_ = notice_in_.issued;
    leaver_ = notice_in_.rank;
  }
  post_notice_receive();
}

void MpiTransport::throw_if_peer_left(const char* what) const {
  if (collective_ == kNoCollective || collective_ < peers_leave_at_) return;
  fail(HCCL_E_REMOTE, what, ": rank ", leaver_, " will not take part: its process left the communicator "
       "(HcclCommDestroy or aclFinalize) after issuing ", peers_leave_at_, " collective(s)");
}

void MpiTransport::announce_leaving(uint64_t issued) {
  std::lock_guard<std::mutex> lock(MpiLib::lock());
  if (!notices_out_.empty() || lib_.finalized() || size_ == 1) return;
  notices_out_.assign(size_, LeaveNotice{key_hi_, key_lo_, rank_, issued});  // stays put until the sends complete
  for (uint32_t q = 0; q < size_; ++q) {
    if (q == rank_) continue;
    MpiLib::Request r = MpiLib::kRequestNull;
    check(lib_.Isend(&notices_out_[q], sizeof(LeaveNotice), MpiLib::kByte, static_cast<int>(q), kLeaveTag, comm_,
                     &r),
          "MPI_Isend");
    notice_sends_.push_back(r);
  }
}

MpiTransport::~MpiTransport() {
  if (lib_.finalized()) return;
  // Leave notices are a few bytes (sent eagerly): give them a moment to go out before freeing.
  try {
    wait_requests(lib_, notice_sends_, Deadline::after(1.0), "leave notice", nullptr);
  } catch (const Error&) {
  }
  std::lock_guard<std::mutex> lock(MpiLib::lock());
  if (lib_.finalized()) return;
  for (auto& r : notice_sends_)
    if (r != MpiLib::kRequestNull) lib_.Request_free(&r);
  if (notice_recv_ != MpiLib::kRequestNull) {
    lib_.Cancel(&notice_recv_);
    lib_.Request_free(&notice_recv_);
  }
  for (auto& r : pending_)
    if (r != MpiLib::kRequestNull) {
      lib_.Cancel(&r);
      lib_.Request_free(&r);
    }
  // A broken communicator may still have messages in flight; freeing it then is not safe in MPI.
  if (!broken_) lib_.Comm_free(&comm_);
}

void MpiTransport::isend(uint32_t peer, const void* buf, size_t bytes, int tag) {
  std::lock_guard<std::mutex> lock(MpiLib::lock());
  const char* p = static_cast<const char*>(buf);
  for (size_t off = 0; off < bytes || (bytes == 0 && off == 0); off += kPiece) {
    const int len = static_cast<int>(std::min(kPiece, bytes - off));
    MpiLib::Request r = MpiLib::kRequestNull;
    check(lib_.Isend(p + off, len, MpiLib::kByte, static_cast<int>(peer), tag, comm_, &r), "MPI_Isend");
    pending_.push_back(r);
    if (bytes == 0) break;
  }
}

void MpiTransport::irecv(uint32_t peer, void* buf, size_t bytes, int tag) {
  std::lock_guard<std::mutex> lock(MpiLib::lock());
  char* p = static_cast<char*>(buf);
  for (size_t off = 0; off < bytes || (bytes == 0 && off == 0); off += kPiece) {
    const int len = static_cast<int>(std::min(kPiece, bytes - off));
    MpiLib::Request r = MpiLib::kRequestNull;
    check(lib_.Irecv(p + off, len, MpiLib::kByte, static_cast<int>(peer), tag, comm_, &r), "MPI_Irecv");
    pending_.push_back(r);
    if (bytes == 0) break;
  }
}

void MpiTransport::wait_all(const Deadline& deadline, const char* what) {
  try {
    wait_requests(lib_, pending_, deadline, what, this);
  } catch (...) {
    broken_ = true;
    throw;
  }
}

void MpiTransport::allgather(const void* mine, void* all, size_t bytes, const Deadline& deadline, const char* what) {
  // Point-to-point rather than MPI_Iallgather: a request a departed peer never matches can be cancelled.
  char* out = static_cast<char*>(all);
  if (out + rank_ * bytes != mine) std::memcpy(out + rank_ * bytes, mine, bytes);
  for (uint32_t q = 0; q < size_; ++q) {
    if (q == rank_) continue;
    isend(q, mine, bytes, kAllgatherTag);
    irecv(q, out + q * bytes, bytes, kAllgatherTag);
  }
  wait_all(deadline, what);
}

}  // namespace acl_sim::hccl
