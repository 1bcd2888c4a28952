// The aclop / tensor-desc C API from a C++ program, as a CANN user writes it:
// descs, device buffers, aclopExecuteV2 on a stream, handles, and error codes.
#include <cstdio>
#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_op_compiler.h"

#include "check.h"

static std::vector<const aclTensorDesc*> cin_compile(const aclTensorDesc* d) { return {d, d}; }

int main() {
  CHECK(aclInit(nullptr) == ACL_SUCCESS);
  CHECK(aclrtSetDevice(0) == ACL_SUCCESS);
  aclrtStream stream = nullptr;
  CHECK(aclrtCreateStream(&stream) == ACL_SUCCESS);

  const int64_t dims[2] = {8, 16};
  aclTensorDesc* desc = aclCreateTensorDesc(ACL_FLOAT, 2, dims, ACL_FORMAT_ND);
  CHECK(desc != nullptr);
  const size_t bytes = aclGetTensorDescSize(desc);
  CHECK(bytes == 8 * 16 * sizeof(float));
  CHECK(aclGetTensorDescNumDims(desc) == 2);
  int64_t d1 = 0;
  CHECK(aclGetTensorDescDimV2(desc, 1, &d1) == ACL_SUCCESS && d1 == 16);
  CHECK(aclGetTensorDescDimV2(desc, 2, &d1) == ACL_ERROR_INVALID_PARAM);

  std::vector<float> a(128), b(128), c(128, 0.f);
  for (int i = 0; i < 128; ++i) {
    a[i] = 0.5f * i;
    b[i] = 3.0f - i;
  }
  void *da = nullptr, *db = nullptr, *dc = nullptr;
  CHECK(aclrtMalloc(&da, bytes, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
  CHECK(aclrtMalloc(&db, bytes, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
  CHECK(aclrtMalloc(&dc, bytes, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
  CHECK(aclrtMemcpy(da, bytes, a.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS);
  CHECK(aclrtMemcpy(db, bytes, b.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS);
  aclDataBuffer* ba = aclCreateDataBuffer(da, bytes);
  aclDataBuffer* bb = aclCreateDataBuffer(db, bytes);
  aclDataBuffer* bc = aclCreateDataBuffer(dc, bytes);

  aclTensorDesc* in_desc[2] = {desc, desc};
  aclDataBuffer* in_buf[2] = {ba, bb};
  aclTensorDesc* out_desc[1] = {desc};
  aclDataBuffer* out_buf[1] = {bc};
  aclopAttr* attr = aclopCreateAttr();
  CHECK(aclopExecuteV2("Mul", 2, in_desc, in_buf, 1, out_desc, out_buf, attr, stream) == ACL_SUCCESS);
  CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
  CHECK(aclrtMemcpy(c.data(), bytes, dc, bytes, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS);
  for (int i = 0; i < 128; ++i) CHECK(c[i] == a[i] * b[i]);

  // aclopCompile (acl_op_compiler.h) checks the call as execution would.
  CHECK(aclopCompile("Sub", 2, cin_compile(desc).data(), 1, cin_compile(desc).data(), attr, ACL_ENGINE_SYS,
                     ACL_COMPILE_SYS, nullptr) == ACL_SUCCESS);
  CHECK(aclopCompile("NoSuchOp", 2, cin_compile(desc).data(), 1, cin_compile(desc).data(), attr, ACL_ENGINE_SYS,
                     ACL_COMPILE_SYS, nullptr) == ACL_ERROR_OP_NOT_FOUND);
  CHECK(aclopCompile(nullptr, 0, nullptr, 0, nullptr, attr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr) ==
        ACL_ERROR_INVALID_PARAM);

  // handles: resolve once, run twice
  aclopHandle* handle = nullptr;
  const aclTensorDesc* cin[2] = {desc, desc};
  const aclTensorDesc* cout[1] = {desc};
  CHECK(aclopCreateHandle("Sub", 2, cin, 1, cout, attr, &handle) == ACL_SUCCESS);
  const aclDataBuffer* hin[2] = {ba, bb};
  aclDataBuffer* const hout[1] = {bc};
  CHECK(aclopExecWithHandle(handle, 2, hin, 1, hout, stream) == ACL_SUCCESS);
  CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
  CHECK(aclrtMemcpy(c.data(), bytes, dc, bytes, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS);
  for (int i = 0; i < 128; ++i) CHECK(c[i] == a[i] - b[i]);
  aclopDestroyHandle(handle);

  // error codes
  CHECK(aclopExecuteV2("NoSuchOp", 2, in_desc, in_buf, 1, out_desc, out_buf, attr, stream) == ACL_ERROR_OP_NOT_FOUND);
  CHECK(aclGetRecentErrMsg() != nullptr && std::strstr(aclGetRecentErrMsg(), "NoSuchOp") != nullptr);
  const int64_t other_dims[2] = {16, 8};
  aclTensorDesc* other = aclCreateTensorDesc(ACL_FLOAT, 2, other_dims, ACL_FORMAT_ND);
  aclTensorDesc* bad_out[1] = {other};
  CHECK(aclopExecuteV2("Add", 2, in_desc, in_buf, 1, bad_out, out_buf, attr, stream) == ACL_ERROR_OP_OUTPUT_NOT_MATCH);
  aclTensorDesc* int_desc = aclCreateTensorDesc(ACL_INT32, 2, dims, ACL_FORMAT_ND);
  aclTensorDesc* mixed[2] = {desc, int_desc};
  CHECK(aclopExecuteV2("Add", 2, mixed, in_buf, 1, out_desc, out_buf, attr, stream) == ACL_ERROR_OP_INPUT_NOT_MATCH);
  CHECK(aclopExecuteV2("Add", 1, in_desc, in_buf, 1, out_desc, out_buf, attr, stream) == ACL_ERROR_OP_INPUT_NOT_MATCH);
  CHECK(aclopSetAttrInt(nullptr, "x", 1) == ACL_ERROR_INVALID_PARAM);
  CHECK(aclCreateTensorDesc(ACL_FLOAT, -1, dims, ACL_FORMAT_ND) == nullptr);

  aclDestroyTensorDesc(other);
  aclDestroyTensorDesc(int_desc);
  aclopDestroyAttr(attr);
  for (aclDataBuffer* buf : {ba, bb, bc}) CHECK(aclDestroyDataBuffer(buf) == ACL_SUCCESS);
  for (void* p : {da, db, dc}) CHECK(aclrtFree(p) == ACL_SUCCESS);
  aclDestroyTensorDesc(desc);
  CHECK(aclrtDestroyStream(stream) == ACL_SUCCESS);
  CHECK(aclrtResetDevice(0) == ACL_SUCCESS);
  CHECK(aclFinalize() == ACL_SUCCESS);
  if (g_failures) std::fprintf(stderr, "test_aclop_capi: %d failure(s)\n", g_failures.load());
  return g_failures.load() ? 1 : 0;
}
