"""Rank-per-thread harness for the HCCL tests (after gloo's test/base_test.h).

`RankPool(acl, comms, devices)` keeps one thread per rank, each with its device
set and its own stream. `pool.run(fn)` calls `fn(ctx)` on every rank thread at
once and waits; if any rank raised, the test fails with that rank's message
(and traceback), and a rank that does not finish within the timeout fails the
test instead of hanging it.
"""
from __future__ import annotations

import queue
import threading
import traceback

import numpy as np

try:
    import ml_dtypes
    BF16 = np.dtype(ml_dtypes.bfloat16)
except ImportError:  # pragma: no cover - ml_dtypes is in the test extra
    BF16 = None

H2D, D2H = 1, 2

# HcclDataType -> NumPy dtype (bytes for the formats NumPy cannot hold).
NP_DTYPES = {0: np.int8, 1: np.int16, 2: np.int32, 3: np.float16, 4: np.float32, 5: np.int64, 6: np.uint64,
             7: np.uint8, 8: np.uint16, 9: np.uint32, 10: np.float64, 11: BF16,
             14: np.uint8, 15: np.uint8, 16: np.uint8, 17: np.uint8}
REDUCIBLE = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]
MOVABLE = REDUCIBLE + [14, 15, 16, 17]


def check(ret, what="call"):
    assert ret == 0, f"{what} returned {ret}"


class RankContext:
    """What one rank thread owns: its rank, device, comm, stream, and helpers for device buffers."""

    def __init__(self, acl, rank, device, comm):
        self.acl, self.rank, self.device, self.comm = acl, rank, device, comm
        check(acl.rt.set_device(device), "set_device")
        self.stream, ret = acl.rt.create_stream()
        check(ret, "create_stream")
        self._owned = []

    def alloc(self, nbytes):
        ptr, ret = self.acl.rt.malloc(max(nbytes, 1), 0)
        check(ret, "rt.malloc")
        self._owned.append(ptr)
        return ptr

    def upload(self, arr):
        arr = np.ascontiguousarray(arr)
        ptr = self.alloc(arr.nbytes)
        if arr.nbytes:
            check(self.acl.rt.memcpy(ptr, arr.nbytes, arr.ctypes.data, arr.nbytes, H2D), "memcpy H2D")
        return ptr

    def download(self, ptr, count, dtype):
        out = np.empty(count, dtype=dtype)
        if out.nbytes:
            check(self.acl.rt.memcpy(out.ctypes.data, out.nbytes, ptr, out.nbytes, D2H), "memcpy D2H")
        return out

    def sync(self):
        return self.acl.rt.synchronize_stream(self.stream)

    def free_all(self):
        for p in self._owned:
            self.acl.rt.free(p)
        self._owned.clear()

    def close(self):
        self.free_all()
        self.acl.rt.destroy_stream(self.stream)


class RankPool:
    def __init__(self, acl, comms, devices, timeout=120.0):
        self.n = len(comms)
        self.timeout = timeout
        self._inbox = [queue.Queue() for _ in range(self.n)]
        self._outbox = queue.Queue()
        self._threads = [threading.Thread(target=self._loop, args=(acl, r, devices[r], comms[r]), daemon=True)
                         for r in range(self.n)]
        for t in self._threads:
            t.start()
        self.run(lambda ctx: None)  # surface setup errors now

    def _loop(self, acl, rank, device, comm):
        ctx = None
        try:
            ctx = RankContext(acl, rank, device, comm)
        except BaseException:  # noqa: BLE001 - reported by run()
            setup_error = traceback.format_exc()
        else:
            setup_error = None
        while True:
            fn = self._inbox[rank].get()
            if fn is None:
                break
            if setup_error:
                self._outbox.put((rank, setup_error))
                continue
            try:
                fn(ctx)
                err = None
            except BaseException:  # noqa: BLE001 - any rank failure fails the test
                err = traceback.format_exc()
            finally:
                ctx.free_all()
            self._outbox.put((rank, err))
        if ctx:
            ctx.close()

    def run(self, fn):
        """fn(ctx) on every rank at once; raises AssertionError naming the first failing rank."""
        for q in self._inbox:
            q.put(fn)
        errors = {}
        for _ in range(self.n):
            try:
                rank, err = self._outbox.get(timeout=self.timeout)
            except queue.Empty:
                raise AssertionError(f"a rank did not finish within {self.timeout} s (hang)") from None
            if err:
                errors[rank] = err
        if errors:
            rank = min(errors)
            raise AssertionError(f"rank {rank} of {self.n} failed:\n{errors[rank]}")

    def close(self):
        for q in self._inbox:
            q.put(None)
        for t in self._threads:
            t.join(timeout=30)


def make_inputs(dtype_id, op, n, count, seed):
    """Per-rank inputs whose reduction stays meaningful (no float overflow; ints wrap like NumPy)."""
    dt = np.dtype(NP_DTYPES[dtype_id])
    out = []
    for r in range(n):
        rng = np.random.default_rng(seed * 1000 + r)
        if dt.kind in "iu":
            lo, hi = ((-3, 4) if op == 1 else (-100, 100)) if dt.kind == "i" else ((0, 4) if op == 1 else (0, 200))
            out.append(rng.integers(lo, hi, size=count).astype(dt))
        else:
            vals = rng.uniform(0.5, 1.5, size=count) if op == 1 else rng.uniform(-4, 4, size=count)
            out.append(vals.astype(np.float32).astype(dt))
    return out


def reduce_ref(inputs, op):
    """Reduction in rank order; fp16/bf16 accumulate in fp32 and round once (HCCL's rule)."""
    dt = inputs[0].dtype
    work = np.stack([a.astype(np.float32) if dt in (np.dtype(np.float16), BF16) else a for a in inputs])
    fn = {0: np.add, 1: np.multiply, 2: np.maximum, 3: np.minimum}[op]
    acc = work[0].copy()
    for a in work[1:]:
        acc = fn(acc, a).astype(work.dtype)
    return acc.astype(dt)


def assert_close(got, want, what):
    if got.dtype.kind in "iu" or got.dtype.itemsize == 1:
        ok = np.array_equal(got.view(np.uint8), want.view(np.uint8))
        assert ok, f"{what}: mismatch at {np.flatnonzero(got != want)[:5]} got {got[:5]} want {want[:5]}"
        return
    rtol = {2: 1e-2, 4: 1e-5, 8: 1e-12}[got.dtype.itemsize]
    np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64), rtol=rtol, atol=rtol, err_msg=what)
