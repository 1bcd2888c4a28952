// Indexing, reduction and sort aclnn operators (aclnn/ops/index.h, aclnn/ops/reduce.h).
#include "aclnn/ops/index.h"
#include "aclnn/ops/reduce.h"
#include "aclnnop/aclnn_argmax.h"
#include "aclnnop/aclnn_argsort.h"
#include "aclnnop/aclnn_cumsum.h"
#include "aclnnop/aclnn_embedding.h"
#include "aclnnop/aclnn_gather_v2.h"
#include "aclnnop/aclnn_index_copy.h"
#include "aclnnop/aclnn_index_fill_tensor.h"
#include "aclnnop/aclnn_index_select.h"
#include "aclnnop/aclnn_mean.h"
#include "aclnnop/aclnn_norm.h"
#include "aclnnop/aclnn_reduce_sum.h"
#include "aclnnop/aclnn_scatter.h"
#include "capi/aclnn_guard.h"
#include "op/tensor_desc.h"

using namespace acl_sim::aclnn;

namespace {

/** The out dtype must be the dtype argument of ReduceSum / Mean / Cumsum. */
TensorArg out_of_dtype(const char* op, const aclTensor* out, aclDataType dtype) {
  TensorArg o = tensor_arg(out, "out");
  ACLNN_REQUIRE(o.dtype == dtype, op, ": out has dtype ", acl_sim::dtype_name(o.dtype), ", dtype asks for ",
                acl_sim::dtype_name(dtype));
  return o;
}

}  // namespace

extern "C" {

ACLNN_OPERATOR(GatherV2, (const aclTensor* self, int64_t dim, const aclTensor* index, aclTensor* out),
               plan_gather(op, tensor_arg(self, "self"), dim, tensor_arg(index, "index"), tensor_arg(out, "out"), false))
ACLNN_OPERATOR(IndexSelect, (const aclTensor* self, int64_t dim, const aclTensor* index, aclTensor* out),
               plan_gather(op, tensor_arg(self, "self"), dim, tensor_arg(index, "index"), tensor_arg(out, "out"), true))
ACLNN_OPERATOR(InplaceIndexCopy, (aclTensor* selfRef, int64_t dim, const aclTensor* index, const aclTensor* source),
               plan_index_copy(op, tensor_arg(selfRef, "selfRef"), dim, tensor_arg(index, "index"),
                               tensor_arg(source, "source")))
ACLNN_OPERATOR(InplaceIndexFillTensor, (aclTensor* selfRef, int64_t dim, const aclIntArray* index, const aclScalar* value),
               plan_index_fill(op, tensor_arg(selfRef, "selfRef"), dim, int_array_arg(index, "index"),
                               scalar_arg(value, "value").value))
ACLNN_OPERATOR(Embedding, (const aclTensor* weight, const aclTensor* indices, const aclTensor* out), [&] {
  TensorArg w = tensor_arg(weight, "weight");
  ACLNN_REQUIRE(w.rank() == 2, op, ": weight must be 2-D, got ", acl_sim::dims_to_string(w.shape));
  return plan_gather(op, std::move(w), 0, tensor_arg(indices, "indices"), tensor_arg(out, "out"), false);
}())
ACLNN_OPERATOR(Scatter, (const aclTensor* self, int64_t dim, const aclTensor* index, const aclTensor* src, int64_t reduce,
                         aclTensor* out),
               plan_scatter(op, tensor_arg(self, "self"), dim, tensor_arg(index, "index"), tensor_arg(src, "src"), reduce,
                            tensor_arg(out, "out")))

ACLNN_OPERATOR(ReduceSum, (const aclTensor* self, const aclIntArray* dim, bool keepDim, aclDataType dtype, aclTensor* out),
               plan_reduce(op, "ReduceSum", tensor_arg(self, "self"), int_array_arg(dim, "dim"), keepDim,
                           out_of_dtype(op, out, dtype)))
ACLNN_OPERATOR(Mean, (const aclTensor* self, const aclIntArray* dim, bool keepDim, aclDataType dtype, aclTensor* out),
               plan_reduce(op, "ReduceMean", tensor_arg(self, "self"), int_array_arg(dim, "dim"), keepDim,
                           out_of_dtype(op, out, dtype)))
ACLNN_OPERATOR(Norm, (const aclTensor* self, const aclScalar* pScalar, const aclIntArray* dim, bool keepdim, aclTensor* out),
               [&] {
                 double p = scalar_arg(pScalar, "pScalar").value;
                 ACLNN_REQUIRE(p == 1.0 || p == 2.0, op, ": p = ", p, " is not supported (1 and 2 are)");
                 return plan_reduce(op, p == 1.0 ? "ReduceL1" : "ReduceL2", tensor_arg(self, "self"),
                                    int_array_arg(dim, "dim"), keepdim, tensor_arg(out, "out"));
               }())
ACLNN_OPERATOR(Cumsum, (const aclTensor* self, int64_t dim, aclDataType dtype, aclTensor* out),
               plan_cumsum(op, tensor_arg(self, "self"), dim, out_of_dtype(op, out, dtype)))
ACLNN_OPERATOR(ArgMax, (const aclTensor* self, int64_t dim, bool keepdim, aclTensor* out),
               plan_argmax(op, tensor_arg(self, "self"), dim, keepdim, tensor_arg(out, "out")))
ACLNN_OPERATOR(Argsort, (const aclTensor* self, int64_t dim, bool descending, aclTensor* out),
               plan_argsort(op, tensor_arg(self, "self"), dim, descending, tensor_arg(out, "out")))

}  // extern "C"
