// Shape helpers (contract in shape.h).
#include "common/shape.h"

namespace acl_sim {

int64_t element_count(const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims) {
    if (d < 0) return 0;
    n *= d;
  }
  return n;
}

std::string dims_to_string(const std::vector<int64_t>& dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) s += (i ? "," : "") + std::to_string(dims[i]);
  return s + "]";
}

}  // namespace acl_sim
