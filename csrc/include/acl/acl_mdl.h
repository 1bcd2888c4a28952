/**
 * @file acl_mdl.h
 * (owned by the helper implementing this API; see DEVELOPERS.md)
 */
#ifndef ACL_SIM_ACL_MDL_H_
#define ACL_SIM_ACL_MDL_H_

#include "acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif

#endif  // ACL_SIM_ACL_MDL_H_
