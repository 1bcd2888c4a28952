/* A C program against the toolkit's include/ and lib64/ (ggml-cann's layout): links every CANN
 * library name and runs one aclnn operator. */
#include <stdio.h>
#include <string.h>
#include "acl/acl.h"
#include "aclnnop/aclnn_abs.h"

int main(void) {
  if (aclInit(NULL) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) return 1;
  float host[4] = {-1.5f, 2.0f, -3.0f, 0.0f};
  void* dev = NULL;
  if (aclrtMalloc(&dev, sizeof host, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return 2;
  aclrtMemcpy(dev, sizeof host, host, sizeof host, ACL_MEMCPY_HOST_TO_DEVICE);
  int64_t dims[1] = {4}, strides[1] = {1}, storage[1] = {4};
  aclTensor* t = aclCreateTensor(dims, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, storage, 1, dev);
  uint64_t ws = 0;
  aclOpExecutor* ex = NULL;
  if (aclnnAbsGetWorkspaceSize(t, t, &ws, &ex) != ACLNN_SUCCESS) return 3;
  if (aclnnAbs(NULL, ws, ex, NULL) != ACLNN_SUCCESS) return 4;
  aclDestroyTensor(t);
  if (aclrtSynchronizeDevice() != ACL_SUCCESS) return 5;
  aclrtMemcpy(host, sizeof host, dev, sizeof host, ACL_MEMCPY_DEVICE_TO_HOST);
  aclrtFree(dev);
  aclrtResetDevice(0);
  aclFinalize();
  printf("abs %.1f %.1f %.1f %.1f\n", host[0], host[1], host[2], host[3]);
  return 0;
}
