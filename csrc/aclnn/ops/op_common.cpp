#include "aclnn/ops/op_common.h"

#include <algorithm>

#include "kernels/elementwise_common.h"
#include "op/tensor_desc.h"

namespace acl_sim::aclnn {

kern::StridedView strided(const TensorArg& t) {
  return kern::StridedView{t.data, t.dtype, t.shape, t.strides, t.offset};
}

kern::StridedView strided(const Dense& d) { return kern::strided_of(d.view()); }

namespace {

int rank_of(int dt) {
  switch (dt) {
    case ACL_BOOL: return 0;
    case ACL_UINT8: return 1;
    case ACL_INT8: return 2;
    case ACL_INT16: return 3;
    case ACL_INT32: return 4;
    case ACL_INT64: return 5;
    case ACL_FLOAT16: return 6;
    case ACL_BF16: return 6;
    case ACL_FLOAT: return 7;
    case ACL_DOUBLE: return 8;
    default: return -1;
  }
}

}  // namespace

int promote_dtype(int a, int b) {
  if (a == b) return a;
  if ((a == ACL_FLOAT16 && b == ACL_BF16) || (a == ACL_BF16 && b == ACL_FLOAT16)) return ACL_FLOAT;
  if (a == ACL_UINT8 && b == ACL_INT8) return ACL_INT16;
  if (a == ACL_INT8 && b == ACL_UINT8) return ACL_INT16;
  return rank_of(a) >= rank_of(b) ? a : b;
}

int promote_with_scalar(int tensor_dtype, int scalar_dtype) {
  if (!is_float_dtype(tensor_dtype) && is_float_dtype(scalar_dtype)) return ACL_FLOAT;
  if (tensor_dtype == ACL_BOOL && scalar_dtype != ACL_BOOL) return scalar_dtype == ACL_INT64 ? ACL_INT64 : scalar_dtype;
  return tensor_dtype;
}

std::vector<int64_t> broadcast_shapes(const char* op, const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  const size_t r = std::max(a.size(), b.size());
  std::vector<int64_t> out(r, 1);
  for (size_t i = 0; i < r; ++i) {
    int64_t x = i < r - a.size() ? 1 : a[i - (r - a.size())];
    int64_t y = i < r - b.size() ? 1 : b[i - (r - b.size())];
    ACLNN_REQUIRE(x == y || x == 1 || y == 1, op, ": shapes ", dims_to_string(a), " and ", dims_to_string(b),
                  " do not broadcast");
    out[i] = x == 1 ? y : x;
  }
  return out;
}

bool broadcasts_to(const std::vector<int64_t>& from, const std::vector<int64_t>& to) {
  if (from.size() > to.size()) {
    for (size_t i = 0; i < from.size() - to.size(); ++i)
      if (from[i] != 1) return false;
  }
  for (size_t i = 0; i < std::min(from.size(), to.size()); ++i) {
    int64_t f = from[from.size() - 1 - i], t = to[to.size() - 1 - i];
    if (f != t && f != 1) return false;
  }
  return true;
}

Dense scalar_dense(double v, int dtype) {
  Dense d(dtype, {});
  kern::dispatch_dtype(dtype, "aclnn scalar", [&](auto tag) {
    using T = decltype(tag);
    kern::store_from_double(static_cast<T*>(d.data()), v);
  });
  return d;
}

void require_dtype(const char* op, const TensorArg& t, const char* what, std::initializer_list<int> allowed) {
  ACLNN_REQUIRE(std::find(allowed.begin(), allowed.end(), static_cast<int>(t.dtype)) != allowed.end(), op, ": ", what,
                " dtype ", dtype_name(t.dtype), " is not supported");
}

void require_shape(const char* op, const TensorArg& t, const std::vector<int64_t>& shape, const char* what) {
  ACLNN_REQUIRE(t.shape == shape, op, ": ", what, " has shape ", dims_to_string(t.shape), ", expected ",
                dims_to_string(shape));
}

void require_nd(const char* op, const TensorArg& t, const char* what) {
  ACLNN_REQUIRE(t.elem_bytes() != 0, op, ": ", what, " dtype ", dtype_name(t.dtype),
                " is not supported (packed sub-byte types only as matmul weights)");
}

int64_t normalize_dim(const char* op, int64_t dim, size_t rank, const char* what) {
  const int64_t r = static_cast<int64_t>(std::max<size_t>(rank, 1));
  ACLNN_REQUIRE(dim >= -r && dim < r, op, ": ", what, " ", dim, " is out of range for rank ", rank);
  return dim < 0 ? dim + r : dim;
}

}  // namespace acl_sim::aclnn
