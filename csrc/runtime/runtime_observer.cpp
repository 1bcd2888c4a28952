#include "runtime/runtime_observer.h"

namespace acl_sim {
namespace detail {
std::atomic<RuntimeObserver*> g_runtime_observer{nullptr};
}

void set_runtime_observer(RuntimeObserver* observer) {
  detail::g_runtime_observer.store(observer, std::memory_order_release);
}

}  // namespace acl_sim
