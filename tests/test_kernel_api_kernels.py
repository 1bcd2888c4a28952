"""Shared helpers for the kernel API and executor tests: the test kernels'
Ascend C-style source, compiling it (and the add_custom example) once per
session, and device-memory helpers over pyACL.
"""
import os
import subprocess

import numpy as np
import pytest

from acl_sim import kernel as K

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
ADD_CUSTOM_DIR = os.path.join(REPO, "examples", "add_custom")

ACL_MEM_MALLOC_HUGE_FIRST = 0
ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2

# Error codes (acl/error_codes/rt_error_codes.h).
RT_PARAM_INVALID = 107000
RT_INVALID_HANDLE = 107017
RT_AICORE_EXCEPTION = 507015
RT_KERNEL_LOOKUP = 507027

# Op ids of vec_f32 / vec_f16 below.
OPS = {"Add": 0, "Sub": 1, "Mul": 2, "Div": 3, "Max": 4, "Min": 5, "Muls": 6, "Adds": 7, "Exp": 8,
       "ReduceSum": 9, "Relu": 10, "Abs": 11, "Duplicate": 12}

TEST_KERNELS = r"""
#include "kernel_operator.h"
using namespace AscendC;

struct OpTiling {
  uint32_t tile;   // elements per block (a multiple of 32 bytes)
  uint32_t count;  // elements the op works on (<= tile)
  uint32_t op;
  float scalar;
};

template <class T>
void run_op(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR tiling) {
  GET_TILING_DATA_WITH_STRUCT(OpTiling, t, tiling);
  TPipe pipe;
  TQue<QuePosition::VECIN, 1> qx, qy;
  TQue<QuePosition::VECOUT, 1> qz;
  TBuf<TPosition::VECCALC> work;
  pipe.InitBuffer(qx, 1, t.tile * sizeof(T));
  pipe.InitBuffer(qy, 1, t.tile * sizeof(T));
  pipe.InitBuffer(qz, 1, t.tile * sizeof(T));
  pipe.InitBuffer(work, 64);
  const uint64_t off = static_cast<uint64_t>(t.tile) * GetBlockIdx();
  GlobalTensor<T> gx, gy, gz;
  gx.SetGlobalBuffer((__gm__ T*)x + off, t.tile);
  gy.SetGlobalBuffer((__gm__ T*)y + off, t.tile);
  gz.SetGlobalBuffer((__gm__ T*)z + off, t.tile);
  LocalTensor<T> lx = qx.AllocTensor<T>(), ly = qy.AllocTensor<T>();
  DataCopy(lx, gx, t.tile);
  DataCopy(ly, gy, t.tile);
  qx.EnQue(lx);
  qy.EnQue(ly);
  lx = qx.DeQue<T>();
  ly = qy.DeQue<T>();
  LocalTensor<T> lz = qz.AllocTensor<T>();
  Duplicate(lz, 0.0f, t.tile);
  switch (t.op) {
    case 0: Add(lz, lx, ly, t.count); break;
    case 1: Sub(lz, lx, ly, t.count); break;
    case 2: Mul(lz, lx, ly, t.count); break;
    case 3: Div(lz, lx, ly, t.count); break;
    case 4: Max(lz, lx, ly, t.count); break;
    case 5: Min(lz, lx, ly, t.count); break;
    case 6: Muls(lz, lx, t.scalar, t.count); break;
    case 7: Adds(lz, lx, t.scalar, t.count); break;
    case 8: Exp(lz, lx, t.count); break;
    case 9: ReduceSum(lz, lx, work.Get<T>(), t.count); break;
    case 10: Relu(lz, lx, t.count); break;
    case 11: Abs(lz, lx, t.count); break;
    case 12: Duplicate(lz, t.scalar, t.count); break;
  }
  qz.EnQue(lz);
  qx.FreeTensor(lx);
  qy.FreeTensor(ly);
  lz = qz.DeQue<T>();
  DataCopy(gz, lz, t.tile);
  qz.FreeTensor(lz);
}

extern "C" __global__ __aicore__ void vec_f32(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR tiling) { run_op<float>(x, y, z, tiling); }
extern "C" __global__ __aicore__ void vec_f16(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR tiling) { run_op<half>(x, y, z, tiling); }

/** z = Cast<D>(x) over tile elements per block; round mode from the tiling's op field. */
template <class D, class S>
void run_cast(GM_ADDR x, GM_ADDR z, GM_ADDR tiling) {
  GET_TILING_DATA_WITH_STRUCT(OpTiling, t, tiling);
  TPipe pipe;
  TBuf<TPosition::VECCALC> bs, bd;
  pipe.InitBuffer(bs, t.tile * sizeof(S));
  pipe.InitBuffer(bd, t.tile * sizeof(D));
  const uint64_t off = static_cast<uint64_t>(t.tile) * GetBlockIdx();
  GlobalTensor<S> gx;
  GlobalTensor<D> gz;
  gx.SetGlobalBuffer((__gm__ S*)x + off, t.tile);
  gz.SetGlobalBuffer((__gm__ D*)z + off, t.tile);
  LocalTensor<S> ls = bs.Get<S>();
  LocalTensor<D> ld = bd.Get<D>();
  DataCopy(ls, gx, t.tile);
  Cast(ld, ls, static_cast<RoundMode>(t.op), t.tile);
  DataCopy(gz, ld, t.tile);
}
extern "C" __global__ __aicore__ void cast_f16_f32(GM_ADDR x, GM_ADDR z, GM_ADDR tiling) { run_cast<float, half>(x, z, tiling); }
extern "C" __global__ __aicore__ void cast_f32_f16(GM_ADDR x, GM_ADDR z, GM_ADDR tiling) { run_cast<half, float>(x, z, tiling); }

/** GM -> UB -> GM of n floats (n*4 must be a multiple of 32). */
extern "C" __global__ __aicore__ void copy_n(GM_ADDR x, GM_ADDR z, uint32_t n) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> b;
  pipe.InitBuffer(b, 1024);
  GlobalTensor<float> gx, gz;
  gx.SetGlobalBuffer((__gm__ float*)x, 256);
  gz.SetGlobalBuffer((__gm__ float*)z, 256);
  LocalTensor<float> l = b.Get<float>();
  DataCopy(l, gx, n);
  DataCopy(gz, l, n);
}

/** DataCopy 8 floats into UB starting `offset` elements into a buffer (offset*4 must be a multiple of 32). */
extern "C" __global__ __aicore__ void copy_at(GM_ADDR x, GM_ADDR z, uint32_t offset) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> b;
  pipe.InitBuffer(b, 1024);
  GlobalTensor<float> gx;
  gx.SetGlobalBuffer((__gm__ float*)x, 256);
  LocalTensor<float> l = b.Get<float>()[offset];
  DataCopy(l, gx, 8);
}

/** Add on an operand that starts `offset` floats into UB. */
extern "C" __global__ __aicore__ void add_at(GM_ADDR x, uint32_t offset) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> b;
  pipe.InitBuffer(b, 1024);
  LocalTensor<float> l = b.Get<float>();
  Add(l, l[offset], l, 8);
}

/** Two queues of `kib` KiB x 2 buffers: overflows UB when 4 * kib KiB > UB size. */
extern "C" __global__ __aicore__ void ub_hog(GM_ADDR x, uint32_t kib) {
  TPipe pipe;
  TQue<QuePosition::VECIN, 2> a, b;
  pipe.InitBuffer(a, 2, kib * 1024);
  pipe.InitBuffer(b, 2, kib * 1024);
}

/** DeQue with nothing queued: hangs on the NPU, a reported fault here. */
extern "C" __global__ __aicore__ void deque_empty(GM_ADDR x) {
  TPipe pipe;
  TQue<QuePosition::VECIN, 2> q;
  pipe.InitBuffer(q, 2, 256);
  LocalTensor<float> l = q.DeQue<float>();
  (void)l;
}

/** GM read past the bound given to SetGlobalBuffer. */
extern "C" __global__ __aicore__ void gm_out_of_bounds(GM_ADDR x) {
  GlobalTensor<float> g;
  g.SetGlobalBuffer((__gm__ float*)x, 16);
  (void)g.GetValue(16);
}

/** out[2i] = GetBlockIdx(), out[2i+1] = GetBlockNum() for block i. */
extern "C" __global__ __aicore__ void block_info(GM_ADDR out) {
  uint32_t* o = reinterpret_cast<uint32_t*>(out);
  o[2 * GetBlockIdx()] = static_cast<uint32_t>(GetBlockIdx());
  o[2 * GetBlockIdx() + 1] = static_cast<uint32_t>(GetBlockNum());
}

/** counts[GetBlockIdx()] += 1 (atomic). */
extern "C" __global__ __aicore__ void count_blocks(GM_ADDR counts) {
  __atomic_fetch_add(reinterpret_cast<uint32_t*>(counts) + GetBlockIdx(), 1u, __ATOMIC_RELAXED);
}

/** Every block adds reps to one counter. */
extern "C" __global__ __aicore__ void contend(GM_ADDR counter, uint32_t reps) {
  for (uint32_t i = 0; i < reps; ++i) __atomic_fetch_add(reinterpret_cast<uint64_t*>(counter), 1u, __ATOMIC_RELAXED);
}

/** buf[i] += 1 without atomics: exact only if one stream's launches never overlap. */
extern "C" __global__ __aicore__ void bump(GM_ADDR buf) {
  volatile uint32_t* p = reinterpret_cast<uint32_t*>(buf) + GetBlockIdx();
  *p = *p + 1;
}

/** order[ticket++] = GetBlockIdx(). */
extern "C" __global__ __aicore__ void record_order(GM_ADDR ticket, GM_ADDR order) {
  uint32_t t = __atomic_fetch_add(reinterpret_cast<uint32_t*>(ticket), 1u, __ATOMIC_RELAXED);
  reinterpret_cast<uint32_t*>(order)[t] = static_cast<uint32_t>(GetBlockIdx());
}

/** DataCopyPad `rows` rows of n floats (GM rows back to back) into UB with `left` elements of 9.0 padding on the
 *  left and padding to the 32-byte boundary; dump the padded UB rows to `ub`, then add 1 and DataCopyPad back to z. */
extern "C" __global__ __aicore__ void pad_roundtrip(GM_ADDR x, GM_ADDR z, GM_ADDR ub, uint32_t n, uint32_t rows, uint32_t left) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> b;
  pipe.InitBuffer(b, 64 * 1024);
  GlobalTensor<float> gx, gz, gub;
  gx.SetGlobalBuffer((__gm__ float*)x, n * rows);
  gz.SetGlobalBuffer((__gm__ float*)z, n * rows);
  const uint32_t row = (left * 4 + n * 4 + 31) / 32 * 8;
  gub.SetGlobalBuffer((__gm__ float*)ub, row * rows);
  LocalTensor<float> l = b.Get<float>();
  DataCopyExtParams in(static_cast<uint16_t>(rows), n * 4, 0, 0, 0);
  DataCopyPad(l, gx, in, DataCopyPadExtParams<float>(true, static_cast<uint8_t>(left), 0, 9.0f));
  DataCopy(gub, l, row * rows);
  Adds(l, l, 1.0f, row * rows);
  if (left == 0) {
    DataCopyPad(gz, l, DataCopyExtParams(static_cast<uint16_t>(rows), n * 4, 0, 0, 0));
  }
}

/** Does nothing (launch-overhead benchmark). */
extern "C" __global__ __aicore__ void empty_kernel() {}
"""


def _compile(tmpdir, name, source_text=None, sources=None, **kw):
    out = os.path.join(tmpdir, name)
    if source_text is not None:
        src = os.path.join(tmpdir, name + ".cpp")
        with open(src, "w") as f:
            f.write(source_text)
        sources = [src]
    try:
        K.compile_kernel(sources, out, **kw)
    except subprocess.CalledProcessError as e:  # show the compiler's complaint
        raise AssertionError(f"kernel build failed:\n{e.stderr}") from e
    return out


# The fixtures below are imported by several test modules, and pytest instantiates an imported
# session fixture once per module; this cache makes each build happen once per process.
_BUILT = {}


def _once(key, make):
    if key not in _BUILT:
        _BUILT[key] = make()
    return _BUILT[key]


@pytest.fixture(scope="session")
def kernel_build_dir(tmp_path_factory):
    return _once("dir", lambda: str(tmp_path_factory.mktemp("kernels")))


@pytest.fixture(scope="session")
def test_kernels_so(kernel_build_dir):
    return _once("test_kernels", lambda: _compile(kernel_build_dir, "test_kernels.so", source_text=TEST_KERNELS))


@pytest.fixture(scope="session")
def add_custom_so(kernel_build_dir):
    return _once("add_custom", lambda: _compile(
        kernel_build_dir, "libadd_custom_kernel.so", sources=[os.path.join(ADD_CUSTOM_DIR, "add_custom.cpp")],
        include_dirs=[ADD_CUSTOM_DIR]))


class Device:
    """Device buffers over pyACL (acl.rt.malloc / memcpy / free), freed on close."""

    def __init__(self, acl):
        self.acl = acl
        self.ptrs = []

    def alloc(self, nbytes):
        ptr, ret = self.acl.rt.malloc(max(int(nbytes), 1), ACL_MEM_MALLOC_HUGE_FIRST)
        assert ret == 0, ret
        self.ptrs.append(ptr)
        return ptr

    def upload(self, arr):
        arr = np.ascontiguousarray(arr)
        ptr = self.alloc(arr.nbytes)
        assert self.acl.rt.memcpy(ptr, arr.nbytes, arr.ctypes.data, arr.nbytes, ACL_MEMCPY_HOST_TO_DEVICE) == 0
        return ptr

    def zeros(self, shape, dtype):
        return self.upload(np.zeros(shape, dtype))

    def download(self, ptr, shape, dtype):
        out = np.empty(shape, dtype)
        assert self.acl.rt.memcpy(out.ctypes.data, out.nbytes, ptr, out.nbytes, ACL_MEMCPY_DEVICE_TO_HOST) == 0
        return out

    def close(self):
        for p in self.ptrs:
            self.acl.rt.free(p)
        self.ptrs = []


@pytest.fixture
def dev(acl, device):
    d = Device(acl)
    yield d
    d.close()


@pytest.fixture
def stream(acl, device):
    s, ret = acl.rt.create_stream()
    assert ret == 0
    yield s
    acl.rt.destroy_stream(s)


def tiling_bytes(*fields):
    """Pack a tiling struct of uint32/float fields (given as (value, 'I'|'f'))."""
    import struct

    fmt = "".join(code for _, code in fields)
    return np.frombuffer(struct.pack("<" + fmt, *[v for v, _ in fields]), dtype=np.uint8).copy()


def recent_error(acl):
    """Last error message recorded on this thread (acl.get_recent_err_msg)."""
    return acl.get_recent_err_msg() or ""
