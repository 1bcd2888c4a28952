// The uniform trampoline: a kernel entry takes N pointer/integer parameters,
// and under the x86-64 SysV and AArch64 AAPCS64 ABIs such a function can be
// called as void(uint64_t x N): each parameter occupies one integer register
// or one 8-byte stack slot, and narrower integers read the low bits. A table
// of N-ary call thunks, generated once, selects the right arity.
#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "common/error.h"
#include "common/error_codes.h"
#include "executor/block_launch.h"

namespace acl_sim {
namespace {

using Thunk = void (*)(void*, const uint64_t*);

template <size_t I>
using slot_t = uint64_t;

template <size_t... I>
void call_n(void* entry, const uint64_t* s, std::index_sequence<I...>) {
  using Fn = void (*)(slot_t<I>...);
  reinterpret_cast<Fn>(entry)(s[I]...);
}

template <size_t N>
void thunk(void* entry, const uint64_t* s) {
  call_n(entry, s, std::make_index_sequence<N>{});
}

template <size_t... N>
constexpr std::array<Thunk, sizeof...(N)> make_table(std::index_sequence<N...>) {
  return {&thunk<N>...};
}

constexpr auto kThunks = make_table(std::make_index_sequence<kMaxKernelArgs + 1>{});

}  // namespace

void invoke_kernel_entry(void* entry, const uint64_t* slots, size_t n) {
  if (n > kMaxKernelArgs) fail(ACL_ERROR_RT_PARAM_INVALID, "a kernel takes at most ", kMaxKernelArgs, " parameters, got ", n);
  kThunks[n](entry, slots);
}

}  // namespace acl_sim
