/**
 * Host program for add_custom, in the shape of CANN's runtime kernel-launch
 * sample: aclInit -> aclrtSetDevice -> aclrtCreateStream -> aclrtMalloc and
 * copy inputs -> aclrtBinaryLoadFromFile -> aclrtBinaryGetFunction ->
 * aclrtKernelArgs* (device pointers appended, the tiling struct as a
 * placeholder the runtime copies at launch) -> aclrtLaunchKernelWithConfig ->
 * aclrtSynchronizeStream -> copy back -> release.
 *
 * Built with -DADD_CUSTOM_DIRECT_LAUNCH, the kernel is linked into this
 * program instead and launched with ACLRT_LAUNCH_KERNEL(add_custom)(...).
 *
 * usage: add_custom_main <dir> [kernel.so] [blockDim=8] [fp16|fp32] [tileNum=8]
 *   reads <dir>/input_x.bin and <dir>/input_y.bin, writes <dir>/output_z.bin.
 */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "add_custom_tiling.h"

#ifdef ADD_CUSTOM_DIRECT_LAUNCH
#include "acl_sim/kernel/host_launch.h"
extern "C" void add_custom(uint8_t* x, uint8_t* y, uint8_t* z, uint8_t* tiling);
extern "C" void add_custom_fp32(uint8_t* x, uint8_t* y, uint8_t* z, uint8_t* tiling);
#endif

#define CHECK_ACL(expr)                                                                        \
  do {                                                                                         \
    aclError _ret = (expr);                                                                    \
    if (_ret != ACL_SUCCESS) {                                                                 \
      std::fprintf(stderr, "%s failed: error %d (%s)\n", #expr, _ret, aclGetRecentErrMsg()); \
      return 1;                                                                                \
    }                                                                                          \
  } while (0)

static bool read_file(const std::string& path, std::vector<uint8_t>& out) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return false;
  out.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  return true;
}

static bool write_file(const std::string& path, const void* data, size_t n) {
  std::ofstream f(path, std::ios::binary);
  f.write(static_cast<const char*>(data), static_cast<std::streamsize>(n));
  return static_cast<bool>(f);
}

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s <dir> [kernel.so] [blockDim] [fp16|fp32] [tileNum]\n", argv[0]);
    return 2;
  }
  const std::string dir = argv[1];
  const std::string so = argc > 2 ? argv[2] : "./libadd_custom_kernel.so";
  const uint32_t blockDim = argc > 3 ? static_cast<uint32_t>(std::atoi(argv[3])) : 8;
  const bool fp32 = argc > 4 && std::strcmp(argv[4], "fp32") == 0;
  const uint32_t tileNum = argc > 5 ? static_cast<uint32_t>(std::atoi(argv[5])) : 8;
  const size_t elem = fp32 ? 4 : 2;

  std::vector<uint8_t> x, y;
  if (!read_file(dir + "/input_x.bin", x) || !read_file(dir + "/input_y.bin", y) || x.size() != y.size()) {
    std::fprintf(stderr, "cannot read %s/input_x.bin and input_y.bin of equal size\n", dir.c_str());
    return 2;
  }
  const size_t bytes = x.size();
  AddCustomTilingData tiling{static_cast<uint32_t>(bytes / elem), tileNum};

  CHECK_ACL(aclInit(nullptr));
  CHECK_ACL(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  CHECK_ACL(aclrtCreateStream(&stream));

  void *xDev = nullptr, *yDev = nullptr, *zDev = nullptr;
  CHECK_ACL(aclrtMalloc(&xDev, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMalloc(&yDev, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMalloc(&zDev, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMemcpy(xDev, bytes, x.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  CHECK_ACL(aclrtMemcpy(yDev, bytes, y.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));

#ifdef ADD_CUSTOM_DIRECT_LAUNCH
  (void)so;
  void* tilingDev = nullptr;
  CHECK_ACL(aclrtMalloc(&tilingDev, sizeof(tiling), ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMemcpy(tilingDev, sizeof(tiling), &tiling, sizeof(tiling), ACL_MEMCPY_HOST_TO_DEVICE));
  auto* xp = static_cast<uint8_t*>(xDev);
  auto* yp = static_cast<uint8_t*>(yDev);
  auto* zp = static_cast<uint8_t*>(zDev);
  auto* tp = static_cast<uint8_t*>(tilingDev);
  if (fp32) {
    CHECK_ACL(static_cast<aclError>(ACLRT_LAUNCH_KERNEL(add_custom_fp32)(blockDim, stream, xp, yp, zp, tp)));
  } else {
    CHECK_ACL(static_cast<aclError>(ACLRT_LAUNCH_KERNEL(add_custom)(blockDim, stream, xp, yp, zp, tp)));
  }
  CHECK_ACL(aclrtSynchronizeStream(stream));
  CHECK_ACL(aclrtFree(tilingDev));
#else
  aclrtBinHandle bin = nullptr;
  aclrtFuncHandle func = nullptr;
  aclrtArgsHandle args = nullptr;
  aclrtParamHandle px = nullptr, py = nullptr, pz = nullptr, pt = nullptr;
  CHECK_ACL(aclrtBinaryLoadFromFile(so.c_str(), nullptr, &bin));
  CHECK_ACL(aclrtBinaryGetFunction(bin, fp32 ? "add_custom_fp32" : "add_custom", &func));
  CHECK_ACL(aclrtKernelArgsInit(func, &args));
  CHECK_ACL(aclrtKernelArgsAppend(args, &xDev, sizeof(uintptr_t), &px));
  CHECK_ACL(aclrtKernelArgsAppend(args, &yDev, sizeof(uintptr_t), &py));
  CHECK_ACL(aclrtKernelArgsAppend(args, &zDev, sizeof(uintptr_t), &pz));
  // The tiling struct travels as a placeholder: the runtime copies it to device memory at launch.
  void* tilingHost = nullptr;
  CHECK_ACL(aclrtKernelArgsAppendPlaceHolder(args, &pt));
  CHECK_ACL(aclrtKernelArgsGetPlaceHolderBuffer(args, pt, sizeof(tiling), &tilingHost));
  std::memcpy(tilingHost, &tiling, sizeof(tiling));
  CHECK_ACL(aclrtKernelArgsFinalize(args));
  CHECK_ACL(aclrtLaunchKernelWithConfig(func, blockDim, stream, nullptr, args, nullptr));
  CHECK_ACL(aclrtSynchronizeStream(stream));
  CHECK_ACL(aclrtBinaryUnLoad(bin));
#endif

  std::vector<uint8_t> z(bytes);
  CHECK_ACL(aclrtMemcpy(z.data(), bytes, zDev, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
  if (!write_file(dir + "/output_z.bin", z.data(), bytes)) {
    std::fprintf(stderr, "cannot write %s/output_z.bin\n", dir.c_str());
    return 2;
  }
  CHECK_ACL(aclrtFree(xDev));
  CHECK_ACL(aclrtFree(yDev));
  CHECK_ACL(aclrtFree(zDev));
  CHECK_ACL(aclrtDestroyStream(stream));
  CHECK_ACL(aclrtResetDevice(0));
  CHECK_ACL(aclFinalize());
  std::printf("add_custom: %zu %s elements, blockDim %u: done\n", bytes / elem, fp32 ? "fp32" : "fp16", blockDim);
  return 0;
}
