// HcclCommInitAll with one thread per device, as CANN's multi-card samples do:
// every rank thread sets its device, creates a stream, and runs AllReduce,
// Broadcast, AllGather, ReduceScatter, AlltoAll and Send/Recv; results are
// checked on the host. Also the synchronous argument errors. Exit code != 0
// on failure; a failing rank's message names the rank.
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "hccl/hccl.h"

namespace {

std::mutex g_mu;
std::vector<std::string> g_failures;

void record(int rank, const std::string& what) {
  std::lock_guard<std::mutex> lock(g_mu);
  g_failures.push_back("rank " + std::to_string(rank) + ": " + what);
}

#define CHECK_OK(rank, expr)                                                                    \
  do {                                                                                          \
    int rc_ = static_cast<int>(expr);                                                           \
    if (rc_ != 0) {                                                                             \
      const char* m_ = aclGetRecentErrMsg();                                                    \
      record(rank, std::string(#expr) + " returned " + std::to_string(rc_) + ": " + (m_ ? m_ : "")); \
      return;                                                                                   \
    }                                                                                           \
  } while (0)

// Everything one rank does; the expected values follow from the rank ids alone.
void rank_main(int rank, int n, int32_t device, HcclComm comm) {
  CHECK_OK(rank, aclrtSetDevice(device));
  aclrtStream stream = nullptr;
  CHECK_OK(rank, aclrtCreateStream(&stream));
  uint32_t got_rank = 99, got_size = 0;
  CHECK_OK(rank, HcclGetRankId(comm, &got_rank));
  CHECK_OK(rank, HcclGetRankSize(comm, &got_size));
  if (got_rank != static_cast<uint32_t>(rank) || got_size != static_cast<uint32_t>(n)) {
    record(rank, "rank id / size mismatch");
    return;
  }
  const size_t count = 100003;  // odd, large enough for the ring path
  const size_t bytes = count * sizeof(float);
  void *send = nullptr, *recv = nullptr, *gathered = nullptr;
  CHECK_OK(rank, aclrtMalloc(&send, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_OK(rank, aclrtMalloc(&recv, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_OK(rank, aclrtMalloc(&gathered, bytes * n, ACL_MEM_MALLOC_HUGE_FIRST));
  std::vector<float> host(count), out(count * n);
  for (size_t i = 0; i < count; ++i) host[i] = static_cast<float>((i % 97) + rank);
  CHECK_OK(rank, aclrtMemcpy(send, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));

  // AllReduce (sum) then check.
  CHECK_OK(rank, HcclAllReduce(send, recv, count, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, stream));
  CHECK_OK(rank, aclrtSynchronizeStream(stream));
  CHECK_OK(rank, aclrtMemcpy(out.data(), bytes, recv, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
  const float rank_sum = n * (n - 1) / 2.0f;
  for (size_t i = 0; i < count; ++i)
    if (out[i] != n * static_cast<float>(i % 97) + rank_sum) {
      record(rank, "allreduce wrong at " + std::to_string(i) + ": " + std::to_string(out[i]));
      return;
    }

  // Broadcast from the last rank, AllGather, ReduceScatter (max), all queued before one synchronize.
  CHECK_OK(rank, HcclBroadcast(send, count, HCCL_DATA_TYPE_FP32, n - 1, comm, stream));
  CHECK_OK(rank, HcclAllGather(send, gathered, count / n, HCCL_DATA_TYPE_FP32, comm, stream));
  CHECK_OK(rank, HcclReduceScatter(gathered, recv, count / n, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_MAX, comm, stream));
  CHECK_OK(rank, HcclBarrier(comm, stream));
  CHECK_OK(rank, aclrtSynchronizeStream(stream));
  CHECK_OK(rank, aclrtMemcpy(out.data(), bytes * n, gathered, bytes * n, ACL_MEMCPY_DEVICE_TO_HOST));
  // After the broadcast every rank's send holds rank n-1's data, so each gathered block is its prefix.
  const size_t block = count / n;
  for (int j = 0; j < n; ++j)
    for (size_t i = 0; i < block; ++i)
      if (out[j * block + i] != static_cast<float>((i % 97) + n - 1)) {
        record(rank, "broadcast/allgather wrong at block " + std::to_string(j) + " index " + std::to_string(i));
        return;
      }

  // Send/Recv around a ring: rank r sends to r+1 and receives from r-1 (even ranks send first).
  if (n > 1) {
    const int right = (rank + 1) % n, left = (rank + n - 1) % n;
    std::vector<float> mine(16, static_cast<float>(rank)), got(16, -1.0f);
    CHECK_OK(rank, aclrtMemcpy(send, bytes, mine.data(), 64, ACL_MEMCPY_HOST_TO_DEVICE));
    if (rank % 2 == 0) {
      CHECK_OK(rank, HcclSend(send, 16, HCCL_DATA_TYPE_FP32, right, comm, stream));
      CHECK_OK(rank, HcclRecv(recv, 16, HCCL_DATA_TYPE_FP32, left, comm, stream));
    } else {
      CHECK_OK(rank, HcclRecv(recv, 16, HCCL_DATA_TYPE_FP32, left, comm, stream));
      CHECK_OK(rank, HcclSend(send, 16, HCCL_DATA_TYPE_FP32, right, comm, stream));
    }
    CHECK_OK(rank, aclrtSynchronizeStream(stream));
    CHECK_OK(rank, aclrtMemcpy(got.data(), 64, recv, 64, ACL_MEMCPY_DEVICE_TO_HOST));
    if (got[0] != static_cast<float>(left) || got[15] != static_cast<float>(left)) record(rank, "send/recv wrong");
  }

  // Synchronous argument errors.
  if (HcclAllReduce(send, recv, count, static_cast<HcclDataType>(99), HCCL_REDUCE_SUM, comm, stream) != HCCL_E_PARA)
    record(rank, "bad dtype not HCCL_E_PARA");
  if (HcclAllReduce(send, recv, count, HCCL_DATA_TYPE_FP32, static_cast<HcclReduceOp>(7), comm, stream) != HCCL_E_PARA)
    record(rank, "bad op not HCCL_E_PARA");
  if (HcclAllReduce(nullptr, recv, count, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, stream) != HCCL_E_PTR)
    record(rank, "NULL sendBuf not HCCL_E_PTR");
  if (HcclAllReduce(send, recv, count * 2, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, stream) != HCCL_E_PARA)
    record(rank, "too-small buffer not HCCL_E_PARA");
  if (HcclBroadcast(send, 1, HCCL_DATA_TYPE_FP32, n, comm, stream) != HCCL_E_PARA) record(rank, "bad root accepted");

  aclrtFree(send);
  aclrtFree(recv);
  aclrtFree(gathered);
  aclrtDestroyStream(stream);
}

int run(int n) {
  std::vector<int32_t> devices(n);
  for (int i = 0; i < n; ++i) devices[i] = n - 1 - i;  // rank i need not be device i
  std::vector<HcclComm> comms(n, nullptr);
  HcclResult r = HcclCommInitAll(n, devices.data(), comms.data());
  if (r != HCCL_SUCCESS) {
    std::printf("HcclCommInitAll(%d) failed: %d %s\n", n, r, aclGetRecentErrMsg());
    return 1;
  }
  std::vector<std::thread> threads;
  for (int i = 0; i < n; ++i) threads.emplace_back(rank_main, i, n, devices[i], comms[i]);
  for (auto& t : threads) t.join();
  for (int i = 0; i < n; ++i)
    if (HcclCommDestroy(comms[i]) != HCCL_SUCCESS) record(i, "HcclCommDestroy failed");
  if (HcclCommDestroy(comms[0]) != HCCL_E_PARA) record(0, "double HcclCommDestroy not HCCL_E_PARA");
  return 0;
}

}  // namespace

int main() {
  if (aclInit(nullptr) != ACL_SUCCESS) {
    std::printf("aclInit failed\n");
    return 1;
  }
  int rc = 0;
  for (int n : {1, 2, 3, 8}) rc |= run(n);
  int32_t dup[2] = {0, 0};
  HcclComm comms[2];
  if (HcclCommInitAll(2, dup, comms) != HCCL_E_PARA) g_failures.push_back("duplicate devices accepted");
  if (HcclCommInitAll(0, dup, comms) != HCCL_E_PARA) g_failures.push_back("ndev 0 accepted");
  if (HcclCommInitAll(2, nullptr, comms) != HCCL_E_PTR) g_failures.push_back("NULL devices accepted");
  if (std::strcmp(HcclGetErrorString(HCCL_E_TIMEOUT), "timeout") != 0) g_failures.push_back("error string");
  HcclRootInfo info;
  if (HcclGetRootInfo(&info) != HCCL_SUCCESS || sizeof(info) != 4108) g_failures.push_back("root info");
  for (const auto& f : g_failures) std::printf("FAIL %s\n", f.c_str());
  aclFinalize();
  if (rc || !g_failures.empty()) return 1;
  std::printf("test_hccl_init_all: OK\n");
  return 0;
}
