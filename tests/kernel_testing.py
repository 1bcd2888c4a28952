"""Helpers for the built-in kernel tests (tests/test_kernels_*.py).

`run(op, inputs, out_shapes, out_dtypes, **attrs)` runs a registered operator through
`acl_sim._core.testing.run_op` on NumPy arrays; dtypes are given as NumPy dtypes.
"""
import numpy as np

try:
    import ml_dtypes

    BF16 = np.dtype(ml_dtypes.bfloat16)
except ImportError:  # pragma: no cover - ml_dtypes ships with the test extras
    BF16 = None

ACL_DTYPE = {
    np.dtype(np.float32): 0,
    np.dtype(np.float16): 1,
    np.dtype(np.int8): 2,
    np.dtype(np.int32): 3,
    np.dtype(np.uint8): 4,
    np.dtype(np.int16): 6,
    np.dtype(np.uint16): 7,
    np.dtype(np.uint32): 8,
    np.dtype(np.int64): 9,
    np.dtype(np.uint64): 10,
    np.dtype(np.float64): 11,
    np.dtype(np.bool_): 12,
}
if BF16 is not None:
    ACL_DTYPE[BF16] = 27

FLOATS = [np.float32, np.float16, np.float64] + ([BF16] if BF16 is not None else [])
INTS = [np.int8, np.uint8, np.int16, np.int32, np.int64, np.uint32, np.uint64]


def testing():
    from acl_sim._core import testing as t

    return t


def acl_dtype(dt):
    return ACL_DTYPE[np.dtype(dt)]


def run(op, inputs, out_shapes, out_dtypes, **attrs):
    """Runs `op`; returns the list of outputs. out_shapes / out_dtypes may be a single shape / dtype."""
    single = not isinstance(out_dtypes, (list, tuple))
    if single:
        out_shapes, out_dtypes = [out_shapes], [out_dtypes]
    ins = [None if a is None else np.require(a, requirements="C") for a in inputs]  # keeps 0-d arrays 0-d
    outs = testing().run_op(op, ins, [list(s) for s in out_shapes], [acl_dtype(d) for d in out_dtypes], attrs)
    return outs[0] if single else outs


def tol(dtype):
    """(rtol, atol) for comparing a kernel computed in `dtype` against a float64 reference."""
    dt = np.dtype(dtype)
    if dt == np.float16:
        return 2e-3, 2e-3
    if BF16 is not None and dt == BF16:
        return 1.6e-2, 1.6e-2
    if dt == np.float64:
        return 1e-12, 1e-12
    return 2e-5, 2e-6


def assert_close(got, want, dtype, scale=1.0):
    rtol, atol = tol(dtype)
    np.testing.assert_allclose(
        np.asarray(got, dtype=np.float64), np.asarray(want, dtype=np.float64), rtol=rtol * scale, atol=atol * scale
    )


def rand(rng, shape, dtype, lo=-3.0, hi=3.0):
    """Random array of `dtype` (floats uniform in [lo, hi), ints over a small range, bools)."""
    dt = np.dtype(dtype)
    if dt == np.bool_:
        return rng.random(shape) < 0.5
    if np.issubdtype(dt, np.integer):
        info = np.iinfo(dt)
        return rng.integers(max(info.min, -100), min(info.max, 100), size=shape, endpoint=True).astype(dt)
    return rng.uniform(lo, hi, size=shape).astype(dt)


def expect_error(fn, code=None):
    """Asserts fn() raises the run_op error (with `code` if given)."""
    t = testing()
    try:
        fn()
    except t.OpError as e:  # type: ignore[attr-defined]
        if code is not None:
            assert e.code == code, (e.code, str(e))
        return e
    raise AssertionError("expected an OpError")
