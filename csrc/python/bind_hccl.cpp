// acl_sim.hccl: HCCL with pyACL's conventions (ints for handles and
// pointers, positional arguments, ret last). Communicator setup releases the
// GIL (it blocks until the peers join). The collectives keep it: they only
// validate and enqueue (a few microseconds), and releasing the GIL on such
// short calls from one Python thread per rank makes the threads convoy on it.
#include <pybind11/stl.h>

#include <cstring>
#include <string>
#include <vector>

#include "hccl/hccl.h"
#include "hccl/rank_table_check.h"
#include "python/bindings.h"

namespace acl_sim::py_bind {
namespace {

using Ret = int;

template <class F>
auto nogil(F&& f) {
  py::gil_scoped_release release;
  return f();
}

// The collectives run with the GIL held (see the file comment).
template <class F>
auto with_gil(F&& f) {
  return f();
}

HcclComm as_comm(uintptr_t c) { return reinterpret_cast<HcclComm>(c); }
aclrtStream as_stream(uintptr_t s) { return reinterpret_cast<aclrtStream>(s); }
HcclDataType as_dtype(int dt) { return static_cast<HcclDataType>(dt); }
HcclReduceOp as_op(int op) { return static_cast<HcclReduceOp>(op); }

}  // namespace

void bind_hccl(py::module_& m) {
  m.doc() = "HCCL collectives (pyACL conventions: ints for handles/pointers, ret last)";

  m.def("get_root_info", [] {
    HcclRootInfo info;
    Ret ret = nogil([&] { return HcclGetRootInfo(&info); });
    return py::make_tuple(py::bytes(ret == 0 ? std::string(info.internal, sizeof(info.internal)) : std::string()),
                          ret);
  });
  m.def("comm_init_root_info", [](uint32_t n_ranks, py::bytes root_info, uint32_t rank) -> py::tuple {
    std::string blob = root_info;
    if (blob.size() != sizeof(HcclRootInfo)) return py::make_tuple(0, static_cast<int>(HCCL_E_PARA));
    HcclRootInfo info;
    std::memcpy(info.internal, blob.data(), sizeof(info.internal));
    HcclComm comm = nullptr;
    Ret ret = nogil([&] { return HcclCommInitRootInfo(n_ranks, &info, rank, &comm); });
    return py::make_tuple(as_int(comm), ret);
  });
  m.def("comm_init_all", [](uint32_t n_dev, std::vector<int32_t> devices) -> py::tuple {
    if (devices.size() < n_dev) return py::make_tuple(py::list(), static_cast<int>(HCCL_E_PARA));
    std::vector<HcclComm> comms(n_dev ? n_dev : 1, nullptr);
    Ret ret = nogil([&] { return HcclCommInitAll(n_dev, devices.data(), comms.data()); });
    py::list out;
    if (ret == 0)
      for (uint32_t i = 0; i < n_dev; ++i) out.append(as_int(comms[i]));
    return py::make_tuple(out, ret);
  });
  m.def("comm_init_cluster_info", [](const std::string& path, uint32_t rank) {
    HcclComm comm = nullptr;
    Ret ret = nogil([&] { return HcclCommInitClusterInfo(path.c_str(), rank, &comm); });
    return py::make_tuple(as_int(comm), ret);
  });
  // Validation only (no runtime, no rendezvous): (ret, message). For the rank-table fuzzer and tools.
  m.def("check_rank_table", [](const std::string& path, uint32_t rank) {
    std::string message;
    int ret = acl_sim::hccl::check_rank_table_file(path.c_str(), rank, &message);
    return py::make_tuple(ret, message);
  }, py::arg("path"), py::arg("rank") = 0);
  m.def("comm_destroy", [](uintptr_t comm) { return static_cast<Ret>(nogil([&] { return HcclCommDestroy(as_comm(comm)); })); });
  m.def("get_rank_size", [](uintptr_t comm) {
    uint32_t n = 0;
    Ret ret = HcclGetRankSize(as_comm(comm), &n);
    return py::make_tuple(n, ret);
  });
  m.def("get_rank_id", [](uintptr_t comm) {
    uint32_t r = 0;
    Ret ret = HcclGetRankId(as_comm(comm), &r);
    return py::make_tuple(r, ret);
  });
  m.def("get_comm_async_error", [](uintptr_t comm) {
    HcclResult err = HCCL_SUCCESS;
    Ret ret = HcclGetCommAsyncError(as_comm(comm), &err);
    return py::make_tuple(static_cast<int>(err), ret);
  });
  m.def("get_error_string", [](int code) { return std::string(HcclGetErrorString(static_cast<HcclResult>(code))); });

  m.def("all_reduce", [](uintptr_t send, uintptr_t recv, uint64_t count, int dt, int op, uintptr_t comm,
                         uintptr_t stream) {
    return static_cast<Ret>(with_gil([&] {
      return HcclAllReduce(as_ptr(send), as_ptr(recv), count, as_dtype(dt), as_op(op), as_comm(comm), as_stream(stream));
    }));
  });
  m.def("broadcast", [](uintptr_t buf, uint64_t count, int dt, uint32_t root, uintptr_t comm, uintptr_t stream) {
    return static_cast<Ret>(
        with_gil([&] { return HcclBroadcast(as_ptr(buf), count, as_dtype(dt), root, as_comm(comm), as_stream(stream)); }));
  });
  m.def("all_gather", [](uintptr_t send, uintptr_t recv, uint64_t send_count, int dt, uintptr_t comm,
                         uintptr_t stream) {
    return static_cast<Ret>(with_gil([&] {
      return HcclAllGather(as_ptr(send), as_ptr(recv), send_count, as_dtype(dt), as_comm(comm), as_stream(stream));
    }));
  });
  m.def("reduce_scatter", [](uintptr_t send, uintptr_t recv, uint64_t recv_count, int dt, int op, uintptr_t comm,
                             uintptr_t stream) {
    return static_cast<Ret>(with_gil([&] {
      return HcclReduceScatter(as_ptr(send), as_ptr(recv), recv_count, as_dtype(dt), as_op(op), as_comm(comm),
                               as_stream(stream));
    }));
  });
  m.def("reduce", [](uintptr_t send, uintptr_t recv, uint64_t count, int dt, int op, uint32_t root, uintptr_t comm,
                     uintptr_t stream) {
    return static_cast<Ret>(with_gil([&] {
      return HcclReduce(as_ptr(send), as_ptr(recv), count, as_dtype(dt), as_op(op), root, as_comm(comm),
                        as_stream(stream));
    }));
  });
  m.def("scatter", [](uintptr_t send, uintptr_t recv, uint64_t recv_count, int dt, uint32_t root, uintptr_t comm,
                      uintptr_t stream) {
    return static_cast<Ret>(with_gil([&] {
      return HcclScatter(as_ptr(send), as_ptr(recv), recv_count, as_dtype(dt), root, as_comm(comm), as_stream(stream));
    }));
  });
  m.def("alltoall", [](uintptr_t send, uint64_t send_count, int send_type, uintptr_t recv, uint64_t recv_count,
                       int recv_type, uintptr_t comm, uintptr_t stream) {
    return static_cast<Ret>(with_gil([&] {
      return HcclAlltoAll(as_ptr(send), send_count, as_dtype(send_type), as_ptr(recv), recv_count, as_dtype(recv_type),
                          as_comm(comm), as_stream(stream));
    }));
  });
  m.def("alltoallv", [](uintptr_t send, std::vector<uint64_t> send_counts, std::vector<uint64_t> sdispls,
                        int send_type, uintptr_t recv, std::vector<uint64_t> recv_counts,
                        std::vector<uint64_t> rdispls, int recv_type, uintptr_t comm, uintptr_t stream) {
    uint32_t n = 0;
    if (HcclGetRankSize(as_comm(comm), &n) != HCCL_SUCCESS) n = 0;
    for (auto* v : {&send_counts, &sdispls, &recv_counts, &rdispls})
      if (v->size() != n) return static_cast<Ret>(HCCL_E_PARA);  // one entry per rank
    return static_cast<Ret>(with_gil([&] {
      return HcclAlltoAllV(as_ptr(send), send_counts.data(), sdispls.data(), as_dtype(send_type), as_ptr(recv),
                           recv_counts.data(), rdispls.data(), as_dtype(recv_type), as_comm(comm), as_stream(stream));
    }));
  });
  m.def("send", [](uintptr_t buf, uint64_t count, int dt, uint32_t dest, uintptr_t comm, uintptr_t stream) {
    return static_cast<Ret>(
        with_gil([&] { return HcclSend(as_ptr(buf), count, as_dtype(dt), dest, as_comm(comm), as_stream(stream)); }));
  });
  m.def("recv", [](uintptr_t buf, uint64_t count, int dt, uint32_t src, uintptr_t comm, uintptr_t stream) {
    return static_cast<Ret>(
        with_gil([&] { return HcclRecv(as_ptr(buf), count, as_dtype(dt), src, as_comm(comm), as_stream(stream)); }));
  });
  m.def("barrier", [](uintptr_t comm, uintptr_t stream) {
    return static_cast<Ret>(with_gil([&] { return HcclBarrier(as_comm(comm), as_stream(stream)); }));
  });
}

}  // namespace acl_sim::py_bind
