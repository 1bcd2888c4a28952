// hccl.h: communicator setup, queries and teardown.
#include <fstream>
#include <functional>
#include <set>
#include <sstream>

#include "capi/hccl_guard.h"
#include "common/error_codes.h"
#include "common/json.h"
#include "hccl/comm.h"
#include "hccl/hccl.h"
#include "hccl/rank_table_check.h"
#include "hccl/rendezvous.h"
#include "hccl/root_info.h"
#include "hccl/transport_mpi.h"
#include "runtime/context.h"
#include "runtime/device.h"
#include "runtime/runtime.h"

using namespace acl_sim;
using namespace acl_sim::hccl;
using acl_sim::capi::hccl_call;

namespace {

void require_runtime() {
  ACL_SIM_REQUIRE(Runtime::get().initialized(), HCCL_E_RUNTIME, "acl is not initialised: call aclInit first");
}

int32_t current_device() {
  Context* ctx = current_context();
  ACL_SIM_REQUIRE(ctx && !ctx->destroyed(), HCCL_E_RUNTIME,
                  "no current device on this thread: call aclrtSetDevice before creating the communicator");
  return ctx->device().id();
}

void check_device(int32_t id) {
  try {
    Runtime::get().device(id);
  } catch (const Error& e) {
    fail(HCCL_E_PARA, "device ", id, ": ", e.what());
  }
}

// Join a communicator as `rank` of `n`: in-process through the rendezvous store, or across MPI processes.
void* join(TransportKind transport, const std::string& key, uint64_t key_hi, uint64_t key_lo, uint32_t n,
           uint32_t rank, int32_t device) {
  const Deadline deadline = Deadline::after(connect_timeout_seconds());
  if (transport == TransportKind::kMpi) {
    auto t = MpiTransport::connect(n, rank, key_hi, key_lo, deadline);
    return add_comm(std::make_shared<TransportCommunicator>(std::move(t), device));
  }
  auto group = rendezvous_local(key, n, rank, deadline);
  return add_comm(std::make_shared<LocalCommunicator>(std::move(group), rank, device));
}

std::string json_text_field(const json::Value& v, const char* what) {
  if (v.is_string()) return v.as_string();
  if (v.is_int()) return std::to_string(v.as_int());
  fail(HCCL_E_PARA, "rank table: ", what, " must be a string or an integer");
}

int64_t json_int_field(const json::Value& obj, const char* key) {
  const json::Value& v = obj.at(key, HCCL_E_PARA);
  std::string s = json_text_field(v, key);
  char* end = nullptr;
  long long x = std::strtoll(s.c_str(), &end, 10);
  ACL_SIM_REQUIRE(!s.empty() && *end == 0 && x >= 0, HCCL_E_PARA, "rank table: ", key, " \"", s,
                  "\" is not a non-negative integer");
  return x;
}

// Reads the rank table file (HCCL_E_OPEN_FILE_FAILURE if it cannot be opened).
std::string read_rank_table(const char* path) {
  std::ifstream in(path, std::ios::binary);
  ACL_SIM_REQUIRE(in, HCCL_E_OPEN_FILE_FAILURE, "cannot open rank table \"", path, "\"");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Validates a rank table v1.0 / v1.2 (server_list[].device[] with rank_id and device_id)
// and returns the device of `rank`; *n_ranks gets the rank count.
int64_t parse_rank_table(const std::string& text, uint32_t rank, uint32_t* n_ranks) {
  json::ParseOptions opts;
  opts.error_code = HCCL_E_PARA;
  opts.what = "rank table";
  const json::Value doc = json::parse(text, opts);
  const json::Value& servers = doc.at("server_list", HCCL_E_PARA);
  uint32_t n = 0;
  int64_t my_device = -1;
  std::set<int64_t> ranks;
  for (const json::Value& server : servers.as_array(HCCL_E_PARA)) {
    for (const json::Value& dev : server.at("device", HCCL_E_PARA).as_array(HCCL_E_PARA)) {
      const int64_t r = json_int_field(dev, "rank_id");
      const int64_t d = json_int_field(dev, "device_id");
      ACL_SIM_REQUIRE(ranks.insert(r).second, HCCL_E_PARA, "rank table: rank_id ", r, " appears twice");
      if (r == rank) my_device = d;
      ++n;
    }
  }
  ACL_SIM_REQUIRE(n >= 1, HCCL_E_PARA, "rank table lists no devices");
  ACL_SIM_REQUIRE(*ranks.rbegin() == n - 1, HCCL_E_PARA, "rank table: rank_id values must be 0..", n - 1);
  ACL_SIM_REQUIRE(my_device >= 0, HCCL_E_PARA, "rank ", rank, " is not in the rank table (", n, " ranks)");
  *n_ranks = n;
  return my_device;
}

}  // namespace

namespace acl_sim::hccl {

// Validation only (no runtime, no rendezvous): for the rank-table fuzzer and tools.
int check_rank_table_file(const char* path, uint32_t rank, std::string* message) {
  try {
    uint32_t n = 0;
    parse_rank_table(read_rank_table(path), rank, &n);
    return HCCL_SUCCESS;
  } catch (const Error& e) {
    if (message) *message = e.what();
    return e.code();
  }
}

}  // namespace acl_sim::hccl

extern "C" {

ACL_FUNC_VISIBILITY HcclResult HcclGetRootInfo(HcclRootInfo* rootInfo) {
  return hccl_call("HcclGetRootInfo", [&] {
    ACL_SIM_REQUIRE(rootInfo, HCCL_E_PTR, "rootInfo is NULL");
    encode_root_info(make_root_info(), rootInfo);
  });
}

ACL_FUNC_VISIBILITY HcclResult HcclCommInitRootInfo(uint32_t nRanks, const HcclRootInfo* rootInfo, uint32_t rank,
                                                    HcclComm* comm) {
  return hccl_call("HcclCommInitRootInfo", [&] {
    ACL_SIM_REQUIRE(rootInfo, HCCL_E_PTR, "rootInfo is NULL");
    ACL_SIM_REQUIRE(comm, HCCL_E_PTR, "comm is NULL");
    ACL_SIM_REQUIRE(nRanks >= 1, HCCL_E_PARA, "nRanks must be at least 1");
    ACL_SIM_REQUIRE(rank < nRanks, HCCL_E_PARA, "rank ", rank, " is out of range for nRanks ", nRanks);
    require_runtime();
    RootInfoData info = decode_root_info(rootInfo);
    *comm = join(info.transport, info.key(), info.pid, info.unique, nRanks, rank, current_device());
  });
}

ACL_FUNC_VISIBILITY HcclResult HcclCommInitAll(uint32_t ndev, int32_t* devices, HcclComm* comms) {
  return hccl_call("HcclCommInitAll", [&] {
    ACL_SIM_REQUIRE(ndev >= 1, HCCL_E_PARA, "ndev must be at least 1");
    ACL_SIM_REQUIRE(devices, HCCL_E_PTR, "devices is NULL");
    ACL_SIM_REQUIRE(comms, HCCL_E_PTR, "comms is NULL");
    require_runtime();
    std::set<int32_t> seen;
    for (uint32_t i = 0; i < ndev; ++i) {
      check_device(devices[i]);
      ACL_SIM_REQUIRE(seen.insert(devices[i]).second, HCCL_E_PARA, "device ", devices[i],
                      " appears twice in devices (one rank per device)");
    }
    auto group = std::make_shared<LocalGroup>(ndev);
    std::vector<void*> made;
    for (uint32_t i = 0; i < ndev; ++i) made.push_back(add_comm(std::make_shared<LocalCommunicator>(group, i, devices[i])));
    for (uint32_t i = 0; i < ndev; ++i) comms[i] = made[i];
  });
}

ACL_FUNC_VISIBILITY HcclResult HcclCommInitClusterInfo(const char* clusterInfo, uint32_t rank, HcclComm* comm) {
  return hccl_call("HcclCommInitClusterInfo", [&] {
    ACL_SIM_REQUIRE(clusterInfo, HCCL_E_PTR, "clusterInfo (rank table path) is NULL");
    ACL_SIM_REQUIRE(comm, HCCL_E_PTR, "comm is NULL");
    require_runtime();
    const std::string text = read_rank_table(clusterInfo);
    uint32_t n = 0;
    const int64_t my_device = parse_rank_table(text, rank, &n);
    check_device(static_cast<int32_t>(my_device));
    const uint64_t digest = std::hash<std::string>{}(text);
    const std::string key = str("cluster:", digest, ":", n);
    *comm = join(choose_transport(), key, 0x434c5553544552ull /* "CLUSTER" */, digest, n, rank,
                 static_cast<int32_t>(my_device));
  });
}

ACL_FUNC_VISIBILITY HcclResult HcclCommDestroy(HcclComm comm) {
  return hccl_call("HcclCommDestroy", [&] {
    ACL_SIM_REQUIRE(comm, HCCL_E_PTR, "comm is NULL");
    auto c = comm_table().remove(comm);
    ACL_SIM_REQUIRE(c, HCCL_E_PARA, "comm ", comm, " is not a live communicator (destroyed twice?)");
    c->leave("its communicator was destroyed (HcclCommDestroy)");
  });
}

ACL_FUNC_VISIBILITY HcclResult HcclGetRankSize(HcclComm comm, uint32_t* rankSize) {
  return hccl_call("HcclGetRankSize", [&] {
    ACL_SIM_REQUIRE(rankSize, HCCL_E_PTR, "rankSize is NULL");
    *rankSize = find_comm(comm)->size();
  });
}

ACL_FUNC_VISIBILITY HcclResult HcclGetRankId(HcclComm comm, uint32_t* rank) {
  return hccl_call("HcclGetRankId", [&] {
    ACL_SIM_REQUIRE(rank, HCCL_E_PTR, "rank is NULL");
    *rank = find_comm(comm)->rank();
  });
}

ACL_FUNC_VISIBILITY HcclResult HcclGetCommAsyncError(HcclComm comm, HcclResult* asyncError) {
  return hccl_call("HcclGetCommAsyncError", [&] {
    ACL_SIM_REQUIRE(asyncError, HCCL_E_PTR, "asyncError is NULL");
    *asyncError = find_comm(comm)->async_error();
  });
}

ACL_FUNC_VISIBILITY const char* HcclGetErrorString(HcclResult code) { return hccl_error_text(code); }

}  // extern "C"
