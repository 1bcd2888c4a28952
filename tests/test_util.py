"""acl.util: bytes/NumPy/pointer helpers and native threads."""
import warnings

import numpy as np
import pytest

import acl_sim.constants as C


def test_bytes_to_ptr_is_the_objects_own_buffer(acl, device):
    data = bytes(64)
    ptr = acl.util.bytes_to_ptr(data)
    d, _ = acl.rt.malloc(64, 0)
    acl.rt.memset(d, 64, 0x5A, 64)
    # samples write device results straight into a bytes object
    assert acl.rt.memcpy(ptr, 64, d, 64, 2) == 0
    assert data == b"\x5a" * 64
    assert acl.util.ptr_to_bytes(ptr, 64) == data
    acl.rt.free(d)
    with pytest.raises(TypeError):
        acl.util.bytes_to_ptr("text")


def test_ptr_to_bytes_copies(acl):
    arr = np.arange(16, dtype=np.uint8)
    b = acl.util.ptr_to_bytes(arr.ctypes.data, 16)
    arr[0] = 99
    assert b == bytes(range(16))
    assert acl.util.ptr_to_bytes(arr.ctypes.data, 0) == b""


def test_numpy_helpers(acl):
    arr = np.arange(12, dtype=np.float32).reshape(3, 4)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        assert acl.util.numpy_to_ptr(arr) == arr.ctypes.data
    assert w and "deprecated" in str(w[0].message)
    t = arr.T
    ptr, arr_c = acl.util.numpy_contiguous_to_ptr(t)
    assert arr_c.flags["C_CONTIGUOUS"] and ptr == arr_c.ctypes.data
    np.testing.assert_array_equal(arr_c, t)
    ptr2, same = acl.util.numpy_contiguous_to_ptr(arr)
    assert ptr2 == arr.ctypes.data


@pytest.mark.parametrize("code,dtype", [(0, np.bool_), (1, np.int8), (2, np.uint8), (3, np.int16), (4, np.uint16),
                                        (5, np.int32), (6, np.uint32), (7, np.int64), (8, np.uint64),
                                        (11, np.float32), (12, np.float64), (23, np.float16)])
def test_ptr_to_numpy_is_a_writable_view(acl, code, dtype):
    base = np.zeros(24, dtype=dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        view = acl.util.ptr_to_numpy(base.ctypes.data, (2, 3), code)
    assert view.dtype == dtype and view.shape == (2, 3)
    view[1, 2] = 1
    assert base[5] == 1


def test_ptr_to_numpy_rejects_unknown_code(acl):
    base = np.zeros(4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(ValueError):
            acl.util.ptr_to_numpy(base.ctypes.data, (4,), 99)


def test_start_thread_has_no_context(acl, device):
    out = []
    tid, ret = acl.util.start_thread(lambda args: out.append((args, acl.rt.get_context()[1])), ["a", 1])
    assert ret == 0 and tid != 0
    assert acl.util.stop_thread(tid) == 0
    assert out == [(["a", 1], C.ACL_ERROR_RT_CONTEXT_NULL)]
    assert acl.util.stop_thread(tid) != 0
