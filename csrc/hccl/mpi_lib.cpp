#include "hccl/mpi_lib.h"

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>

#include "common/error.h"
#include "common/log.h"
#include "hccl/hccl_types.h"

namespace acl_sim::hccl {
namespace {

void* open_library(std::string* path) {
  if (const char* env = std::getenv("ACL_SIM_MPI_LIBRARY"); env && *env) {
    void* h = dlopen(env, RTLD_NOW | RTLD_GLOBAL);
    ACL_SIM_REQUIRE(h, HCCL_E_NOT_SUPPORT, "ACL_SIM_MPI_LIBRARY=", env, " cannot be loaded: ", dlerror());
    *path = env;
    return h;
  }
  const char* names[] = {"libmpi.so.12", "libmpi.so"};
  for (const char* n : names)  // already in the process (mpi4py): use that very instance
    if (void* h = dlopen(n, RTLD_NOW | RTLD_GLOBAL | RTLD_NOLOAD)) {
      *path = n;
      return h;
    }
  for (const char* n : names)
    if (void* h = dlopen(n, RTLD_NOW | RTLD_GLOBAL)) {
      *path = n;
      return h;
    }
  fail(HCCL_E_NOT_SUPPORT,
       "no MPI library found for cross-process ranks: `pip install mpich mpi4py` (or acl_sim[mpi]) and "
       "import acl_sim.hccl, or set ACL_SIM_MPI_LIBRARY to an MPICH-ABI libmpi.so, and launch with mpiexec");
}

template <class F>
void bind(void* h, F*& fn, const char* name) {
  fn = reinterpret_cast<F*>(dlsym(h, name));
  ACL_SIM_REQUIRE(fn, HCCL_E_NOT_SUPPORT, "MPI library lacks ", name);
}

MpiLib* g_initialised_by_us = nullptr;

void finalize_at_exit() {
  MpiLib* m = g_initialised_by_us;
  int done = 0;
  m->Finalized(&done);
  if (!done) m->Finalize();
}

MpiLib* load() {
  auto* m = new MpiLib();
  void* h = open_library(&m->path);
  bind(h, m->Initialized, "MPI_Initialized");
  bind(h, m->Finalized, "MPI_Finalized");
  bind(h, m->Init_thread, "MPI_Init_thread");
  bind(h, m->Finalize, "MPI_Finalize");
  bind(h, m->Comm_rank, "MPI_Comm_rank");
  bind(h, m->Comm_size, "MPI_Comm_size");
  bind(h, m->Comm_split, "MPI_Comm_split");
  bind(h, m->Comm_free, "MPI_Comm_free");
  bind(h, m->Comm_set_errhandler, "MPI_Comm_set_errhandler");
  bind(h, m->Isend, "MPI_Isend");
  bind(h, m->Irecv, "MPI_Irecv");
  bind(h, m->Test, "MPI_Test");
  bind(h, m->Cancel, "MPI_Cancel");
  bind(h, m->Request_free, "MPI_Request_free");
  bind(h, m->Iallgather, "MPI_Iallgather");
  bind(h, m->Get_library_version, "MPI_Get_library_version");
  std::string v(8192, '\0');
  int len = 0;
  m->Get_library_version(v.data(), &len);
  v.resize(std::min<size_t>(len, v.size()));
  m->version = v.substr(0, v.find('\n'));
  const bool mpich_abi = v.find("MPICH") != std::string::npos || v.find("Intel(R) MPI") != std::string::npos ||
                         v.find("MVAPICH") != std::string::npos;
  ACL_SIM_REQUIRE(mpich_abi, HCCL_E_NOT_SUPPORT, "MPI library ", m->path, " (", m->version,
                  ") is not MPICH-ABI compatible; install the `mpich` wheel or set ACL_SIM_MPI_LIBRARY");
  int inited = 0;
  m->Initialized(&inited);
  if (!inited) {
    int provided = 0;
    ACL_SIM_REQUIRE(m->Init_thread(nullptr, nullptr, MpiLib::kThreadMultiple, &provided) == MpiLib::kSuccess,
                    HCCL_E_INTERNAL, "MPI_Init_thread failed (was the process started by mpiexec?)");
    g_initialised_by_us = m;
    std::atexit(finalize_at_exit);
  }
  ACL_SIM_LOG_INFO("HCCL", "MPI transport: ", m->path, " (", m->version, ")");
  return m;
}

}  // namespace

std::mutex& MpiLib::lock() {
  static std::mutex mu;
  return mu;
}

MpiLib& MpiLib::get() {
  static std::mutex init_mu;
  static MpiLib* lib = nullptr;
  std::lock_guard<std::mutex> guard(init_mu);
  if (!lib) lib = load();  // a failed load throws and is retried next time
  return *lib;
}

bool MpiLib::finalized() const {
  int done = 0;
  Finalized(&done);
  return done != 0;
}

}  // namespace acl_sim::hccl
