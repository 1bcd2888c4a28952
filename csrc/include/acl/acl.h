/**
 * @file acl.h
 * AscendCL umbrella header: init/finalize, version, and the rt, op and mdl APIs.
 */
#ifndef ACL_SIM_ACL_H_
#define ACL_SIM_ACL_H_

#include "acl_base.h"
#include "acl_rt.h"
#include "acl_op.h"
#include "acl_mdl.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ACL_PKG_VERSION_MAX_SIZE 128
#define ACL_PKG_VERSION_PARTS_MAX_SIZE 64

/**
 * Initialise the process-wide runtime. @p configPath may be NULL, "" or a JSON
 * file (keys: dump, profiler, max_opqueue_num, err_msg_mode).
 * A second call returns ACL_ERROR_REPEAT_INITIALIZE.
 */
ACL_FUNC_VISIBILITY aclError aclInit(const char *configPath);
/** Wait for queued work, join workers, report leaks. A second call returns ACL_ERROR_REPEAT_FINALIZE. */
ACL_FUNC_VISIBILITY aclError aclFinalize(void);
ACL_FUNC_VISIBILITY aclError aclrtGetVersion(int32_t *majorVersion, int32_t *minorVersion, int32_t *patchVersion);

#ifdef __cplusplus
}
#endif

#endif  // ACL_SIM_ACL_H_
