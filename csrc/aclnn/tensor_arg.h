// TensorArg / ScalarArg: the copies of descriptors an executor keeps (descriptors die right after
// the execute call), plus the strided-view plumbing operators use to run the dense, row-major
// kernels of csrc/kernels/ on arbitrary strided views:
//
//   Dense a = read_dense(self, ACL_FLOAT);          // gather + cast the view into a dense buffer
//   Dense o = output_dense(out, ACL_FLOAT);         // a dense buffer for the result
//   ... run kernels on a.view() / o.view() ...
//   commit(o, out);                                  // cast + scatter into out's strided view
//
// read_dense/output_dense alias the caller's memory (no copy) when the view is already dense,
// row-major and of the wanted dtype; commit is then a no-op.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "aclnn/aclnn_base.h"
#include "common/attrs.h"
#include "common/tensor_view.h"

struct aclTensor;
struct aclScalar;

namespace acl_sim::aclnn {

/** A strided view over device memory, copied out of an aclTensor. */
struct TensorArg {
  aclDataType dtype = ACL_FLOAT;
  aclFormat format = ACL_FORMAT_ND;
  std::vector<int64_t> shape;    // view dims, outermost first
  std::vector<int64_t> strides;  // in elements
  int64_t offset = 0;            // in elements from data
  std::vector<int64_t> storage;
  void* data = nullptr;          // storage start; nullptr for an absent optional tensor

  bool present() const { return data != nullptr || (!shape.empty() && numel() == 0); }
  size_t rank() const { return shape.size(); }
  int64_t numel() const;
  /** Bytes per element (0 for ACL_INT4, which packs two values per byte). */
  size_t elem_bytes() const;
  /** Address of element 0 of the view (data + offset elements). */
  void* origin() const;
  /** Row-major dense (strides match the shape; size-1 dims may have any stride). */
  bool contiguous() const;
  /** "float16[2,3] strides [3,1] offset 0" for messages. */
  std::string describe() const;
};

/** The value of an aclScalar. */
struct ScalarArg {
  aclDataType dtype = ACL_FLOAT;
  double value = 0;     // as a double (exact for every int32 / float type)
  int64_t ivalue = 0;   // as an integer (truncated for float types)
  bool present = false;
};

/** Copy of @p t (validated through the handle table; NULL -> ACLNN_ERR_PARAM_NULLPTR naming @p what). Its
 *  memory range must be device memory of one device (ACLNN_ERR_PARAM_INVALID otherwise). */
TensorArg tensor_arg(const aclTensor* t, const char* what);
/** As tensor_arg, but NULL gives an absent TensorArg (present() false). */
TensorArg optional_tensor_arg(const aclTensor* t, const char* what);
ScalarArg scalar_arg(const aclScalar* s, const char* what);
ScalarArg optional_scalar_arg(const aclScalar* s, const char* what);
std::vector<int64_t> int_array_arg(const aclIntArray* a, const char* what);
std::vector<TensorArg> tensor_list_arg(const aclTensorList* l, const char* what);

/** A dense, row-major buffer (owned, or aliasing a caller's dense view). */
class Dense {
 public:
  Dense() = default;
  Dense(int dtype, std::vector<int64_t> shape);               // owned, uninitialised
  Dense(int dtype, std::vector<int64_t> shape, void* alias);  // aliases caller memory
  void* data() const { return data_; }
  int dtype() const { return dtype_; }
  const std::vector<int64_t>& shape() const { return shape_; }
  int64_t numel() const;
  bool aliased() const { return !owned_; }
  /** The kernels' operand type (common/tensor_view.h). */
  TensorView view() const { return TensorView{data_, dtype_, shape_}; }
  /** Same buffer, another shape with the same element count (a reshape). */
  Dense reshaped(std::vector<int64_t> shape) const;

 private:
  std::shared_ptr<unsigned char[]> owned_;
  void* data_ = nullptr;
  int dtype_ = 0;
  std::vector<int64_t> shape_;
};

/** The view of @p t as a dense buffer of @p dtype (gather + cast; aliases when already dense). Call inside the
 *  stream task. */
Dense read_dense(const TensorArg& t, int dtype);
/** A dense buffer for writing the result that goes to @p out (aliases out when it is dense and of @p dtype). */
Dense output_dense(const TensorArg& out, int dtype);
/** Write @p d (same element count as out) into @p out's strided view, casting to out's dtype. No-op if aliased. */
void commit(const Dense& d, const TensorArg& out);
/** Copy the view @p src into the view @p dst (same shape; any strides; dtype cast). */
void copy_view(const TensorArg& src, const TensorArg& dst);

/** Run a registered csrc/kernels operator (ONNX semantics) on dense operands; @p name labels errors. */
void run_kernel(const char* onnx_op, std::vector<TensorView> inputs, std::vector<TensorView> outputs,
                const Attrs* attrs = nullptr);

}  // namespace acl_sim::aclnn
