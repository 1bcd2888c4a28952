/**
 * @file acl_rt_kernel.h
 * Kernel binaries and launches (aclrtBinaryLoadFromFile ... aclrtLaunchKernelWithConfig).
 * (owned by the executor; included at the end of acl_rt.h)
 */
#ifndef ACL_SIM_ACL_RT_KERNEL_H_
#define ACL_SIM_ACL_RT_KERNEL_H_

#include "acl_base.h"

#endif  // ACL_SIM_ACL_RT_KERNEL_H_
