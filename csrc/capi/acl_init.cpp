// aclInit / aclFinalize, versions and the SoC name.
#include "capi/rt_common.h"
#include "runtime/soc_profile.h"

using namespace acl_sim;
using namespace acl_sim::capi;

namespace {
// The AscendCL version acl_sim reports (CANN 8.0 era API surface).
constexpr int32_t kMajor = 1, kMinor = 0, kPatch = 0;

aclError get_version(const char* fn, int32_t* major, int32_t* minor, int32_t* patch) {
  return api_call(fn, [&] {
    require_not_null(major, "majorVersion");
    require_not_null(minor, "minorVersion");
    require_not_null(patch, "patchVersion");
    *major = kMajor;
    *minor = kMinor;
    *patch = kPatch;
  });
}
}  // namespace

extern "C" {

ACL_FUNC_VISIBILITY aclError aclInit(const char* configPath) {
  // A repeated aclInit keeps the first initialisation and returns ACL_ERROR_REPEAT_INITIALIZE: libraries that each
  // call aclInit (ggml-cann, torch_npu, an application) expect it and carry on, so CANN does not log it as an
  // error. acl_sim logs it as a WARNING (hidden at the default level 3, like CANN's own log line).
  aclError repeated = ACL_SUCCESS;
  aclError ret = api_call_ungated("aclInit", [&] {
    try {
      Runtime::get().init(configPath);
    } catch (const Error& e) {
      if (e.code() != ACL_ERROR_REPEAT_INITIALIZE) throw;
      repeated = record_failure("aclInit", e.code(), e.what(), log::kWarning);
    }
  });
  return repeated != ACL_SUCCESS ? repeated : ret;
}

ACL_FUNC_VISIBILITY aclError aclFinalize(void) {
  return api_call_ungated("aclFinalize", [&] { Runtime::get().finalize(); });
}

ACL_FUNC_VISIBILITY aclError aclrtGetVersion(int32_t* majorVersion, int32_t* minorVersion, int32_t* patchVersion) {
  return get_version("aclrtGetVersion", majorVersion, minorVersion, patchVersion);
}

ACL_FUNC_VISIBILITY aclError aclGetVersion(int32_t* majorVersion, int32_t* minorVersion, int32_t* patchVersion) {
  return get_version("aclGetVersion", majorVersion, minorVersion, patchVersion);
}

ACL_FUNC_VISIBILITY const char* aclrtGetSocName(void) {
  return api_value<const char*>("aclrtGetSocName", nullptr, [] { return current_soc().name; });
}

}  // extern "C"
