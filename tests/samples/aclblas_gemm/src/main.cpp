// aclblas in the shape of CANN's gemm sample: matrices and alpha/beta in device
// memory, aclblasHgemm / aclblasS8gemm / aclblasGemvEx on a stream, and a
// handle from aclblasCreateHandleForGemmEx run with aclopExecWithHandle.
// Reads inputs from <dir>/*.bin (written by the test) and writes <dir>/out_*.bin.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "acl/ops/acl_cblas.h"

#define CHECK(expr)                                                                       \
  do {                                                                                    \
    aclError ret_ = (expr);                                                               \
    if (ret_ != ACL_SUCCESS) {                                                            \
      std::printf("FAILED %s: %d %s\n", #expr, ret_, aclGetRecentErrMsg());               \
      std::exit(1);                                                                       \
    }                                                                                     \
  } while (0)

static std::string g_dir;

static std::vector<char> read_bin(const char* name) {
  std::string path = g_dir + "/" + name;
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) {
    std::printf("cannot open %s\n", path.c_str());
    std::exit(1);
  }
  std::vector<char> data;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof(buf), f)) > 0) data.insert(data.end(), buf, buf + n);
  std::fclose(f);
  return data;
}

static void* to_device(const std::vector<char>& host) {
  void* dev = nullptr;
  CHECK(aclrtMalloc(&dev, host.size(), ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMemcpy(dev, host.size(), host.data(), host.size(), ACL_MEMCPY_HOST_TO_DEVICE));
  return dev;
}

static void write_back(const char* name, void* dev, size_t size) {
  std::vector<char> host(size);
  CHECK(aclrtMemcpy(host.data(), size, dev, size, ACL_MEMCPY_DEVICE_TO_HOST));
  std::string path = g_dir + "/" + name;
  FILE* f = std::fopen(path.c_str(), "wb");
  std::fwrite(host.data(), 1, size, f);
  std::fclose(f);
}

int main(int argc, char** argv) {
  if (argc != 5) {
    std::printf("usage: %s <dir> m n k\n", argv[0]);
    return 2;
  }
  g_dir = argv[1];
  const int m = std::atoi(argv[2]), n = std::atoi(argv[3]), k = std::atoi(argv[4]);
  CHECK(aclInit(nullptr));
  CHECK(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  CHECK(aclrtCreateStream(&stream));

  // fp16: C = 2 * A * B + 1 * C
  void* a16 = to_device(read_bin("a16.bin"));
  void* b16 = to_device(read_bin("b16.bin"));
  std::vector<char> c16h = read_bin("c16.bin");
  void* c16 = to_device(c16h);
  aclFloat16 two = aclFloatToFloat16(2.0f), one = aclFloatToFloat16(1.0f);
  void* alpha16 = to_device(std::vector<char>(reinterpret_cast<char*>(&two), reinterpret_cast<char*>(&two) + 2));
  void* beta16 = to_device(std::vector<char>(reinterpret_cast<char*>(&one), reinterpret_cast<char*>(&one) + 2));
  CHECK(aclblasHgemm(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, m, n, k, static_cast<aclFloat16*>(alpha16),
                     static_cast<aclFloat16*>(a16), -1, static_cast<aclFloat16*>(b16), -1,
                     static_cast<aclFloat16*>(beta16), static_cast<aclFloat16*>(c16), -1, ACL_COMPUTE_HIGH_PRECISION,
                     stream));

  // int8 -> int32 with B transposed: C = 3 * A * B^T (beta 0)
  void* a8 = to_device(read_bin("a8.bin"));
  void* bt8 = to_device(read_bin("bt8.bin"));
  void* c32 = nullptr;
  CHECK(aclrtMalloc(&c32, size_t(m) * n * 4, ACL_MEM_MALLOC_HUGE_FIRST));
  int32_t three = 3, zero = 0;
  void* alpha32 = to_device(std::vector<char>(reinterpret_cast<char*>(&three), reinterpret_cast<char*>(&three) + 4));
  void* beta32 = to_device(std::vector<char>(reinterpret_cast<char*>(&zero), reinterpret_cast<char*>(&zero) + 4));
  CHECK(aclblasS8gemm(ACL_TRANS_N, ACL_TRANS_T, ACL_TRANS_N, m, n, k, static_cast<int32_t*>(alpha32),
                      static_cast<int8_t*>(a8), -1, static_cast<int8_t*>(bt8), -1, static_cast<int32_t*>(beta32),
                      static_cast<int32_t*>(c32), -1, ACL_COMPUTE_HIGH_PRECISION, stream));

  // fp16 x -> fp32 y, GEMV with A transposed: y = 1 * A^T x + 0 * y, A stored k x m
  void* at16 = to_device(read_bin("at16.bin"));
  void* x16 = to_device(read_bin("x16.bin"));
  void* y32 = nullptr;
  CHECK(aclrtMalloc(&y32, size_t(m) * 4, ACL_MEM_MALLOC_HUGE_FIRST));
  float fone = 1.0f, fzero = 0.0f;
  void* alphaf = to_device(std::vector<char>(reinterpret_cast<char*>(&fone), reinterpret_cast<char*>(&fone) + 4));
  void* betaf = to_device(std::vector<char>(reinterpret_cast<char*>(&fzero), reinterpret_cast<char*>(&fzero) + 4));
  CHECK(aclblasGemvEx(ACL_TRANS_T, m, k, alphaf, at16, -1, ACL_FLOAT16, x16, -1, ACL_FLOAT16, betaf, y32, -1,
                      ACL_FLOAT, ACL_COMPUTE_HIGH_PRECISION, stream));
  CHECK(aclrtSynchronizeStream(stream));

  // The handle form: the same fp16 GEMM into a fresh C copy, run twice (C += 2AB each time).
  aclopHandle* handle = nullptr;
  CHECK(aclblasCreateHandleForHgemm(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, m, n, k, ACL_COMPUTE_HIGH_PRECISION,
                                    &handle));
  void* c16b = to_device(c16h);
  const size_t sa = size_t(m) * k * 2, sb = size_t(k) * n * 2, sc = size_t(m) * n * 2;
  aclDataBuffer* in[5] = {aclCreateDataBuffer(a16, sa), aclCreateDataBuffer(b16, sb), aclCreateDataBuffer(c16b, sc),
                          aclCreateDataBuffer(alpha16, 2), aclCreateDataBuffer(beta16, 2)};
  aclDataBuffer* out[1] = {aclCreateDataBuffer(c16b, sc)};
  CHECK(aclopExecWithHandle(handle, 5, in, 1, out, stream));
  CHECK(aclrtSynchronizeStream(stream));

  // A reserved leading dimension other than -1 is refused with a message, not a crash.
  aclError bad = aclblasHgemm(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, m, n, k, static_cast<aclFloat16*>(alpha16),
                              static_cast<aclFloat16*>(a16), k, static_cast<aclFloat16*>(b16), -1,
                              static_cast<aclFloat16*>(beta16), static_cast<aclFloat16*>(c16), -1,
                              ACL_COMPUTE_HIGH_PRECISION, stream);
  std::printf("bad_lda=%d msg=%s\n", bad, aclGetRecentErrMsg());

  write_back("out_c16.bin", c16, sc);
  write_back("out_c32.bin", c32, size_t(m) * n * 4);
  write_back("out_y32.bin", y32, size_t(m) * 4);
  write_back("out_c16b.bin", c16b, sc);

  for (auto* b : in) aclDestroyDataBuffer(b);
  aclDestroyDataBuffer(out[0]);
  aclopDestroyHandle(handle);
  for (void* p : {a16, b16, c16, alpha16, beta16, a8, bt8, c32, alpha32, beta32, at16, x16, y32, alphaf, betaf, c16b})
    aclrtFree(p);
  CHECK(aclrtDestroyStream(stream));
  CHECK(aclrtResetDevice(0));
  CHECK(aclFinalize());
  std::printf("gemm sample done\n");
  return 0;
}
