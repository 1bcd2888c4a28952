// Unary and activation aclnn operators: one ONNX kernel each (aclnn/ops/unary.h) or a composite
// (aclnn/ops/activation.h).
#include "aclnn/ops/activation.h"
#include "aclnn/ops/unary.h"
#include "aclnnop/aclnn_cos.h"
#include "aclnnop/aclnn_elu.h"
#include "aclnnop/aclnn_exp.h"
#include "aclnnop/aclnn_geglu.h"
#include "aclnnop/aclnn_gelu.h"
#include "aclnnop/aclnn_gelu_v2.h"
#include "aclnnop/aclnn_hardsigmoid.h"
#include "aclnnop/aclnn_hardswish.h"
#include "aclnnop/aclnn_leaky_relu.h"
#include "aclnnop/aclnn_log.h"
#include "aclnnop/aclnn_logical_not.h"
#include "aclnnop/aclnn_neg.h"
#include "aclnnop/aclnn_relu.h"
#include "aclnnop/aclnn_sigmoid.h"
#include "aclnnop/aclnn_sign.h"
#include "aclnnop/aclnn_silu.h"
#include "aclnnop/aclnn_sin.h"
#include "aclnnop/aclnn_softplus.h"
#include "aclnnop/aclnn_sqrt.h"
#include "aclnnop/aclnn_swi_glu.h"
#include "aclnnop/aclnn_tanh.h"
#include "capi/aclnn_guard.h"

using namespace acl_sim::aclnn;
using acl_sim::Attrs;

namespace {

Attrs attr(const char* name, acl_sim::AttrValue v) {
  Attrs a;
  a.set(name, std::move(v));
  return a;
}

/** approximate of GeluV2 / GeGlu: 0 = none (erf), 1 = tanh (CANN's documented values). */
GluKind gelu_kind(const char* op, int64_t approximate) {
  ACLNN_REQUIRE(approximate == 0 || approximate == 1, op, ": approximate must be 0 (none) or 1 (tanh), got ",
                approximate);
  return approximate == 1 ? GluKind::GeluTanh : GluKind::GeluErf;
}

}  // namespace

extern "C" {

#define ACLNN_SIMPLE_UNARY(Name, Kernel)                                                                  \
  ACLNN_OPERATOR(Name, (const aclTensor* self, aclTensor* out),                                           \
                 plan_unary(op, Kernel, tensor_arg(self, "self"), tensor_arg(out, "out")))
#define ACLNN_INPLACE_UNARY(Name, Kernel)                                                                 \
  ACLNN_OPERATOR(Name, (aclTensor* selfRef),                                                              \
                 plan_unary(op, Kernel, tensor_arg(selfRef, "selfRef"), tensor_arg(selfRef, "selfRef")))

ACLNN_SIMPLE_UNARY(Neg, "Neg")
ACLNN_SIMPLE_UNARY(Exp, "Exp")
ACLNN_INPLACE_UNARY(InplaceExp, "Exp")
ACLNN_SIMPLE_UNARY(Log, "Log")
ACLNN_SIMPLE_UNARY(Sqrt, "Sqrt")
ACLNN_SIMPLE_UNARY(Sin, "Sin")
ACLNN_INPLACE_UNARY(InplaceSin, "Sin")
ACLNN_SIMPLE_UNARY(Cos, "Cos")
ACLNN_INPLACE_UNARY(InplaceCos, "Cos")
ACLNN_SIMPLE_UNARY(Tanh, "Tanh")
ACLNN_SIMPLE_UNARY(Sigmoid, "Sigmoid")
ACLNN_SIMPLE_UNARY(Relu, "Relu")
ACLNN_SIMPLE_UNARY(Sign, "Sign")
ACLNN_SIMPLE_UNARY(Hardswish, "HardSwish")
ACLNN_OPERATOR(Hardsigmoid, (const aclTensor* self, aclTensor* out), [&] {
  Attrs a = attr("alpha", 1.0 / 6.0);  // torch's hardsigmoid: relu6(x + 3) / 6
  a.set("beta", 0.5);
  return plan_unary(op, "HardSigmoid", tensor_arg(self, "self"), tensor_arg(out, "out"), a);
}())
// aclnnGelu is documented as the tanh approximation 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
ACLNN_OPERATOR(Gelu, (const aclTensor* self, aclTensor* out),
               plan_unary(op, "Gelu", tensor_arg(self, "self"), tensor_arg(out, "out"),
                          attr("approximate", std::string("tanh"))))
ACLNN_OPERATOR(GeluV2, (const aclTensor* self, int64_t approximate, aclTensor* out),
               plan_unary(op, "Gelu", tensor_arg(self, "self"), tensor_arg(out, "out"),
                          attr("approximate", std::string(gelu_kind(op, approximate) == GluKind::GeluTanh ? "tanh"
                                                                                                           : "none"))))
ACLNN_OPERATOR(LeakyRelu, (const aclTensor* self, const aclScalar* negativeSlope, aclTensor* out),
               plan_unary(op, "LeakyRelu", tensor_arg(self, "self"), tensor_arg(out, "out"),
                          attr("alpha", scalar_arg(negativeSlope, "negativeSlope").value)))
ACLNN_OPERATOR(LogicalNot, (const aclTensor* self, aclTensor* out), [&] {
  TensorArg s = tensor_arg(self, "self");
  require_dtype(op, s, "self", {ACL_BOOL});
  return plan_unary(op, "Not", s, tensor_arg(out, "out"));
}())
ACLNN_OPERATOR(Silu, (const aclTensor* self, aclTensor* out), plan_silu(op, tensor_arg(self, "self"), tensor_arg(out, "out")))
ACLNN_OPERATOR(Softplus, (const aclTensor* self, const aclScalar* beta, const aclScalar* threshold, aclTensor* out),
               plan_softplus(op, tensor_arg(self, "self"), scalar_arg(beta, "beta").value,
                             scalar_arg(threshold, "threshold").value, tensor_arg(out, "out")))
ACLNN_OPERATOR(Elu, (const aclTensor* self, const aclScalar* alpha, const aclScalar* scale, const aclScalar* inputScale,
                     aclTensor* out),
               plan_elu(op, tensor_arg(self, "self"), scalar_arg(alpha, "alpha").value, scalar_arg(scale, "scale").value,
                        scalar_arg(inputScale, "inputScale").value, tensor_arg(out, "out")))
ACLNN_OPERATOR(SwiGlu, (const aclTensor* x, int64_t dim, aclTensor* out),
               plan_glu(op, GluKind::Swi, tensor_arg(x, "x"), dim, true, tensor_arg(out, "out"), TensorArg{}))
ACLNN_OPERATOR(GeGlu, (const aclTensor* self, int64_t dim, int64_t approximate, aclTensor* out, aclTensor* outGelu),
               plan_glu(op, gelu_kind(op, approximate), tensor_arg(self, "self"), dim, false, tensor_arg(out, "out"),
                        optional_tensor_arg(outGelu, "outGelu")))
ACLNN_OPERATOR(GeGluV3, (const aclTensor* self, int64_t dim, int64_t approximate, bool activateLeft, aclTensor* out,
                         aclTensor* outGelu),
               plan_glu(op, gelu_kind(op, approximate), tensor_arg(self, "self"), dim, activateLeft,
                        tensor_arg(out, "out"), optional_tensor_arg(outGelu, "outGelu")))

}  // extern "C"
