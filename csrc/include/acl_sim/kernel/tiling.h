/**
 * @file tiling.h
 * Host-computed tiling: a plain struct the host fills and passes to the kernel
 * as its last GM_ADDR argument. The kernel copies it out of GM once
 * (on the NPU: a GM->UB copy plus a barrier; here: a memcpy).
 *
 *   struct AddTiling { uint32_t totalLength; uint32_t tileNum; };
 *   GET_TILING_DATA_WITH_STRUCT(AddTiling, t, tiling);   // declares `AddTiling t`
 *
 * Projects that define their own GET_TILING_DATA (as the CANN samples do in
 * <op>_tiling.h) can build it on CopyTiling.
 */
#ifndef ACL_SIM_KERNEL_TILING_H_
#define ACL_SIM_KERNEL_TILING_H_

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "acl_sim/kernel/block_context.h"

namespace AscendC {

/** Copy a tiling struct of type T out of GM; faults on a NULL pointer. */
template <class T>
inline void CopyTiling(T* dst, const uint8_t* tiling) {
  static_assert(std::is_trivially_copyable_v<T>, "tiling structs must be plain data");
  if (!tiling) detail::kernel_fault("the tiling pointer is NULL");
  std::memcpy(dst, tiling, sizeof(T));
}

}  // namespace AscendC

/** Declare `Type var` holding the tiling struct at GM address `tiling`. */
#define GET_TILING_DATA_WITH_STRUCT(Type, var, tiling) \
  Type var;                                          \
  ::AscendC::CopyTiling(&var, reinterpret_cast<const uint8_t*>(tiling))

#endif  // ACL_SIM_KERNEL_TILING_H_
