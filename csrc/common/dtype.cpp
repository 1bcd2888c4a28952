// The aclDataType table (contract in dtype.h).
#include "common/dtype.h"

#include "acl/acl_base.h"

namespace acl_sim {
namespace {

using K = DtypeKind;

// ONNX TensorProto element types, by their ONNX names.
enum Onnx : int {
  kOnnxNone = 0, kOnnxFloat = 1, kOnnxUint8 = 2, kOnnxInt8 = 3, kOnnxUint16 = 4, kOnnxInt16 = 5, kOnnxInt32 = 6,
  kOnnxInt64 = 7, kOnnxString = 8, kOnnxBool = 9, kOnnxFloat16 = 10, kOnnxDouble = 11, kOnnxUint32 = 12,
  kOnnxUint64 = 13, kOnnxComplex64 = 14, kOnnxComplex128 = 15, kOnnxBfloat16 = 16, kOnnxFloat8E4M3FN = 17,
  kOnnxFloat8E5M2 = 19, kOnnxInt4 = 22, kOnnxFloat4E2M1 = 23, kOnnxFloat8E8M0 = 24,
};

constexpr DtypeInfo kTable[] = {
    {ACL_DT_UNDEFINED, "ACL_DT_UNDEFINED", "undefined", 0, K::kString, false, kOnnxNone},
    {ACL_FLOAT, "ACL_FLOAT", "float32", 32, K::kFloat, true, kOnnxFloat},
    {ACL_FLOAT16, "ACL_FLOAT16", "float16", 16, K::kFloat, true, kOnnxFloat16},
    {ACL_INT8, "ACL_INT8", "int8", 8, K::kSigned, true, kOnnxInt8},
    {ACL_INT32, "ACL_INT32", "int32", 32, K::kSigned, true, kOnnxInt32},
    {ACL_UINT8, "ACL_UINT8", "uint8", 8, K::kUnsigned, true, kOnnxUint8},
    {ACL_INT16, "ACL_INT16", "int16", 16, K::kSigned, true, kOnnxInt16},
    {ACL_UINT16, "ACL_UINT16", "uint16", 16, K::kUnsigned, true, kOnnxUint16},
    {ACL_UINT32, "ACL_UINT32", "uint32", 32, K::kUnsigned, true, kOnnxUint32},
    {ACL_INT64, "ACL_INT64", "int64", 64, K::kSigned, true, kOnnxInt64},
    {ACL_UINT64, "ACL_UINT64", "uint64", 64, K::kUnsigned, true, kOnnxUint64},
    {ACL_DOUBLE, "ACL_DOUBLE", "float64", 64, K::kFloat, true, kOnnxDouble},
    {ACL_BOOL, "ACL_BOOL", "bool", 8, K::kBool, true, kOnnxBool},
    {ACL_STRING, "ACL_STRING", "string", 0, K::kString, false, kOnnxString},
    {ACL_COMPLEX64, "ACL_COMPLEX64", "complex64", 64, K::kComplex, false, kOnnxComplex64},
    {ACL_COMPLEX128, "ACL_COMPLEX128", "complex128", 128, K::kComplex, false, kOnnxComplex128},
    {ACL_BF16, "ACL_BF16", "bfloat16", 16, K::kFloat, true, kOnnxBfloat16},
    {ACL_INT4, "ACL_INT4", "int4", 4, K::kSigned, false, kOnnxInt4},
    {ACL_UINT1, "ACL_UINT1", "uint1", 1, K::kUnsigned, false, kOnnxNone},
    {ACL_COMPLEX32, "ACL_COMPLEX32", "complex32", 32, K::kComplex, false, kOnnxNone},
    {ACL_HIFLOAT8, "ACL_HIFLOAT8", "hifloat8", 8, K::kFloat, false, kOnnxNone},
    {ACL_FLOAT8_E5M2, "ACL_FLOAT8_E5M2", "float8_e5m2", 8, K::kFloat, false, kOnnxFloat8E5M2},
    {ACL_FLOAT8_E4M3FN, "ACL_FLOAT8_E4M3FN", "float8_e4m3fn", 8, K::kFloat, false, kOnnxFloat8E4M3FN},
    {ACL_FLOAT8_E8M0, "ACL_FLOAT8_E8M0", "float8_e8m0", 8, K::kFloat, false, kOnnxFloat8E8M0},
    {ACL_FLOAT6_E3M2, "ACL_FLOAT6_E3M2", "float6_e3m2", 6, K::kFloat, false, kOnnxNone},
    {ACL_FLOAT6_E2M3, "ACL_FLOAT6_E2M3", "float6_e2m3", 6, K::kFloat, false, kOnnxNone},
    {ACL_FLOAT4_E2M1, "ACL_FLOAT4_E2M1", "float4_e2m1", 4, K::kFloat, false, kOnnxFloat4E2M1},
    {ACL_FLOAT4_E1M2, "ACL_FLOAT4_E1M2", "float4_e1m2", 4, K::kFloat, false, kOnnxNone},
};

constexpr int kMaxDtype = ACL_FLOAT4_E1M2;

// Row index by value + 1 (so ACL_DT_UNDEFINED is slot 0); -1 for values with no row.
struct Index {
  int8_t slot[kMaxDtype + 2];
  constexpr Index() : slot() {
    for (int v = 0; v < kMaxDtype + 2; ++v) slot[v] = -1;
    for (int i = 0; i < int(sizeof(kTable) / sizeof(kTable[0])); ++i) slot[kTable[i].dtype + 1] = int8_t(i);
  }
};
constexpr Index kIndex;

}  // namespace

const DtypeInfo* find_dtype(int dtype) {
  if (dtype < -1 || dtype > kMaxDtype) return nullptr;
  int i = kIndex.slot[dtype + 1];
  return i < 0 ? nullptr : &kTable[i];
}

const DtypeInfo* all_dtypes(size_t* count) {
  *count = sizeof(kTable) / sizeof(kTable[0]);
  return kTable;
}

size_t dtype_size(int dtype) {
  const DtypeInfo* d = find_dtype(dtype);
  return d && d->bits % 8 == 0 ? d->bits / 8 : 0;
}

const char* dtype_name(int dtype) {
  const DtypeInfo* d = find_dtype(dtype);
  return d ? d->name : "unknown dtype";
}

int dtype_from_name(std::string_view name) {
  for (const DtypeInfo& d : kTable)
    if (name == d.name) return d.dtype;
  return ACL_DT_UNDEFINED;
}

bool is_float_dtype(int dtype) {
  const DtypeInfo* d = find_dtype(dtype);
  return d && d->computed && d->kind == DtypeKind::kFloat;
}

bool is_int_dtype(int dtype) {
  const DtypeInfo* d = find_dtype(dtype);
  return d && d->computed && (d->kind == DtypeKind::kSigned || d->kind == DtypeKind::kUnsigned);
}

int onnx_dtype_of(int dtype) {
  const DtypeInfo* d = find_dtype(dtype);
  return d && d->computed ? d->onnx : 0;
}

}  // namespace acl_sim
