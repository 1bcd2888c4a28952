// Stale handles never act on new objects: for every handle type, destroy one,
// create another of the same kind, use the stale handle -> the documented
// error code, and the new object is untouched. Handles are never reused.
#include <acl/acl.h>
#include <hccl/hccl.h>

#include <cstdint>
#include <cstring>

#include "check.h"

namespace {

void streams() {
  aclrtStream old = nullptr, fresh = nullptr;
  CHECK(aclrtCreateStream(&old) == ACL_SUCCESS);
  CHECK(aclrtDestroyStream(old) == ACL_SUCCESS);
  CHECK(aclrtCreateStream(&fresh) == ACL_SUCCESS);
  CHECK(fresh != old);
  CHECK(aclrtDestroyStream(old) == ACL_ERROR_RT_PARAM_INVALID);  // must not destroy `fresh`
  void* dev = nullptr;
  CHECK(aclrtMalloc(&dev, 256, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
  CHECK(aclrtMemsetAsync(dev, 256, 1, 256, old) == ACL_ERROR_RT_PARAM_INVALID);
  CHECK(aclrtSynchronizeStream(old) == ACL_ERROR_RT_PARAM_INVALID);
  CHECK(aclrtMemsetAsync(dev, 256, 7, 256, fresh) == ACL_SUCCESS);
  CHECK(aclrtSynchronizeStream(fresh) == ACL_SUCCESS);
  unsigned char host[256];
  CHECK(aclrtMemcpy(host, sizeof host, dev, 256, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS);
  CHECK(host[0] == 7 && host[255] == 7);
  CHECK(aclrtFree(dev) == ACL_SUCCESS);
  CHECK(aclrtDestroyStream(fresh) == ACL_SUCCESS);
  CHECK(aclrtDestroyStream(fresh) == ACL_ERROR_RT_PARAM_INVALID);
}

void events() {
  aclrtEvent old = nullptr, fresh = nullptr;
  CHECK(aclrtCreateEvent(&old) == ACL_SUCCESS);
  CHECK(aclrtDestroyEvent(old) == ACL_SUCCESS);
  CHECK(aclrtCreateEvent(&fresh) == ACL_SUCCESS);
  CHECK(fresh != old);
  CHECK(aclrtRecordEvent(old, nullptr) == ACL_ERROR_RT_PARAM_INVALID);  // must not record `fresh`
  CHECK(aclrtSynchronizeDevice() == ACL_SUCCESS);
  aclrtEventRecordedStatus st = ACL_EVENT_RECORDED_STATUS_COMPLETE;
  CHECK(aclrtQueryEventStatus(fresh, &st) == ACL_SUCCESS);
  CHECK(st == ACL_EVENT_RECORDED_STATUS_NOT_READY);
  CHECK(aclrtDestroyEvent(old) == ACL_ERROR_RT_PARAM_INVALID);
  CHECK(aclrtDestroyEvent(fresh) == ACL_SUCCESS);
}

void contexts() {
  aclrtContext old = nullptr, fresh = nullptr;
  CHECK(aclrtCreateContext(&old, 0) == ACL_SUCCESS);
  aclrtStream in_old = nullptr;
  CHECK(aclrtCreateStream(&in_old) == ACL_SUCCESS);
  CHECK(aclrtDestroyContext(old) == ACL_SUCCESS);
  // Destroying a context destroys its streams.
  CHECK(aclrtSynchronizeStream(in_old) == ACL_ERROR_RT_PARAM_INVALID);
  CHECK(aclrtDestroyStream(in_old) == ACL_ERROR_RT_PARAM_INVALID);
  CHECK(aclrtCreateContext(&fresh, 0) == ACL_SUCCESS);
  CHECK(fresh != old);
  CHECK(aclrtDestroyContext(old) == ACL_ERROR_RT_PARAM_INVALID);  // must not destroy `fresh`
  CHECK(aclrtSetCurrentContext(old) == ACL_ERROR_RT_PARAM_INVALID);
  aclrtContext cur = nullptr;
  CHECK(aclrtGetCurrentContext(&cur) == ACL_SUCCESS);
  CHECK(cur == fresh);
  CHECK(aclrtSynchronizeDevice() == ACL_SUCCESS);
  CHECK(aclrtDestroyContext(fresh) == ACL_SUCCESS);
  // The device's default context has a handle too, and it is not destroyable.
  CHECK(aclrtSetDevice(0) == ACL_SUCCESS);
  aclrtContext def = nullptr;
  CHECK(aclrtGetCurrentContext(&def) == ACL_SUCCESS);
  CHECK(def != nullptr && def != fresh && def != old);
  CHECK(aclrtDestroyContext(def) == ACL_ERROR_INVALID_PARAM);
  CHECK(aclrtSetCurrentContext(def) == ACL_SUCCESS);
}

void data_buffers() {
  int a = 0, b = 0;
  aclDataBuffer* old = aclCreateDataBuffer(&a, sizeof a);
  CHECK(old != nullptr);
  CHECK(aclDestroyDataBuffer(old) == ACL_SUCCESS);
  aclDataBuffer* fresh = aclCreateDataBuffer(&b, sizeof b);
  CHECK(fresh != old);
  CHECK(aclUpdateDataBuffer(old, &a, 1) == ACL_ERROR_INVALID_PARAM);
  CHECK(aclGetDataBufferAddr(old) == nullptr);
  CHECK(aclGetDataBufferAddr(fresh) == &b);
  CHECK(aclGetDataBufferSizeV2(fresh) == sizeof b);
  CHECK(aclDestroyDataBuffer(old) == ACL_ERROR_INVALID_PARAM);
  CHECK(aclDestroyDataBuffer(fresh) == ACL_SUCCESS);
}

void datasets() {
  aclmdlDataset* old = aclmdlCreateDataset();
  CHECK(aclmdlDestroyDataset(old) == ACL_SUCCESS);
  aclmdlDataset* fresh = aclmdlCreateDataset();
  CHECK(fresh != old);
  int x = 0;
  aclDataBuffer* buf = aclCreateDataBuffer(&x, sizeof x);
  CHECK(aclmdlAddDatasetBuffer(old, buf) == ACL_ERROR_INVALID_PARAM);
  CHECK(aclmdlGetDatasetNumBuffers(fresh) == 0);
  CHECK(aclmdlDestroyDataset(old) == ACL_ERROR_INVALID_PARAM);
  CHECK(aclmdlDestroyDataset(fresh) == ACL_SUCCESS);
  CHECK(aclDestroyDataBuffer(buf) == ACL_SUCCESS);
}

void model_descs() {
  aclmdlDesc* old = aclmdlCreateDesc();
  CHECK(aclmdlDestroyDesc(old) == ACL_SUCCESS);
  aclmdlDesc* fresh = aclmdlCreateDesc();
  CHECK(fresh != old);
  CHECK(aclmdlDestroyDesc(old) == ACL_ERROR_INVALID_PARAM);  // must not destroy `fresh`
  CHECK(aclmdlDestroyDesc(fresh) == ACL_SUCCESS);
}

void tensor_descs_and_attrs() {
  int64_t dims_old[1] = {4}, dims_new[2] = {2, 3};
  aclTensorDesc* old = aclCreateTensorDesc(ACL_FLOAT, 1, dims_old, ACL_FORMAT_ND);
  aclDestroyTensorDesc(old);
  aclTensorDesc* fresh = aclCreateTensorDesc(ACL_FLOAT16, 2, dims_new, ACL_FORMAT_ND);
  CHECK(fresh != old);
  aclSetTensorDescName(old, "stale");  // must not rename `fresh`
  CHECK(aclGetTensorDescNumDims(old) == 0);
  CHECK(aclGetTensorDescNumDims(fresh) == 2);
  CHECK(std::strcmp(aclGetTensorDescName(fresh), "") == 0);
  aclDestroyTensorDesc(fresh);

  aclopAttr* a_old = aclopCreateAttr();
  aclopDestroyAttr(a_old);
  aclopAttr* a_new = aclopCreateAttr();
  CHECK(a_new != a_old);
  CHECK(aclopSetAttrInt(a_old, "axis", 1) == ACL_ERROR_INVALID_PARAM);
  CHECK(aclopSetAttrInt(a_new, "axis", 2) == ACL_SUCCESS);
  aclopDestroyAttr(a_new);
}

void communicators() {
  int32_t devices[2] = {0, 1};
  HcclComm old[2] = {nullptr, nullptr}, fresh[2] = {nullptr, nullptr};
  CHECK(HcclCommInitAll(2, devices, old) == HCCL_SUCCESS);
  CHECK(HcclCommDestroy(old[0]) == HCCL_SUCCESS);
  CHECK(HcclCommDestroy(old[1]) == HCCL_SUCCESS);
  CHECK(HcclCommInitAll(2, devices, fresh) == HCCL_SUCCESS);
  CHECK(fresh[0] != old[0] && fresh[0] != old[1]);
  uint32_t n = 0;
  CHECK(HcclGetRankSize(old[0], &n) == HCCL_E_PARA);
  CHECK(HcclCommDestroy(old[0]) == HCCL_E_PARA);  // must not destroy `fresh[*]`
  CHECK(HcclGetRankSize(fresh[0], &n) == HCCL_SUCCESS && n == 2);
  CHECK(HcclCommDestroy(fresh[0]) == HCCL_SUCCESS);
  CHECK(HcclCommDestroy(fresh[1]) == HCCL_SUCCESS);
}

void handles_of_different_kinds_do_not_mix() {
  aclrtStream s = nullptr;
  CHECK(aclrtCreateStream(&s) == ACL_SUCCESS);
  CHECK(aclrtRecordEvent(static_cast<aclrtEvent>(s), nullptr) == ACL_ERROR_RT_PARAM_INVALID);
  CHECK(aclmdlGetDatasetNumBuffers(static_cast<aclmdlDataset*>(s)) == 0);
  CHECK(aclrtDestroyStream(s) == ACL_SUCCESS);
}

}  // namespace

int main() {
  CHECK(aclInit(nullptr) == ACL_SUCCESS);
  CHECK(aclrtSetDevice(0) == ACL_SUCCESS);
  streams();
  events();
  contexts();
  data_buffers();
  datasets();
  model_descs();
  tensor_descs_and_attrs();
  communicators();
  handles_of_different_kinds_do_not_mix();
  CHECK(aclrtResetDevice(0) == ACL_SUCCESS);
  CHECK(aclFinalize() == ACL_SUCCESS);
  // After aclFinalize and a new aclInit, old handles stay dead.
  std::fprintf(stderr, "%d failure(s)\n", g_failures.load());
  return g_failures ? 1 : 0;
}
