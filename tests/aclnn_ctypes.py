"""Calls aclnn operators from tests through ctypes on the libascendcl.so that `acl` loaded.

A device tensor is a NumPy view of a host base array mirrored in device memory: `Dev.view(v)`
describes any view of `dev.host` (slices, transposes, np.lib.stride_tricks.as_strided) as an
aclTensor with the same shape, element strides and storage offset, so tests exercise arbitrary
strides and offsets with NumPy computing the reference."""
from __future__ import annotations

import ctypes as C

import numpy as np

from acl_sim import dtypes

ACL_DT = dtypes.ACL_OF_NUMPY  # NumPy dtype -> aclDataType
ACL_BF16, ACL_INT4 = 27, 29
ND, NZ = 2, 29


def lib():
    import acl  # noqa: F401  (loads libascendcl.so)
    L = C.CDLL("libascendcl.so")
    for name in ("aclCreateTensor", "aclCreateScalar", "aclCreateIntArray", "aclCreateTensorList",
                 "aclCreateFloatArray", "aclCreateBoolArray"):
        getattr(L, name).restype = C.c_void_p
    L.aclCreateTensor.argtypes = [C.POINTER(C.c_int64), C.c_uint64, C.c_int, C.POINTER(C.c_int64), C.c_int64,
                                  C.c_int, C.POINTER(C.c_int64), C.c_uint64, C.c_void_p]
    L.aclCreateScalar.argtypes = [C.c_void_p, C.c_int]
    L.aclCreateIntArray.argtypes = [C.POINTER(C.c_int64), C.c_uint64]
    L.aclCreateTensorList.argtypes = [C.POINTER(C.c_void_p), C.c_uint64]
    L.aclGetRecentErrMsg.restype = C.c_char_p
    for name in ("aclDestroyTensor", "aclDestroyScalar", "aclDestroyIntArray", "aclDestroyTensorList"):
        getattr(L, name).argtypes = [C.c_void_p]
    return L


def i64s(vals):
    vals = [int(v) for v in vals]
    return (C.c_int64 * max(len(vals), 1))(*vals)


class Aclnn:
    """Descriptors, device memory and two-phase operator calls; frees everything on close()."""

    def __init__(self, acl):
        self.acl, self.L = acl, lib()
        self._free, self._destroy = [], []

    # ---- memory
    def dev(self, host: np.ndarray) -> "Dev":
        host = np.ascontiguousarray(host)
        size = max(host.nbytes, 1)
        ptr, ret = self.acl.rt.malloc(size, 0)
        assert ret == 0
        if host.nbytes:
            assert self.acl.rt.memcpy(ptr, size, host.ctypes.data, host.nbytes, 1) == 0
        self._free.append(ptr)
        return Dev(self, host, ptr)

    # ---- descriptors
    def tensor(self, dev: "Dev", view: np.ndarray | None = None, dtype: int | None = None, fmt: int = ND,
               shape=None, strides=None, offset=None):
        view = dev.host if view is None else view
        item = dev.host.itemsize
        shape = list(view.shape) if shape is None else list(shape)
        strides = [s // item for s in view.strides] if strides is None else list(strides)
        if offset is None:
            offset = (view.__array_interface__["data"][0] - dev.host.__array_interface__["data"][0]) // item
        dt = ACL_DT[dev.host.dtype] if dtype is None else dtype
        storage = [dev.host.size * (2 if dt == ACL_INT4 else 1)]  # int4 packs two elements per byte
        t = self.L.aclCreateTensor(i64s(shape), len(shape), dt, i64s(strides), offset, fmt, i64s(storage), 1,
                                   C.c_void_p(dev.ptr))
        assert t, self.L.aclGetRecentErrMsg()
        self._destroy.append((self.L.aclDestroyTensor, t))
        return C.c_void_p(t)

    def scalar(self, value, dtype=np.float32):
        arr = np.array([value], dtype=dtype)
        s = self.L.aclCreateScalar(arr.ctypes.data, ACL_DT[arr.dtype])
        assert s
        self._destroy.append((self.L.aclDestroyScalar, s))
        return C.c_void_p(s)

    def ints(self, vals):
        a = self.L.aclCreateIntArray(i64s(vals), len(vals))
        assert a
        self._destroy.append((self.L.aclDestroyIntArray, a))
        return C.c_void_p(a)

    def tensor_list(self, tensors):
        arr = (C.c_void_p * len(tensors))(*[t.value for t in tensors])
        lst = self.L.aclCreateTensorList(arr, len(tensors))
        assert lst
        # The list owns its tensors now.
        owned = {t.value for t in tensors}
        self._destroy = [(f, h) for f, h in self._destroy if h not in owned]
        self._destroy.append((self.L.aclDestroyTensorList, lst))
        return C.c_void_p(lst)

    # ---- operators
    def call(self, name: str, *args) -> int:
        """Both phases of aclnn<name> on the default stream, then a synchronize; returns the first non-zero code."""
        ws, ex = C.c_uint64(0), C.c_void_p(0)
        ret = getattr(self.L, f"aclnn{name}GetWorkspaceSize")(*args, C.byref(ws), C.byref(ex))
        if ret != 0:
            return ret
        wptr = 0
        if ws.value:
            wptr, r = self.acl.rt.malloc(ws.value, 0)
            assert r == 0
            self._free.append(wptr)
        ret = getattr(self.L, f"aclnn{name}")(C.c_void_p(wptr), C.c_uint64(ws.value), ex, C.c_void_p(0))
        if ret != 0:
            return ret
        return self.acl.rt.synchronize_stream(0)

    def run(self, name: str, *args) -> None:
        ret = self.call(name, *args)
        assert ret == 0, (name, ret, self.L.aclGetRecentErrMsg())

    def err(self) -> str:
        return (self.L.aclGetRecentErrMsg() or b"").decode()

    def close(self):
        for f, h in reversed(self._destroy):
            f(h)
        for p in self._free:
            self.acl.rt.free(p)
        self._destroy, self._free = [], []


class Dev:
    """A host base array and its device mirror."""

    def __init__(self, nn: Aclnn, host: np.ndarray, ptr: int):
        self.nn, self.host, self.ptr = nn, host, ptr

    def read(self) -> np.ndarray:
        out = np.empty_like(self.host)
        if out.nbytes:
            assert self.nn.acl.rt.memcpy(out.ctypes.data, out.nbytes, self.ptr, out.nbytes, 2) == 0
        return out

    def t(self, view=None, **kw):
        return self.nn.tensor(self, view, **kw)


def close(got, want, tol=1e-5):
    """Element-wise closeness in float64 (the aclnn tests' NumPy references are float64)."""
    np.testing.assert_allclose(np.asarray(got, np.float64), np.asarray(want, np.float64), rtol=tol, atol=tol)
