"""Error codes are named once in C++ (csrc/common/error_codes.h): the user constants of
acl_sim.constants and acl_sim.hccl agree with that table, and the one ACL -> HCCL translation maps
runtime codes to the nearest HcclResult."""
from acl_sim import constants as C
from acl_sim import hccl as H


def core_rows():
    from acl_sim._core import testing

    return testing.error_codes()


def core_codes():
    return {name: code for code, name in core_rows()}


def test_names_are_unique_and_values_distinct():
    rows = core_rows()
    assert len({name for _, name in rows}) == len(rows)
    assert len({code for code, _ in rows}) == len(rows)


def test_acl_constants_agree_with_the_cpp_table():
    table = core_codes()
    names = [n for n in vars(C) if n.startswith("ACL_ERROR_") and n != "ACL_ERROR_NONE"]
    assert len(names) > 100
    for name in names:
        assert table.get(name) == getattr(C, name), name


def test_hccl_constants_agree_with_the_cpp_table():
    table = core_codes()
    names = [n for n in vars(H) if n.startswith("HCCL_E_")]
    assert len(names) == 24
    for name in names:
        assert table.get(name) == getattr(H, name), name


def test_the_magic_numbers_have_names():
    table = core_codes()
    assert table["ACL_ERROR_RT_KERNEL_LOOKUP"] == 507027
    assert table["ACL_ERROR_GE_EXEC_MODEL_PATH_INVALID"] == 145002
    assert table["ACLNN_ERR_PARAM_NULLPTR"] == 161001


def test_acl_to_hccl_translation():
    from acl_sim._core import testing

    for code in (C.ACL_ERROR_INVALID_PARAM, C.ACL_ERROR_RT_PARAM_INVALID, C.ACL_ERROR_RT_INVALID_DEVICEID):
        assert testing.hccl_result_of(code) == H.HCCL_E_PARA
    for code in (C.ACL_ERROR_BAD_ALLOC, C.ACL_ERROR_RT_MEMORY_ALLOCATION):
        assert testing.hccl_result_of(code) == H.HCCL_E_MEMORY
    assert testing.hccl_result_of(C.ACL_ERROR_OP_NOT_FOUND) == H.HCCL_E_RUNTIME
    assert testing.hccl_result_of(H.HCCL_E_TIMEOUT) == H.HCCL_E_TIMEOUT
