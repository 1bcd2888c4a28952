/**
 * @file block_context.h
 * The per-block state a simulated AI core sees: block index and count, the
 * Unified Buffer arena, and the kernel's name for error messages.
 *
 * Why a C struct handed over at run time instead of symbols in libascendcl:
 * a kernel .so is compiled by g++ from this header alone and loaded with
 * dlopen(RTLD_LOCAL), so it cannot reach hidden symbols of libascendcl. The
 * header therefore defines one exported entry, acl_sim_kernel_enter_block(),
 * which the launcher finds with dlsym and calls on the worker thread before
 * each block; it installs the context in this module's thread-local slot.
 * Kernels linked straight into a host program (ACLRT_LAUNCH_KERNEL) pass the
 * same function by address.
 */
#ifndef ACL_SIM_KERNEL_BLOCK_CONTEXT_H_
#define ACL_SIM_KERNEL_BLOCK_CONTEXT_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
#include <stdexcept>
#include <string>
#include <type_traits>
#endif

/** Bumped whenever acl_sim_block_ctx changes layout; the launcher refuses other versions. */
#define ACL_SIM_KERNEL_ABI_VERSION 1u

#ifdef __cplusplus
extern "C" {
#endif

/** What one logical block runs with. Owned by the launcher; lives for the block. */
typedef struct acl_sim_block_ctx {
  uint32_t abi_version;     /* ACL_SIM_KERNEL_ABI_VERSION */
  uint32_t block_idx;       /* GetBlockIdx() */
  uint32_t block_num;       /* GetBlockNum() */
  uint32_t reserved0;
  uint8_t* ub_base;         /* start of this core's UB arena, 64-byte aligned */
  size_t ub_size;           /* the SoC profile's UB size in bytes */
  size_t ub_used;           /* bytes handed out by TPipe::InitBuffer so far */
  const char* kernel_name;  /* for messages */
  const char* soc_name;     /* for messages */
  /** Report a kernel fault: throws acl_sim::Error(code, message) out of the block; never returns. */
  void (*fail)(int code, const char* message);
} acl_sim_block_ctx;

/** Signature of the exported hook: install @p ctx for the calling thread, return the previous one. */
typedef acl_sim_block_ctx* (*acl_sim_enter_block_fn)(acl_sim_block_ctx* ctx);

#ifdef __cplusplus
}  // extern "C"

namespace AscendC {
namespace detail {

/** This module's per-thread current block (nullptr outside a launch). */
__attribute__((visibility("hidden"))) inline thread_local acl_sim_block_ctx* t_block = nullptr;

/** The AI-core fault code the runtime reports at synchronize (ACL_ERROR_RT_AICORE_EXCEPTION). */
constexpr int kAicoreException = 507015;

/** Concatenate values into a message. */
inline void append(std::string&) {}
template <class T, class... R>
void append(std::string& s, const T& v, const R&... rest) {
  if constexpr (std::is_convertible_v<const T&, std::string>) {
    s += std::string(v);
  } else {
    s += std::to_string(v);
  }
  append(s, rest...);
}

/** Fail the running block with a message that names the kernel. Never returns. */
template <class... A>
[[noreturn]] void kernel_fault(const A&... parts) {
  std::string msg;
  acl_sim_block_ctx* c = t_block;
  append(msg, "kernel '", (c && c->kernel_name) ? c->kernel_name : "?", "': ", parts...);
  if (c && c->fail) c->fail(kAicoreException, msg.c_str());
  // Outside a launch (kernel called directly on the host) there is no runtime to report to.
  throw std::logic_error(msg);
}

/** The current block; calling kernel API outside a launch is a fault. */
inline acl_sim_block_ctx& block() {
  acl_sim_block_ctx* c = t_block;
  if (!c) throw std::logic_error("acl_sim kernel API used outside a kernel launch");
  if (c->abi_version != ACL_SIM_KERNEL_ABI_VERSION) {
    throw std::logic_error("kernel built against another acl_sim kernel ABI (rebuild it with this acl_sim's headers)");
  }
  return *c;
}

}  // namespace detail

/** Index of the running block in [0, GetBlockNum()). */
inline int64_t GetBlockIdx() { return static_cast<int64_t>(detail::block().block_idx); }
/** blockDim of the running launch. */
inline int64_t GetBlockNum() { return static_cast<int64_t>(detail::block().block_num); }

}  // namespace AscendC

/* One definition per module (inline = COMDAT), exported so the launcher can dlsym it. */
extern "C" __attribute__((visibility("default"), used)) inline acl_sim_block_ctx* acl_sim_kernel_enter_block(
    acl_sim_block_ctx* ctx) {
  acl_sim_block_ctx* prev = AscendC::detail::t_block;
  AscendC::detail::t_block = ctx;
  return prev;
}
#endif  // __cplusplus

#endif  // ACL_SIM_KERNEL_BLOCK_CONTEXT_H_
