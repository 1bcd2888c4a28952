// A thread rank whose collective aclFinalize refuses leaves its communicator:
// the peer waiting in that collective fails at once (HCCL_E_REMOTE in its
// stream's error message) and aclFinalize returns, instead of both waiting
// for HCCL_EXEC_TIMEOUT (set to 10 minutes here, so a wait for it fails the
// ctest timeout). Rank 0 issues an AllReduce and synchronises; another thread
// calls aclFinalize; rank 1's AllReduce is then refused. A new aclInit and
// communicator work afterwards.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "check.h"
#include "hccl/hccl.h"

namespace {

constexpr uint64_t kCount = 256;

// The AllReduce of 2 ranks after a normal start: each rank's buffer becomes rank0 + rank1 (1 + 2).
bool allreduce_works(HcclComm* comms) {
  bool ok = true;
  std::vector<std::thread> ranks;
  for (int r = 0; r < 2; ++r)
    ranks.emplace_back([&, r] {
      aclrtStream s = nullptr;
      void* buf = nullptr;
      std::vector<float> host(kCount, float(r + 1));
      if (aclrtSetDevice(r) != ACL_SUCCESS || aclrtCreateStream(&s) != ACL_SUCCESS ||
          aclrtMalloc(&buf, kCount * 4, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
          aclrtMemcpy(buf, kCount * 4, host.data(), kCount * 4, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS ||
          HcclAllReduce(buf, buf, kCount, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comms[r], s) != HCCL_SUCCESS ||
          aclrtSynchronizeStream(s) != ACL_SUCCESS ||
          aclrtMemcpy(host.data(), kCount * 4, buf, kCount * 4, ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS ||
          host[0] != 3.0f || host[kCount - 1] != 3.0f) {
        ok = false;
      }
      aclrtFree(buf);
      aclrtDestroyStream(s);
    });
  for (auto& t : ranks) t.join();
  return ok;
}

}  // namespace

int main() {
  setenv("HCCL_EXEC_TIMEOUT", "600", 1);
  setenv("ASCEND_GLOBAL_LOG_LEVEL", "4", 0);  // the failed collective is expected: do not log it
  CHECK(aclInit(nullptr) == ACL_SUCCESS);
  int32_t devices[2] = {0, 1};
  HcclComm comms[2] = {nullptr, nullptr};
  CHECK(HcclCommInitAll(2, devices, comms) == HCCL_SUCCESS);
  CHECK(allreduce_works(comms));

  int rank0_sync = -1;
  std::string rank0_message;
  std::thread rank0([&] {
    aclrtStream s = nullptr;
    void* buf = nullptr;
    CHECK(aclrtSetDevice(0) == ACL_SUCCESS);
    CHECK(aclrtCreateStream(&s) == ACL_SUCCESS);
    CHECK(aclrtMalloc(&buf, kCount * 4, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
    CHECK(HcclAllReduce(buf, buf, kCount, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comms[0], s) == HCCL_SUCCESS);
    // In flight when aclFinalize starts (it waits for this call), or refused with 100001 if slower.
    rank0_sync = aclrtSynchronizeStream(s);
    const char* m = aclGetRecentErrMsg();
    rank0_message = m ? m : "";
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // rank 0 is parked in the collective
  const auto start = std::chrono::steady_clock::now();
  std::thread finalizer([] { CHECK(aclFinalize() == ACL_SUCCESS); });
  // Rank 1 keeps working until aclFinalize refuses its calls, then tries its part of the collective.
  while (aclrtSetDevice(1) == ACL_SUCCESS) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  void* unused = reinterpret_cast<void*>(0x1000);
  CHECK(HcclAllReduce(unused, unused, kCount, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comms[1], nullptr) ==
        HCCL_E_RUNTIME);
  rank0.join();
  finalizer.join();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::fprintf(stderr, "aclFinalize returned after %.2f s; rank 0's synchronize: %d (%s)\n", seconds, rank0_sync,
               rank0_message.c_str());
  // Prompt: far below HCCL_EXEC_TIMEOUT (600 s), with room for a loaded machine.
  CHECK(seconds < 120);
  CHECK(rank0_sync == ACL_ERROR_UNINITIALIZE || rank0_sync == ACL_ERROR_RT_DRV_INTERNAL_ERROR);
  if (rank0_sync == ACL_ERROR_RT_DRV_INTERNAL_ERROR) {
    CHECK(rank0_message.find("HCCL_E_REMOTE") != std::string::npos);
    CHECK(rank0_message.find("rank 1 will not take part") != std::string::npos);
  }

  // A fresh start works.
  CHECK(aclInit(nullptr) == ACL_SUCCESS);
  CHECK(HcclCommInitAll(2, devices, comms) == HCCL_SUCCESS);
  CHECK(allreduce_works(comms));
  for (HcclComm c : comms) CHECK(HcclCommDestroy(c) == HCCL_SUCCESS);
  CHECK(aclFinalize() == ACL_SUCCESS);
  return g_failures ? 1 : 0;
}
