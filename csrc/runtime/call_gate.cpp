#include "runtime/call_gate.h"

#include <chrono>

#include "common/log.h"

namespace acl_sim {
namespace {
thread_local int t_depth = 0;          // Scopes open on this thread
thread_local bool t_closing = false;   // this thread runs close() (aclFinalize)
thread_local bool t_counted = false;   // the outermost Scope on this thread is in active_
}  // namespace

CallGate& CallGate::instance() {
  static CallGate* gate = new CallGate();  // never destroyed: calls may run during static destruction
  return *gate;
}

void CallGate::enter() {
  if (t_depth++ != 0) return;
  // seq_cst pairs with close(): either close() sees this call counted, or this call sees closed_.
  active_.fetch_add(1, std::memory_order_seq_cst);
  t_counted = true;
  if (closed_.load(std::memory_order_seq_cst) && !t_closing) {
    // Started after close(): it will be refused (require_initialized), so it is not waited for.
    // Counting it would let threads that keep calling starve aclFinalize.
    t_counted = false;
    release();
  }
}

void CallGate::leave() {
  if (--t_depth != 0 || !t_counted) return;
  t_counted = false;
  release();
}

void CallGate::release() {
  active_.fetch_sub(1, std::memory_order_seq_cst);
  if (closed_.load(std::memory_order_seq_cst)) {
    std::lock_guard<std::mutex> lock(mu_);
    idle_cv_.notify_all();
  }
}

bool CallGate::refusing() const { return !t_closing && closed_.load(std::memory_order_seq_cst); }

void CallGate::close() {
  t_closing = true;
  closed_.store(true, std::memory_order_seq_cst);
  const int64_t mine = t_counted ? 1 : 0;  // in case aclFinalize itself runs inside a Scope
  std::unique_lock<std::mutex> lock(mu_);
  auto waited = std::chrono::seconds(0);
  while (!idle_cv_.wait_for(lock, std::chrono::seconds(5),
                            [&] { return active_.load(std::memory_order_seq_cst) <= mine; })) {
    waited += std::chrono::seconds(5);
    ACL_SIM_LOG_WARN("RUNTIME", "aclFinalize: still waiting after ", waited.count(), " s for ",
                     active_.load() - mine, " API call(s) running on other threads");
  }
}

void CallGate::open() {
  closed_.store(false, std::memory_order_seq_cst);
  t_closing = false;
}

}  // namespace acl_sim
