// dtype helpers of the tensor descriptions (declared in tensor_desc.h; the handle table is capi's).
#include "op/tensor_desc.h"

namespace acl_sim {

size_t acl_dtype_bytes(int dtype) {
  switch (dtype) {
    case ACL_FLOAT: case ACL_INT32: case ACL_UINT32: return 4;
    case ACL_FLOAT16: case ACL_INT16: case ACL_UINT16: case ACL_BF16: return 2;
    case ACL_INT8: case ACL_UINT8: case ACL_BOOL: return 1;
    case ACL_HIFLOAT8: case ACL_FLOAT8_E5M2: case ACL_FLOAT8_E4M3FN: case ACL_FLOAT8_E8M0: return 1;
    case ACL_INT64: case ACL_UINT64: case ACL_DOUBLE: case ACL_COMPLEX64: return 8;
    case ACL_COMPLEX128: return 16;
    case ACL_COMPLEX32: return 4;
    default: return 0;
  }
}

const char* acl_dtype_name(int dtype) {
  switch (dtype) {
    case ACL_FLOAT: return "float32";
    case ACL_FLOAT16: return "float16";
    case ACL_INT8: return "int8";
    case ACL_INT32: return "int32";
    case ACL_UINT8: return "uint8";
    case ACL_INT16: return "int16";
    case ACL_UINT16: return "uint16";
    case ACL_UINT32: return "uint32";
    case ACL_INT64: return "int64";
    case ACL_UINT64: return "uint64";
    case ACL_DOUBLE: return "float64";
    case ACL_BOOL: return "bool";
    case ACL_BF16: return "bfloat16";
    default: return "unsupported dtype";
  }
}

}  // namespace acl_sim
