/**
 * @file acl_meta.h
 * CANN splits the descriptor API over acl_meta.h and aclnn_base.h; acl_sim declares it once, in
 * aclnn_base.h, and this header only includes it.
 */
#ifndef ACL_SIM_ACLNN_ACL_META_H_
#define ACL_SIM_ACLNN_ACL_META_H_
#include "aclnn/aclnn_base.h"
#endif  // ACL_SIM_ACLNN_ACL_META_H_
