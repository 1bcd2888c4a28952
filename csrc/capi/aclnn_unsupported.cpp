// The aclnn operators acl_sim declares but does not implement yet. Each entry defines both
// entry points; they return ACLNN_ERR_INNER_FIND_KERNEL_ERROR (561003) with an aclGetRecentErrMsg
// message naming the operator (docs/aclnn.md). To implement an operator, delete its line here and
// write it as described at the top of docs/aclnn.md.
#include "capi/aclnn_guard.h"

// clang-format off
#include "aclnnop/aclnn_abs.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_add_rms_norm.h"
#include "aclnnop/aclnn_addcdiv.h"
#include "aclnnop/aclnn_arange.h"
#include "aclnnop/aclnn_argmax.h"
#include "aclnnop/aclnn_argsort.h"
#include "aclnnop/aclnn_avgpool2d.h"
#include "aclnnop/aclnn_batch_matmul.h"
#include "aclnnop/aclnn_cast.h"
#include "aclnnop/aclnn_cat.h"
#include "aclnnop/aclnn_clamp.h"
#include "aclnnop/aclnn_constant_pad_nd.h"
#include "aclnnop/aclnn_convolution.h"
#include "aclnnop/aclnn_copy.h"
#include "aclnnop/aclnn_cos.h"
#include "aclnnop/aclnn_cumsum.h"
#include "aclnnop/aclnn_div.h"
#include "aclnnop/aclnn_elu.h"
#include "aclnnop/aclnn_embedding.h"
#include "aclnnop/aclnn_eq_tensor.h"
#include "aclnnop/aclnn_exp.h"
#include "aclnnop/aclnn_fill_scalar.h"
#include "aclnnop/aclnn_fused_infer_attention_score_v2.h"
#include "aclnnop/aclnn_gather_v2.h"
#include "aclnnop/aclnn_geglu.h"
#include "aclnnop/aclnn_gelu.h"
#include "aclnnop/aclnn_gelu_v2.h"
#include "aclnnop/aclnn_ger.h"
#include "aclnnop/aclnn_group_norm.h"
#include "aclnnop/aclnn_gt_scalar.h"
#include "aclnnop/aclnn_hardsigmoid.h"
#include "aclnnop/aclnn_hardswish.h"
#include "aclnnop/aclnn_im2col.h"
#include "aclnnop/aclnn_index_copy.h"
#include "aclnnop/aclnn_index_fill_tensor.h"
#include "aclnnop/aclnn_index_select.h"
#include "aclnnop/aclnn_layer_norm.h"
#include "aclnnop/aclnn_leaky_relu.h"
#include "aclnnop/aclnn_log.h"
#include "aclnnop/aclnn_logical_not.h"
#include "aclnnop/aclnn_logsoftmax.h"
#include "aclnnop/aclnn_masked_fill_scalar.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_max_pool.h"
#include "aclnnop/aclnn_mean.h"
#include "aclnnop/aclnn_mm.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnnop/aclnn_mv.h"
#include "aclnnop/aclnn_neg.h"
#include "aclnnop/aclnn_norm.h"
#include "aclnnop/aclnn_permute.h"
#include "aclnnop/aclnn_pow.h"
#include "aclnnop/aclnn_pow_tensor_tensor.h"
#include "aclnnop/aclnn_reduce_sum.h"
#include "aclnnop/aclnn_reflection_pad1d.h"
#include "aclnnop/aclnn_relu.h"
#include "aclnnop/aclnn_repeat.h"
#include "aclnnop/aclnn_repeat_interleave.h"
#include "aclnnop/aclnn_rms_norm.h"
#include "aclnnop/aclnn_roll.h"
#include "aclnnop/aclnn_rotary_position_embedding.h"
#include "aclnnop/aclnn_scatter.h"
#include "aclnnop/aclnn_sigmoid.h"
#include "aclnnop/aclnn_sign.h"
#include "aclnnop/aclnn_silu.h"
#include "aclnnop/aclnn_sin.h"
#include "aclnnop/aclnn_slice.h"
#include "aclnnop/aclnn_softmax.h"
#include "aclnnop/aclnn_softmax_cross_entropy_with_logits.h"
#include "aclnnop/aclnn_softplus.h"
#include "aclnnop/aclnn_sqrt.h"
#include "aclnnop/aclnn_sub.h"
#include "aclnnop/aclnn_swi_glu.h"
#include "aclnnop/aclnn_tanh.h"
#include "aclnnop/aclnn_threshold.h"
#include "aclnnop/aclnn_trans_matmul_weight.h"
#include "aclnnop/aclnn_triangular_solve.h"
#include "aclnnop/aclnn_tril.h"
#include "aclnnop/aclnn_triu.h"
#include "aclnnop/aclnn_upsample_nearest_2d.h"
#include "aclnnop/aclnn_weight_quant_batch_matmul_v2.h"
#include "aclnnop/aclnn_zero.h"

extern "C" {
ACLNN_UNSUPPORTED(Add, (const aclTensor*, const aclTensor*, const aclScalar*, aclTensor*))
ACLNN_UNSUPPORTED(InplaceAdd, (aclTensor*, const aclTensor*, const aclScalar*))
ACLNN_UNSUPPORTED(Adds, (const aclTensor*, const aclScalar*, const aclScalar*, aclTensor*))
ACLNN_UNSUPPORTED(InplaceAdds, (aclTensor*, const aclScalar*, const aclScalar*))
ACLNN_UNSUPPORTED(AddRmsNorm, (const aclTensor*, const aclTensor*, const aclTensor*, double, const aclTensor*, const aclTensor*, const aclTensor*))
ACLNN_UNSUPPORTED(Addcdiv, (const aclTensor*, const aclTensor*, const aclTensor*, const aclScalar*, aclTensor*))
ACLNN_UNSUPPORTED(Arange, (const aclScalar*, const aclScalar*, const aclScalar*, aclTensor*))
ACLNN_UNSUPPORTED(ArgMax, (const aclTensor*, int64_t, bool, aclTensor*))
ACLNN_UNSUPPORTED(Argsort, (const aclTensor*, int64_t, bool, aclTensor*))
ACLNN_UNSUPPORTED(AvgPool2d, (const aclTensor*, const aclIntArray*, const aclIntArray*, const aclIntArray*, bool, bool, int64_t, int8_t, aclTensor*))
ACLNN_UNSUPPORTED(BatchMatMul, (const aclTensor*, const aclTensor*, aclTensor*, int8_t))
ACLNN_UNSUPPORTED(Cast, (const aclTensor*, const aclDataType, aclTensor*))
ACLNN_UNSUPPORTED(Cat, (const aclTensorList*, int64_t, aclTensor*))
ACLNN_UNSUPPORTED(Clamp, (const aclTensor*, const aclScalar*, const aclScalar*, aclTensor*))
ACLNN_UNSUPPORTED(ClampMin, (const aclTensor*, const aclScalar*, aclTensor*))
ACLNN_UNSUPPORTED(ClampMax, (const aclTensor*, const aclScalar*, aclTensor*))
ACLNN_UNSUPPORTED(InplaceClampMax, (aclTensor*, const aclScalar*))
ACLNN_UNSUPPORTED(ConstantPadNd, (const aclTensor*, const aclIntArray*, const aclScalar*, aclTensor*))
ACLNN_UNSUPPORTED(Convolution, (const aclTensor*, const aclTensor*, const aclTensor*, const aclIntArray*, const aclIntArray*, const aclIntArray*, bool, const aclIntArray*, int64_t, aclTensor*, int8_t))
ACLNN_UNSUPPORTED(InplaceCopy, (aclTensor*, const aclTensor*))
ACLNN_UNSUPPORTED(Cos, (const aclTensor*, aclTensor*))
ACLNN_UNSUPPORTED(InplaceCos, (aclTensor*))
ACLNN_UNSUPPORTED(Cumsum, (const aclTensor*, int64_t, aclDataType, aclTensor*))
ACLNN_UNSUPPORTED(Div, (const aclTensor*, const aclTensor*, aclTensor*))
ACLNN_UNSUPPORTED(InplaceDiv, (aclTensor*, const aclTensor*))
ACLNN_UNSUPPORTED(Divs, (const aclTensor*, const aclScalar*, aclTensor*))
ACLNN_UNSUPPORTED(InplaceDivs, (aclTensor*, const aclScalar*))
ACLNN_UNSUPPORTED(Elu, (const aclTensor*, const aclScalar*, const aclScalar*, const aclScalar*, aclTensor*))
ACLNN_UNSUPPORTED(Embedding, (const aclTensor*, const aclTensor*, const aclTensor*))
ACLNN_UNSUPPORTED(EqTensor, (const aclTensor*, const aclTensor*, aclTensor*))
ACLNN_UNSUPPORTED(Exp, (const aclTensor*, aclTensor*))
ACLNN_UNSUPPORTED(InplaceExp, (aclTensor*))
ACLNN_UNSUPPORTED(InplaceFillScalar, (aclTensor*, const aclScalar*))
ACLNN_UNSUPPORTED(FusedInferAttentionScoreV2, (const aclTensor*, const aclTensorList*, const aclTensorList*, const aclTensor*, const aclTensor*, const aclIntArray*, const aclIntArray*, const aclTensor*, const aclTensor*, const aclTensor*, const aclTensor*, const aclTensor*, const aclTensor*, const aclTensor*, const aclTensor*, const aclTensor*, const aclTensor*, const aclTensor*, const aclTensor*, const aclTensor*, const aclTensor*, const aclTensor*, const aclTensor*, const aclIntArray*, int64_t, double, int64_t, int64_t, char*, int64_t, int64_t, int64_t, int64_t, int64_t, bool, int64_t, int64_t, const aclTensor*, const aclTensor*))
ACLNN_UNSUPPORTED(GatherV2, (const aclTensor*, int64_t, const aclTensor*, aclTensor*))
ACLNN_UNSUPPORTED(GeGlu, (const aclTensor*, int64_t, int64_t, aclTensor*, aclTensor*))
ACLNN_UNSUPPORTED(GeGluV3, (const aclTensor*, int64_t, int64_t, bool, aclTensor*, aclTensor*))
ACLNN_UNSUPPORTED(Gelu, (const aclTensor*, aclTensor*))
ACLNN_UNSUPPORTED(GeluV2, (const aclTensor*, int64_t, aclTensor*))
ACLNN_UNSUPPORTED(Ger, (const aclTensor*, const aclTensor*, aclTensor*))
ACLNN_UNSUPPORTED(GroupNorm, (const aclTensor*, const aclTensor*, const aclTensor*, int64_t, int64_t, int64_t, int64_t, double, aclTensor*, aclTensor*, aclTensor*))
ACLNN_UNSUPPORTED(GtScalar, (const aclTensor*, const aclScalar*, aclTensor*))
ACLNN_UNSUPPORTED(Hardsigmoid, (const aclTensor*, aclTensor*))
ACLNN_UNSUPPORTED(Hardswish, (const aclTensor*, aclTensor*))
ACLNN_UNSUPPORTED(Im2col, (const aclTensor*, const aclIntArray*, const aclIntArray*, const aclIntArray*, const aclIntArray*, aclTensor*))
ACLNN_UNSUPPORTED(InplaceIndexCopy, (aclTensor*, int64_t, const aclTensor*, const aclTensor*))
ACLNN_UNSUPPORTED(InplaceIndexFillTensor, (aclTensor*, int64_t, const aclIntArray*, const aclScalar*))
ACLNN_UNSUPPORTED(IndexSelect, (const aclTensor*, int64_t, const aclTensor*, aclTensor*))
ACLNN_UNSUPPORTED(LayerNorm, (const aclTensor*, const aclIntArray*, const aclTensor*, const aclTensor*, double, aclTensor*, aclTensor*, aclTensor*))
ACLNN_UNSUPPORTED(LeakyRelu, (const aclTensor*, const aclScalar*, aclTensor*))
ACLNN_UNSUPPORTED(Log, (const aclTensor*, aclTensor*))
ACLNN_UNSUPPORTED(LogicalNot, (const aclTensor*, aclTensor*))
ACLNN_UNSUPPORTED(LogSoftmax, (const aclTensor*, int64_t, aclTensor*))
ACLNN_UNSUPPORTED(InplaceMaskedFillScalar, (aclTensor*, const aclTensor*, const aclScalar*))
ACLNN_UNSUPPORTED(Matmul, (const aclTensor*, const aclTensor*, aclTensor*, int8_t))
ACLNN_UNSUPPORTED(MaxPool, (const aclTensor*, const aclIntArray*, const aclIntArray*, const int64_t, const aclIntArray*, const aclIntArray*, const int64_t, aclTensor*))
ACLNN_UNSUPPORTED(Mean, (const aclTensor*, const aclIntArray*, bool, aclDataType, aclTensor*))
ACLNN_UNSUPPORTED(Mm, (const aclTensor*, const aclTensor*, aclTensor*, int8_t))
ACLNN_UNSUPPORTED(Mul, (const aclTensor*, const aclTensor*, aclTensor*))
ACLNN_UNSUPPORTED(InplaceMul, (aclTensor*, const aclTensor*))
ACLNN_UNSUPPORTED(Muls, (const aclTensor*, const aclScalar*, aclTensor*))
ACLNN_UNSUPPORTED(InplaceMuls, (aclTensor*, const aclScalar*))
ACLNN_UNSUPPORTED(Mv, (const aclTensor*, const aclTensor*, aclTensor*, int8_t))
ACLNN_UNSUPPORTED(Neg, (const aclTensor*, aclTensor*))
ACLNN_UNSUPPORTED(Norm, (const aclTensor*, const aclScalar*, const aclIntArray*, bool, aclTensor*))
ACLNN_UNSUPPORTED(Permute, (const aclTensor*, const aclIntArray*, aclTensor*))
ACLNN_UNSUPPORTED(PowTensorScalar, (const aclTensor*, const aclScalar*, aclTensor*))
ACLNN_UNSUPPORTED(InplacePowTensorScalar, (aclTensor*, const aclScalar*))
ACLNN_UNSUPPORTED(PowScalarTensor, (const aclScalar*, const aclTensor*, aclTensor*))
ACLNN_UNSUPPORTED(PowTensorTensor, (const aclTensor*, const aclTensor*, aclTensor*))
ACLNN_UNSUPPORTED(InplacePowTensorTensor, (aclTensor*, const aclTensor*))
ACLNN_UNSUPPORTED(ReduceSum, (const aclTensor*, const aclIntArray*, bool, aclDataType, aclTensor*))
ACLNN_UNSUPPORTED(ReflectionPad1d, (const aclTensor*, const aclIntArray*, aclTensor*))
ACLNN_UNSUPPORTED(Relu, (const aclTensor*, aclTensor*))
ACLNN_UNSUPPORTED(Repeat, (const aclTensor*, const aclIntArray*, aclTensor*))
ACLNN_UNSUPPORTED(RepeatInterleaveIntWithDim, (const aclTensor*, int64_t, int64_t, int64_t, aclTensor*))
ACLNN_UNSUPPORTED(RmsNorm, (const aclTensor*, const aclTensor*, double, const aclTensor*, const aclTensor*))
ACLNN_UNSUPPORTED(Roll, (const aclTensor*, const aclIntArray*, const aclIntArray*, aclTensor*))
ACLNN_UNSUPPORTED(RotaryPositionEmbedding, (const aclTensor*, const aclTensor*, const aclTensor*, int64_t, const aclTensor*))
ACLNN_UNSUPPORTED(Scatter, (const aclTensor*, int64_t, const aclTensor*, const aclTensor*, int64_t, aclTensor*))
ACLNN_UNSUPPORTED(Sigmoid, (const aclTensor*, aclTensor*))
ACLNN_UNSUPPORTED(Sign, (const aclTensor*, aclTensor*))
ACLNN_UNSUPPORTED(Silu, (const aclTensor*, aclTensor*))
ACLNN_UNSUPPORTED(Sin, (const aclTensor*, aclTensor*))
ACLNN_UNSUPPORTED(InplaceSin, (aclTensor*))
ACLNN_UNSUPPORTED(Slice, (const aclTensor*, int64_t, int64_t, int64_t, int64_t, aclTensor*))
ACLNN_UNSUPPORTED(Softmax, (const aclTensor*, int64_t, aclTensor*))
ACLNN_UNSUPPORTED(SoftmaxCrossEntropyWithLogits, (const aclTensor*, const aclTensor*, aclTensor*, aclTensor*))
ACLNN_UNSUPPORTED(Softplus, (const aclTensor*, const aclScalar*, const aclScalar*, aclTensor*))
ACLNN_UNSUPPORTED(Sqrt, (const aclTensor*, aclTensor*))
ACLNN_UNSUPPORTED(Sub, (const aclTensor*, const aclTensor*, const aclScalar*, aclTensor*))
ACLNN_UNSUPPORTED(InplaceSub, (aclTensor*, const aclTensor*, const aclScalar*))
ACLNN_UNSUPPORTED(Subs, (const aclTensor*, const aclScalar*, const aclScalar*, aclTensor*))
ACLNN_UNSUPPORTED(InplaceSubs, (aclTensor*, const aclScalar*, const aclScalar*))
ACLNN_UNSUPPORTED(SwiGlu, (const aclTensor*, int64_t, aclTensor*))
ACLNN_UNSUPPORTED(Tanh, (const aclTensor*, aclTensor*))
ACLNN_UNSUPPORTED(Threshold, (const aclTensor*, const aclScalar*, const aclScalar*, aclTensor*))
ACLNN_UNSUPPORTED(InplaceThreshold, (aclTensor*, const aclScalar*, const aclScalar*))
ACLNN_UNSUPPORTED(TransMatmulWeight, (aclTensor*))
ACLNN_UNSUPPORTED(TriangularSolve, (const aclTensor*, const aclTensor*, bool, bool, bool, aclTensor*, aclTensor*))
ACLNN_UNSUPPORTED(Tril, (const aclTensor*, int64_t, aclTensor*))
ACLNN_UNSUPPORTED(InplaceTril, (aclTensor*, int64_t))
ACLNN_UNSUPPORTED(Triu, (const aclTensor*, int64_t, aclTensor*))
ACLNN_UNSUPPORTED(InplaceTriu, (aclTensor*, int64_t))
ACLNN_UNSUPPORTED(UpsampleNearest2d, (const aclTensor*, const aclIntArray*, aclTensor*))
ACLNN_UNSUPPORTED(WeightQuantBatchMatmulV2, (const aclTensor*, const aclTensor*, const aclTensor*, const aclTensor*, const aclTensor*, const aclTensor*, const aclTensor*, int, const aclTensor*))
ACLNN_UNSUPPORTED(InplaceZero, (aclTensor*))
ACLNN_UNSUPPORTED_FN(aclnnCalculateMatmulWeightSize, (const aclIntArray*, uint64_t*))
ACLNN_UNSUPPORTED_FN(aclnnCalculateMatmulWeightSizeV2, (const aclIntArray*, aclDataType, uint64_t*))
}  // extern "C"
// clang-format on
