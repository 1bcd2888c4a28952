// Layout aclnn operators (aclnn/ops/layout.h): cast, copy, permute, slice, repeat, cat, pads, roll,
// tril / triu, arange.
#include "aclnn/ops/layout.h"
#include "aclnnop/aclnn_arange.h"
#include "aclnnop/aclnn_cast.h"
#include "aclnnop/aclnn_cat.h"
#include "aclnnop/aclnn_constant_pad_nd.h"
#include "aclnnop/aclnn_copy.h"
#include "aclnnop/aclnn_permute.h"
#include "aclnnop/aclnn_reflection_pad1d.h"
#include "aclnnop/aclnn_repeat.h"
#include "aclnnop/aclnn_repeat_interleave.h"
#include "aclnnop/aclnn_roll.h"
#include "aclnnop/aclnn_slice.h"
#include "aclnnop/aclnn_tril.h"
#include "aclnnop/aclnn_triu.h"
#include "capi/aclnn_guard.h"
#include "op/tensor_desc.h"

using namespace acl_sim::aclnn;

extern "C" {

ACLNN_OPERATOR(Cast, (const aclTensor* self, const aclDataType dtype, aclTensor* out), [&] {
  TensorArg o = tensor_arg(out, "out");
  ACLNN_REQUIRE(o.dtype == dtype, op, ": out has dtype ", acl_sim::dtype_name(o.dtype), ", dtype asks for ",
                acl_sim::dtype_name(dtype));
  TensorArg s = tensor_arg(self, "self");
  require_shape(op, o, s.shape, "out");
  return plan_copy(op, std::move(s), std::move(o));
}())
ACLNN_OPERATOR(InplaceCopy, (aclTensor* selfRef, const aclTensor* src),
               plan_copy(op, tensor_arg(src, "src"), tensor_arg(selfRef, "selfRef")))
ACLNN_OPERATOR(Permute, (const aclTensor* self, const aclIntArray* dims, aclTensor* out),
               plan_permute(op, tensor_arg(self, "self"), int_array_arg(dims, "dims"), tensor_arg(out, "out")))
ACLNN_OPERATOR(Slice, (const aclTensor* self, int64_t dim, int64_t start, int64_t end, int64_t step, aclTensor* out),
               plan_slice(op, tensor_arg(self, "self"), dim, start, end, step, tensor_arg(out, "out")))
ACLNN_OPERATOR(Repeat, (const aclTensor* self, const aclIntArray* repeats, aclTensor* out),
               plan_repeat(op, tensor_arg(self, "self"), int_array_arg(repeats, "repeats"), tensor_arg(out, "out")))
ACLNN_OPERATOR(RepeatInterleaveIntWithDim,
               (const aclTensor* self, int64_t repeats, int64_t dim, int64_t outputSize, aclTensor* out),
               plan_repeat_interleave(op, tensor_arg(self, "self"), repeats, dim, outputSize, tensor_arg(out, "out")))
ACLNN_OPERATOR(Cat, (const aclTensorList* tensors, int64_t dim, aclTensor* out),
               plan_cat(op, tensor_list_arg(tensors, "tensors"), dim, tensor_arg(out, "out")))
ACLNN_OPERATOR(ConstantPadNd, (const aclTensor* self, const aclIntArray* pad, const aclScalar* value, aclTensor* out),
               plan_constant_pad(op, tensor_arg(self, "self"), int_array_arg(pad, "pad"),
                                 scalar_arg(value, "value").value, tensor_arg(out, "out")))
ACLNN_OPERATOR(ReflectionPad1d, (const aclTensor* self, const aclIntArray* padding, aclTensor* out),
               plan_reflection_pad1d(op, tensor_arg(self, "self"), int_array_arg(padding, "padding"),
                                     tensor_arg(out, "out")))
ACLNN_OPERATOR(Roll, (const aclTensor* x, const aclIntArray* shifts, const aclIntArray* dims, aclTensor* out),
               plan_roll(op, tensor_arg(x, "x"), int_array_arg(shifts, "shifts"), int_array_arg(dims, "dims"),
                         tensor_arg(out, "out")))
ACLNN_OPERATOR(Tril, (const aclTensor* self, int64_t diagonal, aclTensor* out),
               plan_trilu(op, tensor_arg(self, "self"), diagonal, false, tensor_arg(out, "out")))
ACLNN_OPERATOR(InplaceTril, (aclTensor* selfRef, int64_t diagonal),
               plan_trilu(op, tensor_arg(selfRef, "selfRef"), diagonal, false, tensor_arg(selfRef, "selfRef")))
ACLNN_OPERATOR(Triu, (const aclTensor* self, int64_t diagonal, aclTensor* out),
               plan_trilu(op, tensor_arg(self, "self"), diagonal, true, tensor_arg(out, "out")))
ACLNN_OPERATOR(InplaceTriu, (aclTensor* selfRef, int64_t diagonal),
               plan_trilu(op, tensor_arg(selfRef, "selfRef"), diagonal, true, tensor_arg(selfRef, "selfRef")))
ACLNN_OPERATOR(Arange, (const aclScalar* start, const aclScalar* end, const aclScalar* step, aclTensor* out),
               plan_arange(op, scalar_arg(start, "start").value, scalar_arg(end, "end").value,
                           scalar_arg(step, "step").value, tensor_arg(out, "out")))

}  // extern "C"
