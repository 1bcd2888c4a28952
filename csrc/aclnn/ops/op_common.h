// Shared vocabulary of the aclnn operators in this folder: operand views for the strided kernels,
// CANN's dtype promotion, broadcasting, and argument checks that throw ACLNN_ERR_PARAM_INVALID
// with a message naming the operator (GetWorkspaceSize time, so the caller gets the code).
#pragma once

#include <initializer_list>
#include <string>
#include <vector>

#include "aclnn/executor.h"
#include "aclnn/status.h"
#include "aclnn/tensor_arg.h"
#include "kernels/strided_view.h"

namespace acl_sim::aclnn {

/** The kernels' strided view of a tensor operand. */
kern::StridedView strided(const TensorArg& t);
/** The kernels' strided view of a dense buffer. */
kern::StridedView strided(const Dense& d);

/** CANN's promotion of two tensor dtypes: floats beat integers and bool, the wider type wins,
 *  float16 with bfloat16 gives float32. */
int promote_dtype(int a, int b);
/** The compute dtype of a tensor with a scalar operand: the tensor's, unless an integer tensor meets a
 *  floating scalar (then float32). */
int promote_with_scalar(int tensor_dtype, int scalar_dtype);

/** Numpy broadcast of two shapes; ACLNN_ERR_PARAM_INVALID naming @p op when they do not broadcast. */
std::vector<int64_t> broadcast_shapes(const char* op, const std::vector<int64_t>& a, const std::vector<int64_t>& b);
/** True when @p from broadcasts to exactly @p to. */
bool broadcasts_to(const std::vector<int64_t>& from, const std::vector<int64_t>& to);

/** A 0-d dense tensor holding @p v converted to @p dtype. */
Dense scalar_dense(double v, int dtype);

/** ACLNN_ERR_PARAM_INVALID unless t's dtype is one of @p allowed. */
void require_dtype(const char* op, const TensorArg& t, const char* what, std::initializer_list<int> allowed);
/** ACLNN_ERR_PARAM_INVALID unless t's shape is @p shape. */
void require_shape(const char* op, const TensorArg& t, const std::vector<int64_t>& shape, const char* what);
/** ACLNN_ERR_PARAM_INVALID unless t is a plain strided tensor (ND-like format, byte-sized dtype). */
void require_nd(const char* op, const TensorArg& t, const char* what);
/** A dim in [-rank, rank) normalised to [0, rank); ACLNN_ERR_PARAM_INVALID otherwise. */
int64_t normalize_dim(const char* op, int64_t dim, size_t rank, const char* what = "dim");

/** The floating dtypes most operators accept. */
inline constexpr std::initializer_list<int> kFloatTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

/** A Plan with no workspace whose work is @p run. */
template <class F>
Plan plan_of(F&& run) {
  Plan p;
  p.run = [f = std::forward<F>(run)](const RunContext&) { f(); };
  return p;
}

}  // namespace acl_sim::aclnn
