"""The aclDataType vocabulary of the Python side, written once.

One row per aclDataType value: its ACL enumerator name, the lower-case name
(NumPy's spelling where NumPy has the type), storage bits, whether the kernels
compute on it, and the ONNX TensorProto element type with the same encoding.
The C++ core has the same table (csrc/common/dtype.h); tests/test_dtypes.py
checks that the two agree row by row.

Sizes: whole-byte types have ``bits // 8`` bytes (the 8-bit floats HIFLOAT8 and
FLOAT8_* are 1 byte, as in CANN's aclDataTypeSize); sub-byte types (INT4,
UINT1, FLOAT6_*, FLOAT4_*) and STRING have size 0, as ``acl.data_type_size``.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

try:  # bfloat16 as onnx / ml_dtypes spell it (ml_dtypes comes with onnx)
    import ml_dtypes

    BFLOAT16 = np.dtype(ml_dtypes.bfloat16)
except ImportError:  # pragma: no cover - ml_dtypes is in the test extra
    BFLOAT16 = None


class DType(NamedTuple):
    value: int      # the aclDataType number
    acl_name: str   # the enumerator, "ACL_FLOAT16"
    name: str       # "float16"
    bits: int       # storage bits per element; 0 for STRING
    computed: bool  # the kernels compute on it
    onnx: int       # ONNX TensorProto element type, 0 if ONNX has none

    @property
    def size(self) -> int:
        """Bytes per element; 0 for sub-byte and string types."""
        return self.bits // 8 if self.bits % 8 == 0 else 0


# fmt: off
TABLE = (
    DType(-1, "ACL_DT_UNDEFINED", "undefined", 0, False, 0),
    DType(0, "ACL_FLOAT", "float32", 32, True, 1),
    DType(1, "ACL_FLOAT16", "float16", 16, True, 10),
    DType(2, "ACL_INT8", "int8", 8, True, 3),
    DType(3, "ACL_INT32", "int32", 32, True, 6),
    DType(4, "ACL_UINT8", "uint8", 8, True, 2),
    DType(6, "ACL_INT16", "int16", 16, True, 5),
    DType(7, "ACL_UINT16", "uint16", 16, True, 4),
    DType(8, "ACL_UINT32", "uint32", 32, True, 12),
    DType(9, "ACL_INT64", "int64", 64, True, 7),
    DType(10, "ACL_UINT64", "uint64", 64, True, 13),
    DType(11, "ACL_DOUBLE", "float64", 64, True, 11),
    DType(12, "ACL_BOOL", "bool", 8, True, 9),
    DType(13, "ACL_STRING", "string", 0, False, 8),
    DType(16, "ACL_COMPLEX64", "complex64", 64, False, 14),
    DType(17, "ACL_COMPLEX128", "complex128", 128, False, 15),
    DType(27, "ACL_BF16", "bfloat16", 16, True, 16),
    DType(29, "ACL_INT4", "int4", 4, False, 22),
    DType(30, "ACL_UINT1", "uint1", 1, False, 0),
    DType(33, "ACL_COMPLEX32", "complex32", 32, False, 0),
    DType(34, "ACL_HIFLOAT8", "hifloat8", 8, False, 0),
    DType(35, "ACL_FLOAT8_E5M2", "float8_e5m2", 8, False, 19),
    DType(36, "ACL_FLOAT8_E4M3FN", "float8_e4m3fn", 8, False, 17),
    DType(37, "ACL_FLOAT8_E8M0", "float8_e8m0", 8, False, 24),
    DType(38, "ACL_FLOAT6_E3M2", "float6_e3m2", 6, False, 0),
    DType(39, "ACL_FLOAT6_E2M3", "float6_e2m3", 6, False, 0),
    DType(40, "ACL_FLOAT4_E2M1", "float4_e2m1", 4, False, 23),
    DType(41, "ACL_FLOAT4_E1M2", "float4_e1m2", 4, False, 0),
)
# fmt: on

BY_VALUE = {d.value: d for d in TABLE}
BY_NAME = {d.name: d for d in TABLE}


# aclDataType -> NumPy dtype for the types the kernels compute on (bfloat16 only with ml_dtypes).
NUMPY_OF_ACL = {d.value: (BFLOAT16 if d.name == "bfloat16" else np.dtype(d.name))
                for d in TABLE if d.computed and (d.name != "bfloat16" or BFLOAT16 is not None)}
ACL_OF_NUMPY = {dt: v for v, dt in NUMPY_OF_ACL.items()}

# CANN's spellings of type names (single-op JSON, ATC) beyond the table's own names.
ALIASES = {"float": 0, "half": 1, "double": 11, "bf16": 27}


def size(value: int) -> int:
    """Bytes per element of an aclDataType (0 for sub-byte, string and unknown values), as aclDataTypeSize."""
    d = BY_VALUE.get(value)
    return d.size if d is not None else 0


def name(value: int) -> str:
    """"float16", ...; "unknown dtype" for a value that is not an aclDataType."""
    d = BY_VALUE.get(value)
    return d.name if d is not None else "unknown dtype"


def to_numpy(value: int) -> np.dtype:
    """NumPy dtype of an aclDataType the kernels compute on; ValueError for any other."""
    try:
        return NUMPY_OF_ACL[value]
    except KeyError:
        raise ValueError(f"aclDataType {value} ({name(value)}) has no NumPy dtype") from None


def from_numpy(dtype) -> int:
    """aclDataType of a NumPy dtype the kernels compute on (ml_dtypes.bfloat16 included); ValueError otherwise."""
    dt = np.dtype(dtype)
    try:
        return ACL_OF_NUMPY[dt]
    except KeyError:
        raise ValueError(f"NumPy dtype {dt} has no aclDataType") from None


def from_name(text: str) -> int:
    """aclDataType of a type name ("float16", "half", "bf16", ...; case-insensitive); ValueError if unknown."""
    key = text.lower()
    if key in BY_NAME and key != "undefined":
        return BY_NAME[key].value
    if key in ALIASES:
        return ALIASES[key]
    raise ValueError(f"unknown data type '{text}'")


def to_onnx(value: int) -> int:
    """ONNX element type of an aclDataType the kernels compute on; 0 for any other."""
    d = BY_VALUE.get(value)
    return d.onnx if d is not None and d.computed else 0
