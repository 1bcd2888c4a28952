#include "executor/executor_observer.h"

namespace acl_sim {
namespace detail {
std::atomic<ExecutorObserver*> g_executor_observer{nullptr};
}

void set_executor_observer(ExecutorObserver* observer) {
  detail::g_executor_observer.store(observer, std::memory_order_release);
}

}  // namespace acl_sim
