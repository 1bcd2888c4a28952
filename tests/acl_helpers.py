"""Small pyACL-style helpers shared by the aclmdl / aclop tests (plain `import acl` calls)."""
from __future__ import annotations

import numpy as np

from acl_sim import dtypes

H2D, D2H = 1, 2
ACL_FLOAT, ACL_FLOAT16, ACL_INT32, ACL_INT64, ACL_BOOL = 0, 1, 3, 9, 12
ACL_FORMAT_NCHW, ACL_FORMAT_ND = 0, 2


def to_device(acl, array: np.ndarray) -> tuple[int, int]:
    """Copy `array` into fresh device memory; returns (ptr, nbytes)."""
    array = np.ascontiguousarray(array)
    size = max(array.nbytes, 1)
    ptr, ret = acl.rt.malloc(size, 0)
    assert ret == 0, ret
    if array.nbytes:
        assert acl.rt.memcpy(ptr, size, array.ctypes.data, array.nbytes, H2D) == 0
    return ptr, array.nbytes


def from_device(acl, ptr: int, shape, dtype) -> np.ndarray:
    out = np.empty(shape, dtype=dtype)
    if out.nbytes:
        assert acl.rt.memcpy(out.ctypes.data, out.nbytes, ptr, out.nbytes, D2H) == 0
    return out


class OpRunner:
    """Runs one acl.op call on numpy arrays: descs, device buffers, execute_v2, sync, read back."""

    def __init__(self, acl, stream=0):
        self.acl, self.stream = acl, stream
        self._frees = []

    def desc(self, dtype, shape, fmt=ACL_FORMAT_ND):
        d = self.acl.create_tensor_desc(dtypes.from_numpy(dtype), list(shape), fmt)
        assert d != 0
        self._frees.append(("desc", d))
        return d

    def buffer(self, array=None, nbytes=0):
        acl = self.acl
        if array is not None:
            ptr, nbytes = to_device(acl, array)
        else:
            ptr, ret = acl.rt.malloc(max(nbytes, 1), 0)
            assert ret == 0
        buf = acl.create_data_buffer(ptr, nbytes)
        self._frees.append(("mem", ptr))
        self._frees.append(("buf", buf))
        return ptr, buf

    def run(self, op_type, inputs, out_specs, attr=0, fmt=ACL_FORMAT_ND):
        """inputs: numpy arrays; out_specs: [(shape, dtype)]. Returns (ret, [outputs])."""
        in_descs = [self.desc(a.dtype, a.shape, fmt) for a in inputs]
        in_bufs = [self.buffer(a)[1] for a in inputs]
        out_descs, out_bufs, out_ptrs = [], [], []
        for shape, dtype in out_specs:
            out_descs.append(self.desc(dtype, shape, fmt))
            ptr, buf = self.buffer(nbytes=int(np.prod(shape, dtype=np.int64)) * np.dtype(dtype).itemsize)
            out_ptrs.append(ptr)
            out_bufs.append(buf)
        ret = self.acl.op.execute_v2(op_type, in_descs, in_bufs, out_descs, out_bufs, attr, self.stream)
        if ret != 0:
            return ret, None
        sync = self.acl.rt.synchronize_stream(self.stream)
        if sync != 0:
            return sync, None
        return 0, [from_device(self.acl, p, s, d) for p, (s, d) in zip(out_ptrs, out_specs)]

    def close(self):
        for kind, h in reversed(self._frees):
            if kind == "desc":
                self.acl.destroy_tensor_desc(h)
            elif kind == "buf":
                self.acl.destroy_data_buffer(h)
            else:
                self.acl.rt.free(h)
        self._frees.clear()
