// Normalisation, softmax and attention aclnn operators (aclnn/ops/norm.h, aclnn/ops/attention.h).
#include "aclnn/ops/attention.h"
#include "aclnn/ops/norm.h"
#include "aclnnop/aclnn_add_rms_norm.h"
#include "aclnnop/aclnn_fused_infer_attention_score_v2.h"
#include "aclnnop/aclnn_group_norm.h"
#include "aclnnop/aclnn_layer_norm.h"
#include "aclnnop/aclnn_logsoftmax.h"
#include "aclnnop/aclnn_rms_norm.h"
#include "aclnnop/aclnn_rotary_position_embedding.h"
#include "aclnnop/aclnn_softmax.h"
#include "aclnnop/aclnn_softmax_cross_entropy_with_logits.h"
#include "capi/aclnn_guard.h"

using namespace acl_sim::aclnn;

extern "C" {

ACLNN_OPERATOR(RmsNorm, (const aclTensor* x, const aclTensor* gamma, double epsilon, const aclTensor* yOut,
                         const aclTensor* rstdOut),
               plan_rms_norm(op, tensor_arg(x, "x"), TensorArg{}, tensor_arg(gamma, "gamma"), epsilon,
                             tensor_arg(yOut, "yOut"), optional_tensor_arg(rstdOut, "rstdOut"), TensorArg{}))
ACLNN_OPERATOR(AddRmsNorm, (const aclTensor* x1, const aclTensor* x2, const aclTensor* gamma, double epsilon,
                            const aclTensor* yOut, const aclTensor* rstdOut, const aclTensor* xOut),
               plan_rms_norm(op, tensor_arg(x1, "x1"), tensor_arg(x2, "x2"), tensor_arg(gamma, "gamma"), epsilon,
                             tensor_arg(yOut, "yOut"), optional_tensor_arg(rstdOut, "rstdOut"),
                             optional_tensor_arg(xOut, "xOut")))
ACLNN_OPERATOR(LayerNorm, (const aclTensor* input, const aclIntArray* normalizedShape, const aclTensor* weightOptional,
                           const aclTensor* biasOptional, double eps, aclTensor* out, aclTensor* meanOutOptional,
                           aclTensor* rstdOutOptional),
               plan_layer_norm(op, tensor_arg(input, "input"), int_array_arg(normalizedShape, "normalizedShape"),
                               optional_tensor_arg(weightOptional, "weight"), optional_tensor_arg(biasOptional, "bias"),
                               eps, tensor_arg(out, "out"), optional_tensor_arg(meanOutOptional, "meanOut"),
                               optional_tensor_arg(rstdOutOptional, "rstdOut")))
ACLNN_OPERATOR(GroupNorm, (const aclTensor* self, const aclTensor* gamma, const aclTensor* beta, int64_t N, int64_t C,
                           int64_t HxW, int64_t group, double eps, aclTensor* out, aclTensor* meanOut, aclTensor* rstdOut),
               plan_group_norm(op, tensor_arg(self, "self"), optional_tensor_arg(gamma, "gamma"),
                               optional_tensor_arg(beta, "beta"), N, C, HxW, group, eps, tensor_arg(out, "out"),
                               optional_tensor_arg(meanOut, "meanOut"), optional_tensor_arg(rstdOut, "rstdOut")))

ACLNN_OPERATOR(Softmax, (const aclTensor* self, int64_t dim, aclTensor* out),
               plan_softmax(op, "Softmax", tensor_arg(self, "self"), dim, tensor_arg(out, "out")))
ACLNN_OPERATOR(LogSoftmax, (const aclTensor* self, int64_t dim, aclTensor* out),
               plan_softmax(op, "LogSoftmax", tensor_arg(self, "self"), dim, tensor_arg(out, "out")))
ACLNN_OPERATOR(SoftmaxCrossEntropyWithLogits,
               (const aclTensor* features, const aclTensor* labels, aclTensor* loss, aclTensor* backprop),
               plan_softmax_cross_entropy(op, tensor_arg(features, "features"), tensor_arg(labels, "labels"),
                                          tensor_arg(loss, "loss"), tensor_arg(backprop, "backprop")))
ACLNN_OPERATOR(RotaryPositionEmbedding, (const aclTensor* x, const aclTensor* cos, const aclTensor* sin, int64_t mode,
                                         const aclTensor* yOut),
               plan_rope(op, tensor_arg(x, "x"), tensor_arg(cos, "cos"), tensor_arg(sin, "sin"), mode,
                         tensor_arg(yOut, "yOut")))

ACLNN_OPERATOR(FusedInferAttentionScoreV2,
               (const aclTensor* query, const aclTensorList* key, const aclTensorList* value,
                const aclTensor* pseShiftOptional, const aclTensor* attenMaskOptional,
                const aclIntArray* actualSeqLengthsOptional, const aclIntArray* actualSeqLengthsKvOptional,
                const aclTensor* deqScale1Optional, const aclTensor* quantScale1Optional,
                const aclTensor* deqScale2Optional, const aclTensor* quantScale2Optional,
                const aclTensor* quantOffset2Optional, const aclTensor* antiquantScaleOptional,
                const aclTensor* antiquantOffsetOptional, const aclTensor* blockTableOptional,
                const aclTensor* queryPaddingSizeOptional, const aclTensor* kvPaddingSizeOptional,
                const aclTensor* keyAntiquantScaleOptional, const aclTensor* keyAntiquantOffsetOptional,
                const aclTensor* valueAntiquantScaleOptional, const aclTensor* valueAntiquantOffsetOptional,
                const aclTensor* keySharedPrefixOptional, const aclTensor* valueSharedPrefixOptional,
                const aclIntArray* actualSharedPrefixLenOptional, int64_t numHeads, double scaleValue,
                int64_t preTokens, int64_t nextTokens, char* inputLayout, int64_t numKeyValueHeads,
                int64_t sparseMode, int64_t innerPrecise, int64_t blockSize, int64_t antiquantMode,
                bool softmaxLseFlag, int64_t keyAntiquantMode, int64_t valueAntiquantMode,
                const aclTensor* attentionOut, const aclTensor* softmaxLse),
               [&] {
                 const void* unsupported[] = {actualSeqLengthsOptional, actualSeqLengthsKvOptional,
                                              deqScale1Optional, quantScale1Optional, deqScale2Optional,
                                              quantScale2Optional, quantOffset2Optional, antiquantScaleOptional,
                                              antiquantOffsetOptional, blockTableOptional, queryPaddingSizeOptional,
                                              kvPaddingSizeOptional, keyAntiquantScaleOptional,
                                              keyAntiquantOffsetOptional, valueAntiquantScaleOptional,
                                              valueAntiquantOffsetOptional, keySharedPrefixOptional,
                                              valueSharedPrefixOptional, actualSharedPrefixLenOptional};
                 for (const void* p : unsupported)
                   ACLNN_REQUIRE(p == nullptr, op, ": actual sequence lengths, quantisation, paged KV (blockTable), "
                                 "padding and shared prefixes are not supported; pass NULL");
                 ACLNN_REQUIRE(!softmaxLseFlag && softmaxLse == nullptr, op, ": softmaxLse output is not supported");
                 ACLNN_REQUIRE(sparseMode == 0 && blockSize == 0, op, ": sparseMode ", sparseMode, " / blockSize ",
                               blockSize, " are not supported (0 only)");
                 (void)preTokens, (void)nextTokens, (void)innerPrecise, (void)antiquantMode, (void)keyAntiquantMode,
                     (void)valueAntiquantMode;
                 require_present(inputLayout, "inputLayout");
                 std::vector<TensorArg> ks = tensor_list_arg(key, "key"), vs = tensor_list_arg(value, "value");
                 ACLNN_REQUIRE(ks.size() == 1 && vs.size() == 1, op, ": key and value lists must hold one tensor each");
                 AttentionArgs a;
                 a.q = tensor_arg(query, "query");
                 a.k = ks[0];
                 a.v = vs[0];
                 a.pse = optional_tensor_arg(pseShiftOptional, "pseShift");
                 a.mask = optional_tensor_arg(attenMaskOptional, "attenMask");
                 a.out = tensor_arg(attentionOut, "attentionOut");
                 a.heads = numHeads;
                 a.kv_heads = numKeyValueHeads;
                 a.scale = scaleValue;
                 a.layout = inputLayout;
                 return plan_fused_attention(op, std::move(a));
               }())

}  // extern "C"
