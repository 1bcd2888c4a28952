// The aclDataType vocabulary, written once for the whole core: storage size,
// names, kind, and the matching ONNX element type. Every layer asks here (the
// Python side has the same table in python/acl_sim/dtypes.py;
// tests/test_dtypes.py checks that they agree row by row).
//
// Sizes follow CANN's aclDataTypeSize for every whole-byte type, including the
// 8-bit float formats (HIFLOAT8, FLOAT8_*): 1 byte. Sub-byte types (INT4,
// UINT1, FLOAT6_*, FLOAT4_*) have no whole-byte element size: dtype_size gives
// 0 for them (CANN rounds them up to 1) and their bit width is in `bits`.
// ACL_STRING has no fixed size (0).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "common/export.h"

namespace acl_sim {

enum class DtypeKind : uint8_t { kBool, kSigned, kUnsigned, kFloat, kComplex, kString };

/** One aclDataType value (acl_base.h). */
struct DtypeInfo {
  int dtype;             // the aclDataType value
  const char* acl_name;  // the enumerator: "ACL_FLOAT16"
  const char* name;      // lower-case name used in messages and by NumPy where it has the type: "float16"
  uint8_t bits;          // storage bits per element (4 for INT4, 1 for UINT1); 0 for STRING
  DtypeKind kind;
  bool computed;         // the kernels compute on it (fp32/fp16/bf16/fp64, 8-64 bit ints, bool)
  int onnx;              // ONNX TensorProto element type with the same encoding, 0 if ONNX has none
};

/** Row of @p dtype; nullptr for a value acl_base.h does not define (5, 14, 15, > 41, ...). */
ACL_SIM_EXPORT const DtypeInfo* find_dtype(int dtype);

/** Every row, in enum order; @p count gets the number of rows. */
ACL_SIM_EXPORT const DtypeInfo* all_dtypes(size_t* count);

/** Bytes per element (aclDataTypeSize); 0 for sub-byte, string and undefined types. */
ACL_SIM_EXPORT size_t dtype_size(int dtype);

/** "float16", "bfloat16", ...; "unknown dtype" for a value that is not an aclDataType. */
ACL_SIM_EXPORT const char* dtype_name(int dtype);

/** The aclDataType whose `name` is @p name, or -1 (ACL_DT_UNDEFINED). */
ACL_SIM_EXPORT int dtype_from_name(std::string_view name);

/** A floating type the kernels compute on: float32, float16, bfloat16, float64. */
ACL_SIM_EXPORT bool is_float_dtype(int dtype);

/** An integer type the kernels compute on: int8..int64, uint8..uint64 (not bool). */
ACL_SIM_EXPORT bool is_int_dtype(int dtype);

/** ONNX element type of a type the kernels compute on, 0 for any other (no Cast to it). */
ACL_SIM_EXPORT int onnx_dtype_of(int dtype);

}  // namespace acl_sim
