// MPI loaded at run time (dlopen), so libascendcl.so has no build-time MPI
// dependency. The MPICH ABI is used (MPICH, Intel MPI, MVAPICH and the
// `mpich` wheel on PyPI share it: handles are ints with fixed values).
// Library search: ACL_SIM_MPI_LIBRARY; an MPI library already loaded in the
// process (e.g. by mpi4py); then libmpi.so.12 / libmpi.so on the loader path.
// `acl_sim.hccl` sets ACL_SIM_MPI_LIBRARY to the mpich wheel's library.
#pragma once

#include <mutex>
#include <string>

namespace acl_sim::hccl {

struct MpiLib {
  using Comm = int;
  using Datatype = int;
  using Request = int;
  static constexpr Comm kCommWorld = 0x44000000;
  static constexpr Datatype kByte = 0x4c00010d;
  static constexpr Request kRequestNull = 0x2c000000;
  static constexpr int kErrorsReturn = 0x54000001;
  static constexpr int kThreadMultiple = 3;
  static constexpr int kSuccess = 0;
  static constexpr int kAnySource = -2;

  int (*Initialized)(int*);
  int (*Finalized)(int*);
  int (*Init_thread)(int*, char***, int, int*);
  int (*Finalize)();
  int (*Comm_rank)(Comm, int*);
  int (*Comm_size)(Comm, int*);
  int (*Comm_split)(Comm, int, int, Comm*);
  int (*Comm_free)(Comm*);
  int (*Comm_set_errhandler)(Comm, int);
  int (*Isend)(const void*, int, Datatype, int, int, Comm, Request*);
  int (*Irecv)(void*, int, Datatype, int, int, Comm, Request*);
  int (*Test)(Request*, int*, void*);
  int (*Cancel)(Request*);
  int (*Request_free)(Request*);
  int (*Iallgather)(const void*, int, Datatype, void*, int, Datatype, Comm, Request*);
  int (*Get_library_version)(char*, int*);

  std::string path;     // the library that was loaded
  std::string version;  // MPI_Get_library_version, first line

  /** Load (once) and make sure MPI is initialised with MPI_THREAD_MULTIPLE (initialising it if nobody
   *  did; then it is finalised at exit). Throws Error(HCCL_E_NOT_SUPPORT) saying how to install MPI. */
  static MpiLib& get();
  /** Every MPI call is made under this lock, so MPI_THREAD_SERIALIZED suffices. */
  static std::mutex& lock();
  /** True once MPI_Finalize ran (calls then must not be made). */
  bool finalized() const;
};

}  // namespace acl_sim::hccl
