// Host -> device -> host round trip through aclrtMemcpy, as the memcpy samples do.
#include <cstdio>
#include <cstring>
#include "acl/acl.h"

int main() {
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) return 1;
  char src[64], dst[64] = {0};
  for (int i = 0; i < 64; ++i) src[i] = static_cast<char>(i * 3);
  void* dev = nullptr;
  if (aclrtMalloc(&dev, sizeof src, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return 2;
  if (aclrtMemcpy(dev, sizeof src, src, sizeof src, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS) return 3;
  if (aclrtMemcpy(dst, sizeof dst, dev, sizeof src, ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS) return 4;
  aclrtFree(dev);
  aclrtResetDevice(0);
  aclFinalize();
  if (std::memcmp(src, dst, sizeof src) != 0) return 5;
  std::printf("run success!\n");
  return 0;
}
