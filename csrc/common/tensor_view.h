// A dense, row-major tensor at an address: the one tensor type the kernels,
// the model executor, aclop, aclnn and the dump all pass around. It owns
// nothing; the address is device (or host) memory someone else keeps alive.
#pragma once

#include <cstdint>
#include <vector>

namespace acl_sim {

/** dtype is an aclDataType number; shape is row-major and dense. */
struct TensorView {
  void* data = nullptr;  // nullptr: an absent optional input
  int dtype = 0;
  std::vector<int64_t> shape;

  int64_t numel() const {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    return n;
  }
  bool present() const { return data != nullptr; }
};

}  // namespace acl_sim
