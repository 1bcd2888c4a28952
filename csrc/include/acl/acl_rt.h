/**
 * @file acl_rt.h
 * (owned by the helper implementing this API; see DEVELOPERS.md)
 */
#ifndef ACL_SIM_ACL_RT_H_
#define ACL_SIM_ACL_RT_H_

#include "acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif

#include "acl_rt_kernel.h"

#endif  // ACL_SIM_ACL_RT_H_
