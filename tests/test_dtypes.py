"""The dtype vocabulary is written once per language (csrc/common/dtype.h, acl_sim.dtypes): the two
tables agree row by row, acl.data_type_size follows them for every value, the user constants name the
same values, and the fp16 conversions are NumPy's round-to-nearest-even."""
import numpy as np
import pytest

from acl_sim import constants as C
from acl_sim import dtypes


def core_table():
    from acl_sim._core import testing

    return testing.dtype_table()


def test_cpp_and_python_tables_agree():
    want = [(d.value, d.acl_name, d.name, d.bits, d.computed, d.onnx) for d in dtypes.TABLE]
    assert [tuple(r) for r in core_table()] == want


@pytest.mark.parametrize("value", range(-2, 45))
def test_data_type_size_matches_the_table_for_every_value(acl, value):
    assert acl.data_type_size(value) == dtypes.size(value)


def test_sizes_follow_cann():
    # 8-bit floats are one byte (CANN's aclDataTypeSize); sub-byte and string types have none.
    assert {d.acl_name: d.size for d in dtypes.TABLE if d.acl_name.startswith("ACL_FLOAT8") or
            d.acl_name == "ACL_HIFLOAT8"} == {"ACL_HIFLOAT8": 1, "ACL_FLOAT8_E5M2": 1, "ACL_FLOAT8_E4M3FN": 1,
                                              "ACL_FLOAT8_E8M0": 1}
    assert [dtypes.size(getattr(C, n)) for n in ("ACL_INT4", "ACL_UINT1", "ACL_STRING", "ACL_FLOAT4_E2M1")] == [0] * 4
    assert dtypes.size(C.ACL_COMPLEX32) == 4 and dtypes.size(C.ACL_COMPLEX128) == 16


def test_user_constants_name_the_table_values():
    for d in dtypes.TABLE:
        assert getattr(C, d.acl_name) == d.value, d.acl_name
    defined = {n: v for n, v in vars(C).items() if n.startswith("ACL_") and n.isupper()}
    dtype_names = {n for n in defined if n in {d.acl_name for d in dtypes.TABLE}}
    assert len(dtype_names) == len(dtypes.TABLE)


def test_numpy_mapping_round_trips():
    for value, dt in dtypes.NUMPY_OF_ACL.items():
        assert dtypes.from_numpy(dt) == value
        assert dt.itemsize == dtypes.size(value)
    with pytest.raises(ValueError):
        dtypes.from_numpy(np.complex64)
    with pytest.raises(ValueError):
        dtypes.to_numpy(C.ACL_HIFLOAT8)
    assert dtypes.from_name("half") == dtypes.from_name("FLOAT16") == C.ACL_FLOAT16


def test_tensor_desc_size_uses_the_table(acl):
    desc = acl.create_tensor_desc(C.ACL_HIFLOAT8, [2, 3], C.ACL_FORMAT_ND)
    assert desc != 0
    assert acl.get_tensor_desc_size(desc) == 6
    acl.destroy_tensor_desc(desc)


def test_fp16_conversions_are_numpy_round_to_nearest_even(acl):
    halves = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16)
    for bits in halves[::97]:
        want = float(np.uint16(bits).view(np.float16))
        got = acl.float16_to_float(int(bits))
        assert (np.isnan(got) and np.isnan(want)) or got == want, hex(bits)
    rng = np.random.default_rng(0)
    floats = np.concatenate([rng.standard_normal(2000) * 10.0 ** rng.integers(-9, 6, 2000),
                             [0.0, -0.0, 65504.0, 65520.0, 1e9, -1e9, 2.0 ** -24, 2.0 ** -25, 3 * 2.0 ** -26]])
    for f in floats.astype(np.float32):
        with np.errstate(over="ignore"):
            want = int(np.float16(f).view(np.uint16))
        assert acl.float_to_float16(float(f)) == want, float(f)
    assert np.isnan(np.uint16(acl.float_to_float16(float("nan"))).view(np.float16))
