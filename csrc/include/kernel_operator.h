/**
 * @file kernel_operator.h
 * The Ascend C kernel-programming API for acl_sim: write a kernel as for the
 * NPU, compile it with g++ on the host (-I$(python -c "import acl_sim;
 * print(acl_sim.get_include())") -shared -fPIC), and launch it through the
 * runtime (aclrtBinaryLoadFromFile + aclrtLaunchKernelWithConfig) or link it
 * into the host program and use ACLRT_LAUNCH_KERNEL. See docs/kernel_programming.md.
 *
 *   extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR tiling);
 *
 * Blocks are logical: blockDim blocks run over the host thread pool, each
 * with its own UB arena sized by the SoC profile (192 KiB on Ascend910B1).
 */
#ifndef ACL_SIM_KERNEL_OPERATOR_H_
#define ACL_SIM_KERNEL_OPERATOR_H_

#include <cstdint>

/* NPU address-space and entry qualifiers: nothing on the CPU. */
#ifndef __global__
#define __global__
#endif
#ifndef __aicore__
#define __aicore__
#endif
#ifndef __gm__
#define __gm__
#endif
#ifndef __ubuf__
#define __ubuf__
#endif
#ifndef __inline__
#define __inline__ inline
#endif

/** Kernel parameters are GM byte addresses. */
#ifndef GM_ADDR
#define GM_ADDR uint8_t*
#endif

/* Kernel task-type declarations (KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY)) select the core
   type on the NPU; every block runs on the host pool here, so they compile to nothing. */
enum KernelMetaType {
  KERNEL_TYPE_AIV_ONLY,
  KERNEL_TYPE_AIC_ONLY,
  KERNEL_TYPE_MIX_AIV_1_0,
  KERNEL_TYPE_MIX_AIC_1_0,
  KERNEL_TYPE_MIX_AIC_1_1,
  KERNEL_TYPE_MIX_AIC_1_2,
  KERNEL_TYPE_AICORE,
  KERNEL_TYPE_VECTORCORE,
  KERNEL_TYPE_MIX_AICORE,
  KERNEL_TYPE_MIX_VECTOR_CORE,
  KERNEL_TYPE_MAX
};
#ifndef KERNEL_TASK_TYPE_DEFAULT
#define KERNEL_TASK_TYPE_DEFAULT(type) ((void)(type))
#endif
#ifndef KERNEL_TASK_TYPE
#define KERNEL_TASK_TYPE(key, type) ((void)(key), (void)(type))
#endif

#include "acl_sim/kernel/block_context.h"
#include "acl_sim/kernel/half.h"
#include "acl_sim/kernel/tensor.h"
#include "acl_sim/kernel/pipe.h"
#include "acl_sim/kernel/data_copy.h"
#include "acl_sim/kernel/vector_ops.h"
#include "acl_sim/kernel/tiling.h"
#include "acl_sim/kernel/host_launch.h"

#endif  // ACL_SIM_KERNEL_OPERATOR_H_
