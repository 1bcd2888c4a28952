// Live-handle tables. Every C handle (stream, event, context, data buffer,
// dataset, descriptor, ...) is an opaque id issued here, not the address of
// the C++ object behind it:
//  - ids come from one process-wide counter and are never reused, so a
//    destroyed handle keeps giving the documented error code forever and a
//    stale handle can never resolve to an object created later (with raw
//    addresses, a freed object's address is soon reused by the allocator);
//  - one counter for every table, so a handle of one kind passed where another
//    is expected (a stream as an event) resolves to nothing;
//  - ids are non-canonical x86-64 addresses (bit 52 set), so code that
//    dereferences a handle instead of resolving it faults at once in tests.
// Generation-tagged ids were chosen over quarantining freed objects because
// quarantine either leaks or reuses addresses eventually; a 64-bit counter
// does neither. Objects are owned by shared_ptr: a caller that resolved a
// handle keeps the object alive even if another thread destroys it meanwhile.
// Device pointers (aclrtMalloc) are not handles: they stay raw addresses, as in
// CANN, so freeing a pointer twice after its range was reused is not detected.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "common/export.h"

namespace acl_sim {

/** A fresh handle value: unique for the process lifetime, never NULL, never dereferenceable. Thread-safe. */
ACL_SIM_EXPORT uintptr_t next_handle_value();

template <class T>
class HandleTable {
 public:
  /** Register @p obj under a fresh handle and return it. Thread-safe. */
  T* add(std::shared_ptr<T> obj) {
    T* handle = reinterpret_cast<T*>(next_handle_value());
    std::lock_guard<std::mutex> lock(mu_);
    by_object_[obj.get()] = handle;
    live_[handle] = std::move(obj);
    return handle;
  }

  /** The live object for @p handle, or nullptr (unknown, destroyed, NULL). Thread-safe. */
  std::shared_ptr<T> find(const void* handle) const {
    if (!handle) return nullptr;
    std::lock_guard<std::mutex> lock(mu_);
    auto it = live_.find(handle);
    return it == live_.end() ? nullptr : it->second;
  }

  bool contains(const void* handle) const {
    std::lock_guard<std::mutex> lock(mu_);
    return live_.count(handle) != 0;
  }

  /** The handle under which @p obj is registered, or nullptr. Thread-safe. */
  T* handle_of(const T* obj) const {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = by_object_.find(obj);
    return it == by_object_.end() ? nullptr : it->second;
  }

  /** Unregister and return the object (nullptr if it was not live). Thread-safe. */
  std::shared_ptr<T> remove(const void* handle) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = live_.find(handle);
    if (it == live_.end()) return nullptr;
    std::shared_ptr<T> obj = std::move(it->second);
    live_.erase(it);
    by_object_.erase(obj.get());
    return obj;
  }

  /** All live objects, in no particular order. */
  std::vector<std::shared_ptr<T>> snapshot() const {
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<std::shared_ptr<T>> out;
    out.reserve(live_.size());
    for (const auto& kv : live_) out.push_back(kv.second);
    return out;
  }

  /** Remove every object and return them (used by aclFinalize). */
  std::vector<std::shared_ptr<T>> clear() {
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<std::shared_ptr<T>> out;
    out.reserve(live_.size());
    for (auto& kv : live_) out.push_back(std::move(kv.second));
    live_.clear();
    by_object_.clear();
    return out;
  }

  size_t size() const {
    std::lock_guard<std::mutex> lock(mu_);
    return live_.size();
  }

 private:
  mutable std::mutex mu_;
  std::unordered_map<const void*, std::shared_ptr<T>> live_;
  std::unordered_map<const T*, T*> by_object_;
};

}  // namespace acl_sim
