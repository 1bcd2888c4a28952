// aclDataType <-> NumPy dtype for the bindings, from the one dtype table
// (common/dtype.h): a NumPy dtype is the table's `name` where NumPy has it.
#pragma once

#include <pybind11/numpy.h>

namespace acl_sim::py_bind {

namespace py = pybind11;

/** How a bfloat16 array is seen from NumPy. */
enum class Bf16As { kMlDtypes, kBits };

/** NumPy dtype of an aclDataType the kernels compute on (or complex64/128). bfloat16 is
 *  ml_dtypes.bfloat16 when that package is installed (else uint16 bits), or always uint16 bits
 *  with Bf16As::kBits. Raises ValueError naming @p who for any other type. */
py::dtype numpy_dtype_of(int acl, const char* who, Bf16As bf16 = Bf16As::kMlDtypes);

/** aclDataType of a NumPy dtype (ml_dtypes.bfloat16 included); raises TypeError naming @p who. */
int acl_dtype_of(const py::dtype& dt, const char* who);

}  // namespace acl_sim::py_bind
