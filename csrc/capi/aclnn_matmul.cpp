// Matrix-product aclnn operators (aclnn/ops/matmul.h) and the NZ weight-format helpers.
//
// FRACTAL_NZ: acl_sim keeps every matmul weight in its ND layout. aclnnTransMatmulWeight
// validates the weight and leaves its memory unchanged, and the matmul operators read an
// NZ-labelled weight through its view strides like an ND one, so a caller that converts its
// weights (ggml with GGML_CANN_WEIGHT_NZ) gets the same results as one that does not.
#include "aclnn/ops/matmul.h"
#include "aclnnop/aclnn_batch_matmul.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_mm.h"
#include "aclnnop/aclnn_mv.h"
#include "aclnnop/aclnn_trans_matmul_weight.h"
#include "aclnnop/aclnn_weight_quant_batch_matmul_v2.h"
#include "capi/aclnn_guard.h"
#include "op/tensor_desc.h"

using namespace acl_sim::aclnn;

namespace {

uint64_t align_up(int64_t v, int64_t a) { return static_cast<uint64_t>((v + a - 1) / a * a); }

/** Elements of the NZ-padded weight (CANN's formula: every dim aligned to 16; int8 aligns the last to 32). */
uint64_t nz_weight_elements(const char* fn, const aclIntArray* shape, aclDataType dtype) {
  std::vector<int64_t> s = int_array_arg(shape, "tensorShape");
  ACLNN_REQUIRE(s.size() >= 2 && s.size() <= 6, fn, ": tensorShape must have 2 to 6 dims, got ", s.size());
  ACLNN_REQUIRE(dtype == ACL_FLOAT16 || dtype == ACL_BF16 || dtype == ACL_INT8 || dtype == ACL_FLOAT, fn,
                ": dtype ", acl_sim::dtype_name(dtype), " is not supported (float16, bfloat16, int8)");
  uint64_t n = 1;
  for (size_t i = 0; i < s.size(); ++i) {
    ACLNN_REQUIRE(s[i] > 0, fn, ": tensorShape dims must be positive");
    const bool last = i + 1 == s.size();
    n *= i + 2 >= s.size() ? align_up(s[i], last && dtype == ACL_INT8 ? 32 : 16) : static_cast<uint64_t>(s[i]);
  }
  return n;
}

}  // namespace

extern "C" {

ACLNN_OPERATOR(Mm, (const aclTensor* self, const aclTensor* mat2, aclTensor* out, int8_t cubeMathType),
               plan_matmul(op, MatmulKind::Mm, tensor_arg(self, "self"), tensor_arg(mat2, "mat2"),
                           tensor_arg(out, "out"), cubeMathType))
ACLNN_OPERATOR(BatchMatMul, (const aclTensor* self, const aclTensor* mat2, aclTensor* out, int8_t cubeMathType),
               plan_matmul(op, MatmulKind::BatchMatMul, tensor_arg(self, "self"), tensor_arg(mat2, "mat2"),
                           tensor_arg(out, "out"), cubeMathType))
ACLNN_OPERATOR(Matmul, (const aclTensor* self, const aclTensor* mat2, aclTensor* out, int8_t cubeMathType),
               plan_matmul(op, MatmulKind::Matmul, tensor_arg(self, "self"), tensor_arg(mat2, "mat2"),
                           tensor_arg(out, "out"), cubeMathType))
ACLNN_OPERATOR(Mv, (const aclTensor* self, const aclTensor* vec, aclTensor* out, int8_t cubeMathType),
               plan_matmul(op, MatmulKind::Mv, tensor_arg(self, "self"), tensor_arg(vec, "vec"), tensor_arg(out, "out"),
                           cubeMathType))

ACLNN_OPERATOR(WeightQuantBatchMatmulV2,
               (const aclTensor* x, const aclTensor* weight, const aclTensor* antiquantScale,
                const aclTensor* antiquantOffsetOptional, const aclTensor* quantScaleOptional,
                const aclTensor* quantOffsetOptional, const aclTensor* biasOptional, int antiquantGroupSize,
                const aclTensor* y),
               [&] {
                 ACLNN_REQUIRE(quantScaleOptional == nullptr && quantOffsetOptional == nullptr, op,
                               ": output quantisation (quantScale / quantOffset) is not supported");
                 return plan_weight_quant_matmul(op, tensor_arg(x, "x"), tensor_arg(weight, "weight"),
                                                 tensor_arg(antiquantScale, "antiquantScale"),
                                                 optional_tensor_arg(antiquantOffsetOptional, "antiquantOffset"),
                                                 optional_tensor_arg(biasOptional, "bias"), antiquantGroupSize,
                                                 tensor_arg(y, "y"));
               }())

ACLNN_OPERATOR(TransMatmulWeight, (aclTensor* mmWeightRef), [&] {
  TensorArg w = tensor_arg(mmWeightRef, "mmWeightRef");
  ACLNN_REQUIRE(w.rank() >= 2, op, ": mmWeightRef must be at least 2-D");
  require_dtype(op, w, "mmWeightRef", {ACL_FLOAT16, ACL_BF16, ACL_INT8, ACL_FLOAT});
  return plan_of([] {});  // the ND layout is acl_sim's NZ layout (file comment)
}())

ACLNN_API aclnnStatus aclnnCalculateMatmulWeightSize(const aclIntArray* tensorShape, uint64_t* weightTensorSize) {
  return acl_sim::capi::api_call("aclnnCalculateMatmulWeightSize", [&] {
    require_present(weightTensorSize, "weightTensorSize");
    *weightTensorSize = nz_weight_elements("aclnnCalculateMatmulWeightSize", tensorShape, ACL_FLOAT16);
  });
}

ACLNN_API aclnnStatus aclnnCalculateMatmulWeightSizeV2(const aclIntArray* tensorShape, aclDataType dataType,
                                                       uint64_t* weightTensorSize) {
  return acl_sim::capi::api_call("aclnnCalculateMatmulWeightSizeV2", [&] {
    require_present(weightTensorSize, "weightTensorSize");
    *weightTensorSize = nz_weight_elements("aclnnCalculateMatmulWeightSizeV2", tensorShape, dataType);
  });
}

}  // extern "C"
