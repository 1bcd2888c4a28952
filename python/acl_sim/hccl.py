"""HCCL for Python: collectives over thread ranks and MPI process ranks.

pyACL has no HCCL binding; this module follows pyACL's conventions instead:
ints for handles and pointers, positional arguments, and `(value..., ret)`
tuples with `ret` (an HcclResult) last.

    root_info, ret = hccl.get_root_info()             # on rank 0; send it to the others
    comm, ret = hccl.comm_init_root_info(n, root_info, rank)
    ret = hccl.all_reduce(send, recv, count, hccl.HCCL_DATA_TYPE_FP32, hccl.HCCL_REDUCE_SUM, comm, stream)
    ret = acl.rt.synchronize_stream(stream)

Thread ranks: `comm_init_all(n, devices)` in one process (then one thread per
rank issues the collectives), or `comm_init_root_info` from n threads.

Process ranks (MPI): start every process with `mpiexec -n N`, pass the root
info from rank 0 with mpi4py (`comm.bcast`), and call `comm_init_root_info(N,
root_info, rank)` in every process (one rank per process, N = the MPI world
size). Needs `pip install mpich mpi4py` (the `acl_sim[mpi]` extra); this module
points the core at the mpich wheel's libmpi through ACL_SIM_MPI_LIBRARY.
Failures of a queued collective (a missing peer after HCCL_EXEC_TIMEOUT
seconds, mismatched counts) make the stream's synchronize fail and are
reported as an HcclResult by `get_comm_async_error(comm)`.
"""
from __future__ import annotations

import glob as _glob
import os as _os
import sys as _sys


def _find_mpich_library():
    """libmpi.so.12 from the `mpich` wheel (installed into <prefix>/lib), if present."""
    for prefix in dict.fromkeys([_sys.prefix, _sys.base_prefix, _os.path.dirname(_os.path.dirname(_sys.executable))]):
        for name in ("libmpi.so.12", "libmpi.so"):
            path = _os.path.join(prefix, "lib", name)
            if _os.path.exists(path):
                return path
    for path in _glob.glob(_os.path.join(_sys.prefix, "lib", "python*", "site-packages", "mpich", "lib", "libmpi.so*")):
        return path
    return None


if not _os.environ.get("ACL_SIM_MPI_LIBRARY"):
    _lib = _find_mpich_library()
    if _lib:
        _os.environ["ACL_SIM_MPI_LIBRARY"] = _lib

from acl_sim._core.hccl import *  # noqa: E402,F401,F403
from acl_sim._core.hccl import (  # noqa: E402,F401
    all_gather, all_reduce, alltoall, alltoallv, barrier, broadcast, comm_destroy, comm_init_all,
    comm_init_cluster_info, comm_init_root_info, get_comm_async_error, get_error_string, get_rank_id,
    get_rank_size, get_root_info, recv, reduce, reduce_scatter, scatter, send)

# HcclDataType
HCCL_DATA_TYPE_INT8 = 0
HCCL_DATA_TYPE_INT16 = 1
HCCL_DATA_TYPE_INT32 = 2
HCCL_DATA_TYPE_FP16 = 3
HCCL_DATA_TYPE_FP32 = 4
HCCL_DATA_TYPE_INT64 = 5
HCCL_DATA_TYPE_UINT64 = 6
HCCL_DATA_TYPE_UINT8 = 7
HCCL_DATA_TYPE_UINT16 = 8
HCCL_DATA_TYPE_UINT32 = 9
HCCL_DATA_TYPE_FP64 = 10
HCCL_DATA_TYPE_BFP16 = 11
HCCL_DATA_TYPE_INT128 = 12
HCCL_DATA_TYPE_HIF8 = 14
HCCL_DATA_TYPE_FP8E4M3 = 15
HCCL_DATA_TYPE_FP8E5M2 = 16
HCCL_DATA_TYPE_FP8E8M0 = 17

# HcclReduceOp
HCCL_REDUCE_SUM = 0
HCCL_REDUCE_PROD = 1
HCCL_REDUCE_MAX = 2
HCCL_REDUCE_MIN = 3

# HcclResult
HCCL_SUCCESS = 0
HCCL_E_PARA = 1
HCCL_E_PTR = 2
HCCL_E_MEMORY = 3
HCCL_E_INTERNAL = 4
HCCL_E_NOT_SUPPORT = 5
HCCL_E_NOT_FOUND = 6
HCCL_E_UNAVAIL = 7
HCCL_E_SYSCALL = 8
HCCL_E_TIMEOUT = 9
HCCL_E_OPEN_FILE_FAILURE = 10
HCCL_E_TCP_CONNECT = 11
HCCL_E_ROCE_CONNECT = 12
HCCL_E_TCP_TRANSFER = 13
HCCL_E_ROCE_TRANSFER = 14
HCCL_E_RUNTIME = 15
HCCL_E_DRV = 16
HCCL_E_PROFILING = 17
HCCL_E_CCE = 18
HCCL_E_NETWORK = 19
HCCL_E_AGAIN = 20
HCCL_E_REMOTE = 21
HCCL_E_SUSPENDING = 22
HCCL_E_OPRETRY_FAIL = 23
HCCL_E_OOM = 24

HCCL_ROOT_INFO_BYTES = 4108
