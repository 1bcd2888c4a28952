// The aclnn framework through the C API only: descriptors and their validation, the two-phase
// execute with strided views and descriptors destroyed before the stream ran, executor
// consumption, and the not-implemented code of a declared operator.
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_abs.h"
#include "aclnnop/aclnn_scatter.h"
#include "check.h"

static bool msg_has(const char* needle) {
  const char* m = aclGetRecentErrMsg();
  return m && std::strstr(m, needle) != nullptr;
}

static uint16_t to_half(float f) {  // exact for the small integers used here
  uint32_t u;
  std::memcpy(&u, &f, 4);
  uint32_t sign = (u >> 16) & 0x8000u, exp = (u >> 23) & 0xffu, man = u & 0x7fffffu;
  if (exp == 0) return static_cast<uint16_t>(sign);
  return static_cast<uint16_t>(sign | ((exp - 112) << 10) | (man >> 13));
}

static void test_descriptors(void* dev) {
  int64_t dims[2] = {2, 3}, strides[2] = {3, 1}, storage[1] = {6};
  aclTensor* t = aclCreateTensor(dims, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, storage, 1, dev);
  CHECK(t != nullptr);
  int64_t* got = nullptr;
  uint64_t n = 0;
  CHECK(aclGetViewShape(t, &got, &n) == ACLNN_SUCCESS && n == 2 && got[0] == 2 && got[1] == 3);
  std::free(got);
  CHECK(aclGetViewStrides(t, &got, &n) == ACLNN_SUCCESS && n == 2 && got[0] == 3 && got[1] == 1);
  std::free(got);
  int64_t off = -1;
  CHECK(aclGetViewOffset(t, &off) == ACLNN_SUCCESS && off == 0);
  aclDataType dt;
  CHECK(aclGetDataType(t, &dt) == ACLNN_SUCCESS && dt == ACL_FLOAT);
  CHECK(aclDestroyTensor(t) == ACLNN_SUCCESS);
  CHECK(aclDestroyTensor(t) == ACLNN_ERR_PARAM_INVALID && msg_has("aclDestroyTensor"));
  CHECK(aclDestroyTensor(nullptr) == ACLNN_ERR_PARAM_NULLPTR);
  CHECK(aclGetViewOffset(t, &off) == ACLNN_ERR_PARAM_INVALID);

  // A view that reaches past its storage is refused.
  int64_t big[2] = {3, 3};
  CHECK(aclCreateTensor(big, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, storage, 1, dev) == nullptr);
  CHECK(msg_has("aclCreateTensor") && msg_has("more than the storage"));
  CHECK(aclCreateTensor(dims, 2, static_cast<aclDataType>(999), strides, 0, ACL_FORMAT_ND, storage, 1, dev) == nullptr);
  CHECK(aclCreateTensor(dims, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, storage, 1, dev) == nullptr);

  float one = 1.0f;
  aclScalar* s = aclCreateScalar(&one, ACL_FLOAT);
  CHECK(s != nullptr && aclDestroyScalar(s) == ACLNN_SUCCESS);
  CHECK(aclCreateScalar(nullptr, ACL_FLOAT) == nullptr);
  int64_t vals[3] = {1, 2, 3};
  aclIntArray* ia = aclCreateIntArray(vals, 3);
  uint64_t sz = 0;
  CHECK(aclGetIntArraySize(ia, &sz) == ACLNN_SUCCESS && sz == 3);
  CHECK(aclDestroyIntArray(ia) == ACLNN_SUCCESS && aclDestroyIntArray(ia) == ACLNN_ERR_PARAM_INVALID);
  float fv[2] = {1, 2};
  bool bv[2] = {true, false};
  aclFloatArray* fa = aclCreateFloatArray(fv, 2);
  aclBoolArray* ba = aclCreateBoolArray(bv, 2);
  CHECK(fa && ba && aclDestroyFloatArray(fa) == ACLNN_SUCCESS && aclDestroyBoolArray(ba) == ACLNN_SUCCESS);

  // Destroying a list destroys its tensors.
  aclTensor* a = aclCreateTensor(dims, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, storage, 1, dev);
  aclTensor* b = aclCreateTensor(dims, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, storage, 1, dev);
  aclTensor* members[2] = {a, b};
  aclTensorList* l = aclCreateTensorList(members, 2);
  CHECK(l != nullptr && aclGetTensorListSize(l, &sz) == ACLNN_SUCCESS && sz == 2);
  CHECK(aclDestroyTensorList(l) == ACLNN_SUCCESS);
  CHECK(aclDestroyTensor(a) == ACLNN_ERR_PARAM_INVALID && aclDestroyTensor(b) == ACLNN_ERR_PARAM_INVALID);
  CHECK(aclDestroyTensorList(l) == ACLNN_ERR_PARAM_INVALID);
}

// out[i][j] = |in[j][i]|: the input is a transposed float16 view at an element offset; the output is
// float32. Every descriptor is destroyed right after the execute call, before synchronising.
static void test_abs_strided(aclrtStream stream) {
  const int64_t R = 3, C = 4, OFF = 5;
  std::vector<uint16_t> host_in(OFF + R * C);
  for (int64_t i = 0; i < OFF + R * C; ++i) host_in[i] = to_half(static_cast<float>(i % 2 ? -i : i));
  void *din = nullptr, *dout = nullptr;
  CHECK(aclrtMalloc(&din, host_in.size() * 2, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
  CHECK(aclrtMalloc(&dout, R * C * 4, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
  CHECK(aclrtMemcpy(din, host_in.size() * 2, host_in.data(), host_in.size() * 2, ACL_MEMCPY_HOST_TO_DEVICE) == 0);
  // Storage holds a [C, R] row-major matrix after OFF elements; the view is its transpose [R, C].
  int64_t vdims[2] = {R, C}, vstr[2] = {1, R}, sdims[1] = {OFF + R * C};
  aclTensor* in = aclCreateTensor(vdims, 2, ACL_FLOAT16, vstr, OFF, ACL_FORMAT_ND, sdims, 1, din);
  int64_t ostr[2] = {C, 1}, osdims[1] = {R * C};
  aclTensor* out = aclCreateTensor(vdims, 2, ACL_FLOAT, ostr, 0, ACL_FORMAT_ND, osdims, 1, dout);
  CHECK(in && out);
  uint64_t ws = 1;
  aclOpExecutor* ex = nullptr;
  CHECK(aclnnAbsGetWorkspaceSize(in, out, &ws, &ex) == ACLNN_SUCCESS && ex != nullptr);
  CHECK(aclnnAbs(nullptr, ws, ex, stream) == ACLNN_SUCCESS);
  CHECK(aclDestroyTensor(in) == ACLNN_SUCCESS && aclDestroyTensor(out) == ACLNN_SUCCESS);
  // The executor was consumed.
  CHECK(aclnnAbs(nullptr, ws, ex, stream) == ACLNN_ERR_PARAM_INVALID && msg_has("not a live aclOpExecutor"));
  CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
  std::vector<float> res(R * C);
  CHECK(aclrtMemcpy(res.data(), R * C * 4, dout, R * C * 4, ACL_MEMCPY_DEVICE_TO_HOST) == 0);
  for (int64_t i = 0; i < R; ++i)
    for (int64_t j = 0; j < C; ++j) CHECK(res[i * C + j] == static_cast<float>(OFF + j * R + i));

  // A repeatable executor runs twice, then is destroyed.
  in = aclCreateTensor(vdims, 2, ACL_FLOAT16, vstr, OFF, ACL_FORMAT_ND, sdims, 1, din);
  out = aclCreateTensor(vdims, 2, ACL_FLOAT, ostr, 0, ACL_FORMAT_ND, osdims, 1, dout);
  CHECK(aclnnAbsGetWorkspaceSize(in, out, &ws, &ex) == ACLNN_SUCCESS);
  CHECK(aclSetAclOpExecutorRepeatable(ex) == ACLNN_SUCCESS);
  CHECK(aclnnAbs(nullptr, ws, ex, stream) == ACLNN_SUCCESS && aclnnAbs(nullptr, ws, ex, stream) == ACLNN_SUCCESS);
  CHECK(aclDestroyAclOpExecutor(ex) == ACLNN_SUCCESS && aclDestroyAclOpExecutor(ex) == ACLNN_ERR_PARAM_INVALID);
  CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS);

  // Bad arguments: NULL out-pointers, a shape mismatch, a host pointer as tensor data.
  CHECK(aclnnAbsGetWorkspaceSize(in, out, nullptr, &ex) == ACLNN_ERR_PARAM_NULLPTR);
  CHECK(aclnnAbsGetWorkspaceSize(nullptr, out, &ws, &ex) == ACLNN_ERR_PARAM_NULLPTR && msg_has("self"));
  int64_t wrong[2] = {C, R};
  int64_t wstr[2] = {R, 1};
  aclTensor* bad = aclCreateTensor(wrong, 2, ACL_FLOAT, wstr, 0, ACL_FORMAT_ND, osdims, 1, dout);
  CHECK(aclnnAbsGetWorkspaceSize(in, bad, &ws, &ex) == ACLNN_ERR_PARAM_INVALID && msg_has("aclnnAbs"));
  std::vector<float> host(R * C);
  aclTensor* hostt = aclCreateTensor(vdims, 2, ACL_FLOAT, ostr, 0, ACL_FORMAT_ND, osdims, 1, host.data());
  CHECK(aclnnAbsGetWorkspaceSize(in, hostt, &ws, &ex) == ACLNN_ERR_PARAM_INVALID && msg_has("not device memory"));
  CHECK(aclnnAbs(nullptr, 0, reinterpret_cast<aclOpExecutor*>(&host[0]), stream) == ACLNN_ERR_PARAM_INVALID);
  for (aclTensor* t : {in, out, bad, hostt}) aclDestroyTensor(t);
  aclrtFree(din);
  aclrtFree(dout);
}

int main() {
  CHECK(aclInit(nullptr) == ACL_SUCCESS);
  CHECK(aclrtSetDevice(0) == ACL_SUCCESS);
  aclrtStream stream = nullptr;
  CHECK(aclrtCreateStream(&stream) == ACL_SUCCESS);
  void* dev = nullptr;
  CHECK(aclrtMalloc(&dev, 256, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
  test_descriptors(dev);
  test_abs_strided(stream);
  aclrtFree(dev);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
  if (g_failures) std::fprintf(stderr, "%d check(s) failed\n", g_failures.load());
  return g_failures ? 1 : 0;
}
