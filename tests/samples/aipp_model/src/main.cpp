// AIPP in the shape of CANN's inference samples: a static-AIPP model fed a raw
// BGR image, and a dynamic-AIPP model whose YUV420SP (NV12) preprocessing is set
// with aclmdlCreateAIPP + setters + aclmdlSetInputAIPP.
// usage: aipp_model <dir> <static.om> <dynamic.om>; reads <dir>/bgr.bin and
// <dir>/nv12.bin, writes <dir>/out_static.bin and <dir>/out_dynamic.bin.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "acl/acl.h"

#define CHECK(expr)                                                                       \
  do {                                                                                    \
    aclError ret_ = (expr);                                                               \
    if (ret_ != ACL_SUCCESS) {                                                            \
      std::printf("FAILED %s: %d %s\n", #expr, ret_, aclGetRecentErrMsg());               \
      std::exit(1);                                                                       \
    }                                                                                     \
  } while (0)

static std::string g_dir;

static std::vector<char> read_bin(const std::string& name) {
  FILE* f = std::fopen((g_dir + "/" + name).c_str(), "rb");
  if (!f) std::exit(3);
  std::vector<char> data;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof(buf), f)) > 0) data.insert(data.end(), buf, buf + n);
  std::fclose(f);
  return data;
}

struct Run {
  uint32_t id = 0;
  aclmdlDesc* desc = nullptr;
  aclmdlDataset* in = nullptr;
  aclmdlDataset* out = nullptr;
  std::vector<void*> mem;
};

static Run load(const char* path, const std::vector<char>& image) {
  Run r;
  CHECK(aclmdlLoadFromFile(path, &r.id));
  r.desc = aclmdlCreateDesc();
  CHECK(aclmdlGetDesc(r.desc, r.id));
  r.in = aclmdlCreateDataset();
  for (size_t i = 0; i < aclmdlGetNumInputs(r.desc); ++i) {
    size_t size = aclmdlGetInputSizeByIndex(r.desc, i);
    void* dev = nullptr;
    CHECK(aclrtMalloc(&dev, size, ACL_MEM_MALLOC_HUGE_FIRST));
    if (i == 0) CHECK(aclrtMemcpy(dev, size, image.data(), image.size(), ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclmdlAddDatasetBuffer(r.in, aclCreateDataBuffer(dev, size)));
    r.mem.push_back(dev);
  }
  r.out = aclmdlCreateDataset();
  size_t osize = aclmdlGetOutputSizeByIndex(r.desc, 0);
  void* dev = nullptr;
  CHECK(aclrtMalloc(&dev, osize, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclmdlAddDatasetBuffer(r.out, aclCreateDataBuffer(dev, osize)));
  r.mem.push_back(dev);
  return r;
}

static void finish(Run& r, const char* out_name) {
  CHECK(aclmdlExecute(r.id, r.in, r.out));
  size_t osize = aclmdlGetOutputSizeByIndex(r.desc, 0);
  std::vector<char> host(osize);
  CHECK(aclrtMemcpy(host.data(), osize, r.mem.back(), osize, ACL_MEMCPY_DEVICE_TO_HOST));
  FILE* f = std::fopen((g_dir + "/" + out_name).c_str(), "wb");
  std::fwrite(host.data(), 1, osize, f);
  std::fclose(f);
  for (aclmdlDataset* ds : {r.in, r.out}) {
    for (size_t i = 0; i < aclmdlGetDatasetNumBuffers(ds); ++i) aclDestroyDataBuffer(aclmdlGetDatasetBuffer(ds, i));
    aclmdlDestroyDataset(ds);
  }
  for (void* p : r.mem) aclrtFree(p);
  aclmdlDestroyDesc(r.desc);
  CHECK(aclmdlUnload(r.id));
}

int main(int argc, char** argv) {
  if (argc != 4) return 2;
  g_dir = argv[1];
  CHECK(aclInit(nullptr));
  CHECK(aclrtSetDevice(0));

  Run s = load(argv[2], read_bin("bgr.bin"));
  aclmdlInputAippType type;
  size_t attached = 0;
  CHECK(aclmdlGetAippType(s.id, 0, &type, &attached));
  aclAippInfo info;
  CHECK(aclmdlGetFirstAippInfo(s.id, 0, &info));
  aclmdlIODims dims, dims2;
  CHECK(aclmdlGetInputDims(s.desc, 0, &dims));
  CHECK(aclmdlGetInputDimsV2(s.desc, 0, &dims2));
  std::printf("static type=%d format=%d src=%dx%d dims=%ld,%ld,%ld,%ld\n", int(type), int(info.inputFormat),
              info.srcImageSizeW, info.srcImageSizeH, long(dims.dims[0]), long(dims.dims[1]), long(dims.dims[2]),
              long(dims.dims[3]));
  finish(s, "out_static.bin");

  Run d = load(argv[3], read_bin("nv12.bin"));
  size_t index = 0, need = 0;
  CHECK(aclmdlGetInputIndexByName(d.desc, ACL_DYNAMIC_AIPP_NAME, &index));
  CHECK(aclmdlGetAippDataSize(1, &need));
  aclmdlAIPP* aipp = aclmdlCreateAIPP(1);
  CHECK(aclmdlSetAIPPInputFormat(aipp, ACL_YUV420SP_U8));
  CHECK(aclmdlSetAIPPSrcImageSize(aipp, 16, 12));
  CHECK(aclmdlSetAIPPCscParams(aipp, 1, 298, 0, 409, 298, -100, -208, 298, 516, 0, 16, 128, 128, 16, 128, 128));
  CHECK(aclmdlSetAIPPCropParams(aipp, 1, 2, 2, 8, 8, 0));
  CHECK(aclmdlSetAIPPDtcPixelMean(aipp, 100, 110, 120, 0, 0));
  CHECK(aclmdlSetAIPPPixelVarReci(aipp, 0.0078125f, 0.0078125f, 0.0078125f, 1.0f, 0));
  CHECK(aclmdlSetInputAIPP(d.id, d.in, index, aipp));
  // A crop outside the source is refused when the parameters are set on the model.
  CHECK(aclmdlSetAIPPCropParams(aipp, 1, 10, 2, 8, 8, 0));
  aclError bad = aclmdlSetInputAIPP(d.id, d.in, index, aipp);
  std::printf("dynamic index=%zu size=%zu bad_crop=%d\n", index, need, bad);
  CHECK(aclmdlDestroyAIPP(aipp));
  finish(d, "out_dynamic.bin");

  CHECK(aclrtResetDevice(0));
  CHECK(aclFinalize());
  std::printf("aipp sample done\n");
  return 0;
}
