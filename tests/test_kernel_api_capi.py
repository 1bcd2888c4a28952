"""The C launch API of acl/acl_rt_kernel.h called directly (ctypes on
libascendcl.so, the same library instance the acl module uses): the full
binary-load flow with placeholders, argument-list rules, and error codes.
"""
import ctypes as C
import os

import numpy as np
import pytest

from acl_sim import kernel as K
from test_kernel_api_kernels import (  # noqa: F401  (fixtures)
    RT_INVALID_HANDLE,
    RT_PARAM_INVALID,
    add_custom_so,
    dev,
    kernel_build_dir,
    stream,
    tiling_bytes,
)

ACL_ERROR_INVALID_PARAM = 100000
VP = C.c_void_p


class LaunchAttr(C.Structure):
    _fields_ = [("id", C.c_int), ("value", C.c_uint32 * 4)]


class LaunchCfg(C.Structure):
    _fields_ = [("attrs", C.POINTER(LaunchAttr)), ("numAttrs", C.c_size_t)]


@pytest.fixture(scope="module")
def lib(acl):
    lib = C.CDLL(os.path.join(K.library_dir(), "libascendcl.so"))
    sigs = {
        "aclrtBinaryLoadFromFile": [C.c_char_p, VP, C.POINTER(VP)],
        "aclrtBinaryUnLoad": [VP],
        "aclrtBinaryGetFunction": [VP, C.c_char_p, C.POINTER(VP)],
        "aclrtGetFunctionName": [VP, C.c_uint32, C.c_char_p],
        "aclrtKernelArgsInit": [VP, C.POINTER(VP)],
        "aclrtKernelArgsAppend": [VP, VP, C.c_size_t, C.POINTER(VP)],
        "aclrtKernelArgsAppendPlaceHolder": [VP, C.POINTER(VP)],
        "aclrtKernelArgsGetPlaceHolderBuffer": [VP, VP, C.c_size_t, C.POINTER(VP)],
        "aclrtKernelArgsParaUpdate": [VP, VP, VP, C.c_size_t],
        "aclrtKernelArgsFinalize": [VP],
        "aclrtLaunchKernelWithConfig": [VP, C.c_uint32, VP, C.POINTER(LaunchCfg), VP, VP],
        "aclrtLaunchKernel": [VP, C.c_uint32, VP, C.c_size_t, VP],
        "aclrtSynchronizeStream": [VP],
    }
    for name, args in sigs.items():
        fn = getattr(lib, name)
        fn.argtypes = args
        fn.restype = C.c_int
    return lib


def _append_ptr(lib, args, value):
    v = C.c_uint64(value)
    p = VP()
    assert lib.aclrtKernelArgsAppend(args, C.byref(v), 8, C.byref(p)) == 0
    return p


@pytest.fixture
def add_fn(lib, add_custom_so):
    binh = VP()
    assert lib.aclrtBinaryLoadFromFile(add_custom_so.encode(), None, C.byref(binh)) == 0
    fn = VP()
    assert lib.aclrtBinaryGetFunction(binh, b"add_custom_fp32", C.byref(fn)) == 0
    yield binh, fn
    lib.aclrtBinaryUnLoad(binh)


def test_binary_load_flow_with_placeholder_tiling(acl, lib, dev, stream, add_fn):
    _, fn = add_fn
    total, block_dim = 8 * 2048, 8
    x = np.arange(total, dtype=np.float32)
    y = np.full(total, 0.5, np.float32)
    xd, yd, zd = dev.upload(x), dev.upload(y), dev.zeros(total, np.float32)
    args = VP()
    assert lib.aclrtKernelArgsInit(fn, C.byref(args)) == 0
    for p in (xd, yd, zd):
        _append_ptr(lib, args, p)
    ph, buf = VP(), VP()
    assert lib.aclrtKernelArgsAppendPlaceHolder(args, C.byref(ph)) == 0
    assert lib.aclrtKernelArgsGetPlaceHolderBuffer(args, ph, 8, C.byref(buf)) == 0
    C.memmove(buf, tiling_bytes((total, "I"), (8, "I")).ctypes.data, 8)
    assert lib.aclrtKernelArgsFinalize(args) == 0
    assert lib.aclrtLaunchKernelWithConfig(fn, block_dim, VP(stream), None, args, None) == 0
    # The runtime copied the placeholder at launch: editing the host buffer now must not matter.
    C.memmove(buf, tiling_bytes((0, "I"), (0, "I")).ctypes.data, 8)
    assert lib.aclrtSynchronizeStream(VP(stream)) == 0
    np.testing.assert_array_equal(dev.download(zd, total, np.float32), x + y)
    name = C.create_string_buffer(64)
    assert lib.aclrtGetFunctionName(fn, 64, name) == 0 and name.value == b"add_custom_fp32"


def test_para_update_and_config_attrs(acl, lib, dev, stream, add_fn):
    _, fn = add_fn
    total = 8 * 256
    x = np.ones(total, np.float32)
    xd, zd = dev.upload(x), dev.zeros(total, np.float32)
    td = dev.upload(tiling_bytes((total, "I"), (1, "I")))
    args = VP()
    assert lib.aclrtKernelArgsInit(fn, C.byref(args)) == 0
    _append_ptr(lib, args, xd)
    _append_ptr(lib, args, xd)
    pz = _append_ptr(lib, args, zd)
    _append_ptr(lib, args, td)
    assert lib.aclrtKernelArgsFinalize(args) == 0
    attr = (LaunchAttr * 1)(LaunchAttr(3, (C.c_uint32 * 4)(1, 0, 0, 0)))  # ENGINE_TYPE = AIV
    cfg = LaunchCfg(attr, 1)
    assert lib.aclrtLaunchKernelWithConfig(fn, 8, VP(stream), C.byref(cfg), args, None) == 0
    assert lib.aclrtSynchronizeStream(VP(stream)) == 0
    assert (dev.download(zd, total, np.float32) == 2).all()
    # Point z at x: x becomes x + x.
    v = C.c_uint64(xd)
    assert lib.aclrtKernelArgsParaUpdate(args, pz, C.byref(v), 8) == 0
    assert lib.aclrtLaunchKernelWithConfig(fn, 8, VP(stream), None, args, None) == 0
    assert lib.aclrtSynchronizeStream(VP(stream)) == 0
    assert (dev.download(xd, total, np.float32) == 2).all()
    # An unknown attribute id is rejected.
    bad = LaunchCfg((LaunchAttr * 1)(LaunchAttr(99, (C.c_uint32 * 4)())), 1)
    assert lib.aclrtLaunchKernelWithConfig(fn, 8, VP(stream), C.byref(bad), args, None) == RT_PARAM_INVALID


def test_launch_kernel_reads_slots_from_device_memory(acl, lib, dev, stream, add_fn):
    _, fn = add_fn
    total = 8 * 256
    x = np.arange(total, dtype=np.float32)
    xd, zd = dev.upload(x), dev.zeros(total, np.float32)
    td = dev.upload(tiling_bytes((total, "I"), (1, "I")))
    slots = dev.upload(np.array([xd, xd, zd, td], dtype=np.uint64))
    assert lib.aclrtLaunchKernel(fn, 8, VP(slots), 32, VP(stream)) == 0
    assert lib.aclrtSynchronizeStream(VP(stream)) == 0
    np.testing.assert_array_equal(dev.download(zd, total, np.float32), 2 * x)
    assert lib.aclrtLaunchKernel(fn, 8, VP(slots), 30, VP(stream)) == RT_PARAM_INVALID
    assert lib.aclrtLaunchKernel(fn, 0, VP(slots), 32, VP(stream)) == RT_PARAM_INVALID


def test_argument_list_rules(acl, lib, dev, stream, add_fn, kernel_build_dir):
    binh, fn = add_fn
    other = VP()
    assert lib.aclrtBinaryGetFunction(binh, b"add_custom", C.byref(other)) == 0
    args = VP()
    assert lib.aclrtKernelArgsInit(fn, C.byref(args)) == 0
    v = C.c_uint64(0)
    p = VP()
    # paramSize must be 1..8; NULL outputs are ACL_ERROR_INVALID_PARAM.
    assert lib.aclrtKernelArgsAppend(args, C.byref(v), 0, C.byref(p)) == RT_PARAM_INVALID
    assert lib.aclrtKernelArgsAppend(args, C.byref(v), 16, C.byref(p)) == RT_PARAM_INVALID
    assert lib.aclrtKernelArgsAppend(args, C.byref(v), 8, None) == ACL_ERROR_INVALID_PARAM
    assert lib.aclrtKernelArgsInit(fn, None) == ACL_ERROR_INVALID_PARAM
    p0 = _append_ptr(lib, args, 0)
    buf = VP()
    # A placeholder buffer only exists for placeholder params; params of another list are foreign.
    assert lib.aclrtKernelArgsGetPlaceHolderBuffer(args, p0, 8, C.byref(buf)) == RT_PARAM_INVALID
    args2 = VP()
    assert lib.aclrtKernelArgsInit(fn, C.byref(args2)) == 0
    assert lib.aclrtKernelArgsGetPlaceHolderBuffer(args2, p0, 8, C.byref(buf)) == RT_INVALID_HANDLE
    # A placeholder without a buffer cannot be finalized.
    ph = VP()
    assert lib.aclrtKernelArgsAppendPlaceHolder(args2, C.byref(ph)) == 0
    assert lib.aclrtKernelArgsFinalize(args2) == RT_PARAM_INVALID
    # Launch needs a finalized list built for the same function, and reserve == NULL.
    assert lib.aclrtLaunchKernelWithConfig(fn, 1, VP(stream), None, args, None) == RT_PARAM_INVALID
    assert lib.aclrtKernelArgsFinalize(args) == 0
    assert lib.aclrtKernelArgsAppend(args, C.byref(v), 8, C.byref(p)) == RT_PARAM_INVALID  # closed
    assert lib.aclrtLaunchKernelWithConfig(other, 1, VP(stream), None, args, None) == RT_PARAM_INVALID
    assert lib.aclrtLaunchKernelWithConfig(fn, 1, VP(stream), None, args, VP(1)) == ACL_ERROR_INVALID_PARAM
    # Stale handles after unload.
    assert lib.aclrtBinaryUnLoad(binh) == 0
    assert lib.aclrtKernelArgsFinalize(args) == RT_INVALID_HANDLE
    assert lib.aclrtKernelArgsInit(fn, C.byref(args)) == RT_INVALID_HANDLE
    assert lib.aclrtBinaryUnLoad(binh) == RT_INVALID_HANDLE
    assert lib.aclrtBinaryLoadFromFile(None, None, C.byref(binh)) == ACL_ERROR_INVALID_PARAM
