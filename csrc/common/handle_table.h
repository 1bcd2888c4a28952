// Live-handle validation. Every C handle (stream, event, context, data
// buffer, ...) is a pointer to a C++ object, but entry points look it up here
// before use, so a destroyed or random handle yields an error code instead of
// a crash. Objects are owned by shared_ptr: a caller that resolved a handle
// keeps the object alive even if another thread destroys it meanwhile.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace acl_sim {

template <class T>
class HandleTable {
 public:
  /** Register @p obj; its raw address becomes the handle. Thread-safe. */
  T* add(std::shared_ptr<T> obj) {
    T* raw = obj.get();
    std::lock_guard<std::mutex> lock(mu_);
    live_[static_cast<const void*>(raw)] = std::move(obj);
    return raw;
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

  /** Unregister and return the object (nullptr if it was not live). Thread-safe. */
  std::shared_ptr<T> remove(const void* handle) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = live_.find(handle);
    if (it == live_.end()) return nullptr;
    std::shared_ptr<T> obj = std::move(it->second);
    live_.erase(it);
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
    return out;
  }

  size_t size() const {
    std::lock_guard<std::mutex> lock(mu_);
    return live_.size();
  }

 private:
  mutable std::mutex mu_;
  std::unordered_map<const void*, std::shared_ptr<T>> live_;
};

}  // namespace acl_sim
