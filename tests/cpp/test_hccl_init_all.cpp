// HcclCommInitAll with one thread per device, as CANN's multi-card samples do:
// every rank thread sets its device, creates a stream, and runs AllReduce,
// Broadcast, AllGather, ReduceScatter, AlltoAll and Send/Recv; results are
// checked on the host. Also the synchronous argument errors. Exit code != 0
// on failure; a failing rank's message names the rank.
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "check.h"
#include "hccl/hccl.h"

namespace {

// Everything one rank does; the expected values follow from the rank ids alone.
void rank_main(int rank, int n, int32_t device, HcclComm comm) {
  g_check_scope = "rank " + std::to_string(rank);
  REQUIRE_OK(aclrtSetDevice(device));
  aclrtStream stream = nullptr;
  REQUIRE_OK(aclrtCreateStream(&stream));
  uint32_t got_rank = 99, got_size = 0;
  REQUIRE_OK(HcclGetRankId(comm, &got_rank));
  REQUIRE_OK(HcclGetRankSize(comm, &got_size));
  CHECK_MSG(got_rank == static_cast<uint32_t>(rank) && got_size == static_cast<uint32_t>(n), "rank id / size mismatch");
  if (got_rank != static_cast<uint32_t>(rank) || got_size != static_cast<uint32_t>(n)) return;
  const size_t count = 100003;  // odd, large enough for the ring path
  const size_t bytes = count * sizeof(float);
  void *send = nullptr, *recv = nullptr, *gathered = nullptr;
  REQUIRE_OK(aclrtMalloc(&send, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  REQUIRE_OK(aclrtMalloc(&recv, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  REQUIRE_OK(aclrtMalloc(&gathered, bytes * n, ACL_MEM_MALLOC_HUGE_FIRST));
  std::vector<float> host(count), out(count * n);
  for (size_t i = 0; i < count; ++i) host[i] = static_cast<float>((i % 97) + rank);
  REQUIRE_OK(aclrtMemcpy(send, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));

  // AllReduce (sum) then check.
  REQUIRE_OK(HcclAllReduce(send, recv, count, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, stream));
  REQUIRE_OK(aclrtSynchronizeStream(stream));
  REQUIRE_OK(aclrtMemcpy(out.data(), bytes, recv, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
  const float rank_sum = n * (n - 1) / 2.0f;
  for (size_t i = 0; i < count; ++i)
    if (out[i] != n * static_cast<float>(i % 97) + rank_sum) {
      CHECK_MSG(false, "allreduce wrong at " + std::to_string(i) + ": " + std::to_string(out[i]));
      return;
    }

  // Broadcast from the last rank, AllGather, ReduceScatter (max), all queued before one synchronize.
  REQUIRE_OK(HcclBroadcast(send, count, HCCL_DATA_TYPE_FP32, n - 1, comm, stream));
  REQUIRE_OK(HcclAllGather(send, gathered, count / n, HCCL_DATA_TYPE_FP32, comm, stream));
  REQUIRE_OK(HcclReduceScatter(gathered, recv, count / n, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_MAX, comm, stream));
  REQUIRE_OK(HcclBarrier(comm, stream));
  REQUIRE_OK(aclrtSynchronizeStream(stream));
  REQUIRE_OK(aclrtMemcpy(out.data(), bytes * n, gathered, bytes * n, ACL_MEMCPY_DEVICE_TO_HOST));
  // After the broadcast every rank's send holds rank n-1's data, so each gathered block is its prefix.
  const size_t block = count / n;
  for (int j = 0; j < n; ++j)
    for (size_t i = 0; i < block; ++i)
      if (out[j * block + i] != static_cast<float>((i % 97) + n - 1)) {
        CHECK_MSG(false, "broadcast/allgather wrong at block " + std::to_string(j) + " index " + std::to_string(i));
        return;
      }

  // Send/Recv around a ring: rank r sends to r+1 and receives from r-1 (even ranks send first).
  if (n > 1) {
    const int right = (rank + 1) % n, left = (rank + n - 1) % n;
    std::vector<float> mine(16, static_cast<float>(rank)), got(16, -1.0f);
    REQUIRE_OK(aclrtMemcpy(send, bytes, mine.data(), 64, ACL_MEMCPY_HOST_TO_DEVICE));
    if (rank % 2 == 0) {
      REQUIRE_OK(HcclSend(send, 16, HCCL_DATA_TYPE_FP32, right, comm, stream));
      REQUIRE_OK(HcclRecv(recv, 16, HCCL_DATA_TYPE_FP32, left, comm, stream));
    } else {
      REQUIRE_OK(HcclRecv(recv, 16, HCCL_DATA_TYPE_FP32, left, comm, stream));
      REQUIRE_OK(HcclSend(send, 16, HCCL_DATA_TYPE_FP32, right, comm, stream));
    }
    REQUIRE_OK(aclrtSynchronizeStream(stream));
    REQUIRE_OK(aclrtMemcpy(got.data(), 64, recv, 64, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK_MSG(got[0] == static_cast<float>(left) && got[15] == static_cast<float>(left), "send/recv wrong");
  }

  // Synchronous argument errors.
  CHECK(HcclAllReduce(send, recv, count, static_cast<HcclDataType>(99), HCCL_REDUCE_SUM, comm, stream) == HCCL_E_PARA);
  CHECK(HcclAllReduce(send, recv, count, HCCL_DATA_TYPE_FP32, static_cast<HcclReduceOp>(7), comm, stream) ==
        HCCL_E_PARA);
  CHECK(HcclAllReduce(nullptr, recv, count, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, stream) == HCCL_E_PTR);
  CHECK(HcclAllReduce(send, recv, count * 2, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, stream) == HCCL_E_PARA);
  CHECK(HcclBroadcast(send, 1, HCCL_DATA_TYPE_FP32, n, comm, stream) == HCCL_E_PARA);

  aclrtFree(send);
  aclrtFree(recv);
  aclrtFree(gathered);
  aclrtDestroyStream(stream);
}

void run(int n) {
  std::vector<int32_t> devices(n);
  for (int i = 0; i < n; ++i) devices[i] = n - 1 - i;  // rank i need not be device i
  std::vector<HcclComm> comms(n, nullptr);
  REQUIRE_OK(HcclCommInitAll(n, devices.data(), comms.data()));
  std::vector<std::thread> threads;
  for (int i = 0; i < n; ++i) threads.emplace_back(rank_main, i, n, devices[i], comms[i]);
  for (auto& t : threads) t.join();
  for (int i = 0; i < n; ++i) CHECK_OK(HcclCommDestroy(comms[i]));
  CHECK(HcclCommDestroy(comms[0]) == HCCL_E_PARA);  // double destroy
}

}  // namespace

int main() {
  CHECK_OK(aclInit(nullptr));
  if (g_failures) return check_exit("test_hccl_init_all");
  for (int n : {1, 2, 3, 8}) run(n);
  int32_t dup[2] = {0, 0};
  HcclComm comms[2];
  CHECK(HcclCommInitAll(2, dup, comms) == HCCL_E_PARA);  // duplicate devices
  CHECK(HcclCommInitAll(0, dup, comms) == HCCL_E_PARA);
  CHECK(HcclCommInitAll(2, nullptr, comms) == HCCL_E_PTR);
  CHECK(std::strcmp(HcclGetErrorString(HCCL_E_TIMEOUT), "timeout") == 0);
  CHECK(std::strcmp(HcclGetErrorString(HCCL_SUCCESS), "success") == 0);
  CHECK(std::strcmp(HcclGetErrorString(static_cast<HcclResult>(99)), "unknown error") == 0);
  HcclRootInfo info;
  CHECK_OK(HcclGetRootInfo(&info));
  CHECK(sizeof(info) == 4108);
  CHECK_OK(aclFinalize());
  return check_exit("test_hccl_init_all");
}
