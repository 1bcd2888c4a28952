// Elementwise arithmetic aclnn operators (aclnn/ops/arith.h): add, sub, mul, div, pow, comparisons,
// clamp, threshold, fills, each with its scalar and in-place forms; Addcdiv, InplaceMaskedFillScalar.
#include "aclnn/ops/arith.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_addcdiv.h"
#include "aclnnop/aclnn_clamp.h"
#include "aclnnop/aclnn_div.h"
#include "aclnnop/aclnn_eq_tensor.h"
#include "aclnnop/aclnn_fill_scalar.h"
#include "aclnnop/aclnn_gt_scalar.h"
#include "aclnnop/aclnn_masked_fill_scalar.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnnop/aclnn_pow.h"
#include "aclnnop/aclnn_pow_tensor_tensor.h"
#include "aclnnop/aclnn_sub.h"
#include "aclnnop/aclnn_threshold.h"
#include "aclnnop/aclnn_zero.h"
#include "capi/aclnn_guard.h"

using namespace acl_sim::aclnn;

namespace {

Operand T(const aclTensor* t, const char* what) { return Operand::of(tensor_arg(t, what)); }
Operand S(const aclScalar* s, const char* what) { return Operand::of(scalar_arg(s, what)); }
double value_of(const aclScalar* s, const char* what) { return scalar_arg(s, what).value; }

}  // namespace

extern "C" {

ACLNN_OPERATOR(Add, (const aclTensor* self, const aclTensor* other, const aclScalar* alpha, aclTensor* out),
               plan_binary(op, "Add", T(self, "self"), T(other, "other"), value_of(alpha, "alpha"), tensor_arg(out, "out")))
ACLNN_OPERATOR(InplaceAdd, (aclTensor* selfRef, const aclTensor* other, const aclScalar* alpha),
               plan_binary(op, "Add", T(selfRef, "selfRef"), T(other, "other"), value_of(alpha, "alpha"),
                           tensor_arg(selfRef, "selfRef")))
ACLNN_OPERATOR(Adds, (const aclTensor* self, const aclScalar* other, const aclScalar* alpha, aclTensor* out),
               plan_binary(op, "Add", T(self, "self"), S(other, "other"), value_of(alpha, "alpha"), tensor_arg(out, "out")))
ACLNN_OPERATOR(InplaceAdds, (aclTensor* selfRef, const aclScalar* other, const aclScalar* alpha),
               plan_binary(op, "Add", T(selfRef, "selfRef"), S(other, "other"), value_of(alpha, "alpha"),
                           tensor_arg(selfRef, "selfRef")))

ACLNN_OPERATOR(Sub, (const aclTensor* self, const aclTensor* other, const aclScalar* alpha, aclTensor* out),
               plan_binary(op, "Sub", T(self, "self"), T(other, "other"), value_of(alpha, "alpha"), tensor_arg(out, "out")))
ACLNN_OPERATOR(InplaceSub, (aclTensor* selfRef, const aclTensor* other, const aclScalar* alpha),
               plan_binary(op, "Sub", T(selfRef, "selfRef"), T(other, "other"), value_of(alpha, "alpha"),
                           tensor_arg(selfRef, "selfRef")))
ACLNN_OPERATOR(Subs, (const aclTensor* self, const aclScalar* other, const aclScalar* alpha, aclTensor* out),
               plan_binary(op, "Sub", T(self, "self"), S(other, "other"), value_of(alpha, "alpha"), tensor_arg(out, "out")))
ACLNN_OPERATOR(InplaceSubs, (aclTensor* selfRef, const aclScalar* other, const aclScalar* alpha),
               plan_binary(op, "Sub", T(selfRef, "selfRef"), S(other, "other"), value_of(alpha, "alpha"),
                           tensor_arg(selfRef, "selfRef")))

ACLNN_OPERATOR(Mul, (const aclTensor* self, const aclTensor* other, aclTensor* out),
               plan_binary(op, "Mul", T(self, "self"), T(other, "other"), 1.0, tensor_arg(out, "out")))
ACLNN_OPERATOR(InplaceMul, (aclTensor* selfRef, const aclTensor* other),
               plan_binary(op, "Mul", T(selfRef, "selfRef"), T(other, "other"), 1.0, tensor_arg(selfRef, "selfRef")))
ACLNN_OPERATOR(Muls, (const aclTensor* self, const aclScalar* other, aclTensor* out),
               plan_binary(op, "Mul", T(self, "self"), S(other, "other"), 1.0, tensor_arg(out, "out")))
ACLNN_OPERATOR(InplaceMuls, (aclTensor* selfRef, const aclScalar* other),
               plan_binary(op, "Mul", T(selfRef, "selfRef"), S(other, "other"), 1.0, tensor_arg(selfRef, "selfRef")))

ACLNN_OPERATOR(Div, (const aclTensor* self, const aclTensor* other, aclTensor* out),
               plan_binary(op, "Div", T(self, "self"), T(other, "other"), 1.0, tensor_arg(out, "out")))
ACLNN_OPERATOR(InplaceDiv, (aclTensor* selfRef, const aclTensor* other),
               plan_binary(op, "Div", T(selfRef, "selfRef"), T(other, "other"), 1.0, tensor_arg(selfRef, "selfRef")))
ACLNN_OPERATOR(Divs, (const aclTensor* self, const aclScalar* other, aclTensor* out),
               plan_binary(op, "Div", T(self, "self"), S(other, "other"), 1.0, tensor_arg(out, "out")))
ACLNN_OPERATOR(InplaceDivs, (aclTensor* selfRef, const aclScalar* other),
               plan_binary(op, "Div", T(selfRef, "selfRef"), S(other, "other"), 1.0, tensor_arg(selfRef, "selfRef")))

ACLNN_OPERATOR(PowTensorScalar, (const aclTensor* self, const aclScalar* exponent, aclTensor* out),
               plan_binary(op, "Pow", T(self, "self"), S(exponent, "exponent"), 1.0, tensor_arg(out, "out")))
ACLNN_OPERATOR(InplacePowTensorScalar, (aclTensor* selfRef, const aclScalar* exponent),
               plan_binary(op, "Pow", T(selfRef, "selfRef"), S(exponent, "exponent"), 1.0, tensor_arg(selfRef, "selfRef")))
ACLNN_OPERATOR(PowScalarTensor, (const aclScalar* self, const aclTensor* exponent, aclTensor* out),
               plan_binary(op, "Pow", S(self, "self"), T(exponent, "exponent"), 1.0, tensor_arg(out, "out")))
ACLNN_OPERATOR(PowTensorTensor, (const aclTensor* self, const aclTensor* exponent, aclTensor* out),
               plan_binary(op, "Pow", T(self, "self"), T(exponent, "exponent"), 1.0, tensor_arg(out, "out")))
ACLNN_OPERATOR(InplacePowTensorTensor, (aclTensor* selfRef, const aclTensor* exponent),
               plan_binary(op, "Pow", T(selfRef, "selfRef"), T(exponent, "exponent"), 1.0, tensor_arg(selfRef, "selfRef")))

ACLNN_OPERATOR(EqTensor, (const aclTensor* self, const aclTensor* other, aclTensor* out),
               plan_binary(op, "Equal", T(self, "self"), T(other, "other"), 1.0, tensor_arg(out, "out")))
ACLNN_OPERATOR(GtScalar, (const aclTensor* self, const aclScalar* other, aclTensor* out),
               plan_binary(op, "Greater", T(self, "self"), S(other, "other"), 1.0, tensor_arg(out, "out")))

ACLNN_OPERATOR(Clamp, (const aclTensor* self, const aclScalar* clipValueMin, const aclScalar* clipValueMax, aclTensor* out),
               [&] {
                 ScalarArg lo = optional_scalar_arg(clipValueMin, "clipValueMin");
                 ScalarArg hi = optional_scalar_arg(clipValueMax, "clipValueMax");
                 ACLNN_REQUIRE(lo.present || hi.present, op, ": clipValueMin and clipValueMax are both NULL");
                 return plan_clamp(op, tensor_arg(self, "self"), &lo, &hi, tensor_arg(out, "out"));
               }())
ACLNN_OPERATOR(ClampMin, (const aclTensor* self, const aclScalar* clipValueMin, aclTensor* out), [&] {
  ScalarArg lo = scalar_arg(clipValueMin, "clipValueMin");
  return plan_clamp(op, tensor_arg(self, "self"), &lo, nullptr, tensor_arg(out, "out"));
}())
ACLNN_OPERATOR(ClampMax, (const aclTensor* self, const aclScalar* clipValueMax, aclTensor* out), [&] {
  ScalarArg hi = scalar_arg(clipValueMax, "clipValueMax");
  return plan_clamp(op, tensor_arg(self, "self"), nullptr, &hi, tensor_arg(out, "out"));
}())
ACLNN_OPERATOR(InplaceClampMax, (aclTensor* selfRef, const aclScalar* clipValueMax), [&] {
  ScalarArg hi = scalar_arg(clipValueMax, "clipValueMax");
  return plan_clamp(op, tensor_arg(selfRef, "selfRef"), nullptr, &hi, tensor_arg(selfRef, "selfRef"));
}())

ACLNN_OPERATOR(Threshold, (const aclTensor* self, const aclScalar* threshold, const aclScalar* value, aclTensor* out),
               plan_threshold(op, tensor_arg(self, "self"), value_of(threshold, "threshold"), value_of(value, "value"),
                              tensor_arg(out, "out")))
ACLNN_OPERATOR(InplaceThreshold, (aclTensor* selfRef, const aclScalar* threshold, const aclScalar* value),
               plan_threshold(op, tensor_arg(selfRef, "selfRef"), value_of(threshold, "threshold"),
                              value_of(value, "value"), tensor_arg(selfRef, "selfRef")))

ACLNN_OPERATOR(InplaceFillScalar, (aclTensor* selfRef, const aclScalar* value),
               plan_fill(op, tensor_arg(selfRef, "selfRef"), value_of(value, "value")))
ACLNN_OPERATOR(InplaceZero, (aclTensor* selfRef), plan_fill(op, tensor_arg(selfRef, "selfRef"), 0.0))
ACLNN_OPERATOR(InplaceMaskedFillScalar, (aclTensor* selfRef, const aclTensor* mask, const aclScalar* value),
               plan_masked_fill(op, tensor_arg(selfRef, "selfRef"), tensor_arg(mask, "mask"), scalar_arg(value, "value")))

ACLNN_OPERATOR(Addcdiv, (const aclTensor* self, const aclTensor* tensor1, const aclTensor* tensor2, const aclScalar* value,
                         aclTensor* out),
               plan_addcdiv(op, tensor_arg(self, "self"), tensor_arg(tensor1, "tensor1"), tensor_arg(tensor2, "tensor2"),
                            value_of(value, "value"), tensor_arg(out, "out")))

}  // extern "C"
