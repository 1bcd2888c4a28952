// Indexing operators on strided views: aclnnGatherV2 / aclnnIndexSelect / aclnnEmbedding (out gathers slices of
// self along dim), aclnnInplaceIndexCopy (slices of source into self along dim), aclnnInplaceIndexFillTensor.
// Each index moves one slice with strided_copy, so a large table (an embedding matrix) is never copied whole.
// aclnnScatter moves single elements (the ScatterElements kernel). Indices are read from device memory when the
// work runs; one out of range fails that stream task with ACLNN_ERR_PARAM_INVALID.
#pragma once

#include "aclnn/ops/op_common.h"

namespace acl_sim::aclnn {

/** out = self gathered along dim by index (any rank: out.shape = self[:dim] + index.shape + self[dim+1:]). */
Plan plan_gather(const char* op, TensorArg self, int64_t dim, TensorArg index, TensorArg out, bool index_1d);
/** self.select(dim, index[i]) = source.select(dim, i) for every i. */
Plan plan_index_copy(const char* op, TensorArg self, int64_t dim, TensorArg index, TensorArg source);
/** out = self, then src[i...] replaces / adds to / multiplies (reduce 0 / 1 / 2) out at the position whose
 *  coordinate along dim is index[i...] (torch.scatter; src may be larger than index: its leading corner). */
Plan plan_scatter(const char* op, TensorArg self, int64_t dim, TensorArg index, TensorArg src, int64_t reduce,
                  TensorArg out);
/** self.select(dim, i) = value for every i in index. */
Plan plan_index_fill(const char* op, TensorArg self, int64_t dim, std::vector<int64_t> index, double value);

}  // namespace acl_sim::aclnn
