// Convolution, pooling, im2col and upsampling aclnn operators (aclnn/ops/conv_pool.h).
#include "aclnn/ops/conv_pool.h"
#include "aclnnop/aclnn_avgpool2d.h"
#include "aclnnop/aclnn_convolution.h"
#include "aclnnop/aclnn_im2col.h"
#include "aclnnop/aclnn_max_pool.h"
#include "aclnnop/aclnn_upsample_nearest_2d.h"
#include "capi/aclnn_guard.h"

using namespace acl_sim::aclnn;

extern "C" {

ACLNN_OPERATOR(Convolution, (const aclTensor* input, const aclTensor* weight, const aclTensor* bias,
                             const aclIntArray* stride, const aclIntArray* padding, const aclIntArray* dilation,
                             bool transposed, const aclIntArray* outputPadding, int64_t groups, aclTensor* output,
                             int8_t cubeMathType),
               [&] {
                 ConvArgs a;
                 a.input = tensor_arg(input, "input");
                 a.weight = tensor_arg(weight, "weight");
                 a.bias = optional_tensor_arg(bias, "bias");
                 a.out = tensor_arg(output, "output");
                 a.stride = int_array_arg(stride, "stride");
                 a.padding = int_array_arg(padding, "padding");
                 a.dilation = int_array_arg(dilation, "dilation");
                 if (transposed) a.output_padding = int_array_arg(outputPadding, "outputPadding");
                 a.transposed = transposed;
                 a.groups = groups;
                 (void)cubeMathType;
                 return plan_convolution(op, std::move(a));
               }())

ACLNN_OPERATOR(AvgPool2d, (const aclTensor* self, const aclIntArray* kernelSize, const aclIntArray* strides,
                           const aclIntArray* paddings, bool ceilMode, bool countIncludePad, int64_t divisorOverride,
                           int8_t cubeMathType, aclTensor* out),
               [&] {
                 PoolArgs a;
                 a.self = tensor_arg(self, "self");
                 a.out = tensor_arg(out, "out");
                 a.kernel = int_array_arg(kernelSize, "kernelSize");
                 a.stride = int_array_arg(strides, "strides");
                 a.pads = int_array_arg(paddings, "paddings");
                 a.ceil_mode = ceilMode;
                 a.count_include_pad = countIncludePad;
                 a.divisor_override = divisorOverride;
                 (void)cubeMathType;
                 return plan_pool(op, "AveragePool", std::move(a));
               }())

ACLNN_OPERATOR(MaxPool, (const aclTensor* self, const aclIntArray* kernelShape, const aclIntArray* strides,
                         const int64_t autoPad, const aclIntArray* pads, const aclIntArray* dilations,
                         const int64_t ceilMode, aclTensor* out),
               [&] {
                 ACLNN_REQUIRE(autoPad == 0, op, ": autoPad ", autoPad, " is not supported (0 = explicit pads)");
                 std::vector<int64_t> d = int_array_arg(dilations, "dilations");
                 for (int64_t v : d) ACLNN_REQUIRE(v == 1, op, ": dilations other than 1 are not supported");
                 PoolArgs a;
                 a.self = tensor_arg(self, "self");
                 a.out = tensor_arg(out, "out");
                 a.kernel = int_array_arg(kernelShape, "kernelShape");
                 a.stride = int_array_arg(strides, "strides");
                 std::vector<int64_t> p = int_array_arg(pads, "pads");
                 // CANN orders the 4 pads (h_begin, h_end, w_begin, w_end); ONNX (h_begin, w_begin, h_end, w_end).
                 a.pads = p.size() == 4 ? std::vector<int64_t>{p[0], p[2], p[1], p[3]} : p;
                 a.ceil_mode = ceilMode != 0;
                 return plan_pool(op, "MaxPool", std::move(a));
               }())

ACLNN_OPERATOR(UpsampleNearest2d, (const aclTensor* self, const aclIntArray* outputSize, aclTensor* out),
               plan_upsample_nearest(op, tensor_arg(self, "self"), int_array_arg(outputSize, "outputSize"),
                                     tensor_arg(out, "out")))

ACLNN_OPERATOR(Im2col, (const aclTensor* self, const aclIntArray* kernelSize, const aclIntArray* dilation,
                        const aclIntArray* padding, const aclIntArray* stride, aclTensor* out),
               plan_im2col(op, tensor_arg(self, "self"), int_array_arg(kernelSize, "kernelSize"),
                           int_array_arg(dilation, "dilation"), int_array_arg(padding, "padding"),
                           int_array_arg(stride, "stride"), tensor_arg(out, "out")))

}  // extern "C"
