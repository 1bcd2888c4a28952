"""Reduction built-in kernels against NumPy: Reduce*, Softmax / LogSoftmax /
Hardmax, ArgMax / ArgMin, TopK, CumSum."""
import numpy as np
import pytest

from kernel_harness import BF16, FLOATS, assert_close, expect_error, rand, run


def _lse(x, axis, keepdims):
    m = np.max(x, axis=axis, keepdims=True)
    r = np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True)) + m
    return r if keepdims else np.squeeze(r, axis=axis)


REDUCE = {
    "ReduceSum": lambda x, a, k: np.sum(x, axis=a, keepdims=k),
    "ReduceMean": lambda x, a, k: np.mean(x, axis=a, keepdims=k),
    "ReduceMax": lambda x, a, k: np.max(x, axis=a, keepdims=k),
    "ReduceMin": lambda x, a, k: np.min(x, axis=a, keepdims=k),
    "ReduceProd": lambda x, a, k: np.prod(x, axis=a, keepdims=k),
    "ReduceL1": lambda x, a, k: np.sum(np.abs(x), axis=a, keepdims=k),
    "ReduceL2": lambda x, a, k: np.sqrt(np.sum(x * x, axis=a, keepdims=k)),
    "ReduceSumSquare": lambda x, a, k: np.sum(x * x, axis=a, keepdims=k),
    "ReduceLogSum": lambda x, a, k: np.log(np.sum(x, axis=a, keepdims=k)),
    "ReduceLogSumExp": lambda x, a, k: _lse(x, a, k),
}

CASES = [
    ((7,), (0,)),
    ((1,), (0,)),
    ((3, 5), (1,)),
    ((3, 5), (0,)),
    ((2, 3, 4, 5), (1, 2)),
    ((2, 3, 4, 5), (0, 3)),
    ((2, 3, 4, 5), (-1,)),
    ((4, 1, 6), (1,)),
    ((2, 3, 4), None),  # all axes
    ((3, 40000), (1,)),
    ((50, 3, 700), (0, 1)),
]


@pytest.mark.parametrize("op", sorted(REDUCE))
@pytest.mark.parametrize("dtype", FLOATS, ids=lambda d: np.dtype(d).name)
def test_reduce_float(op, dtype):
    rng = np.random.default_rng(len(op))
    positive = op in ("ReduceLogSum",)
    for shape, axes in CASES:
        if op == "ReduceProd" and np.prod(shape) > 5000:
            continue  # products of many values overflow; keep Prod to small groups
        lo, hi = (0.5, 1.5) if op == "ReduceProd" else ((0.1, 2.0) if positive else (-2.0, 2.0))
        x = rand(rng, shape, dtype, lo, hi)
        for keep in (1, 0):
            ax = tuple(range(len(shape))) if axes is None else axes
            want = REDUCE[op](x.astype(np.float64), ax, bool(keep))
            inputs = [x] if axes is None else [x, np.array(axes, np.int64)]
            got = run(op, inputs, np.shape(want), dtype, keepdims=keep)
            scale = 8.0 if np.prod(shape) > 1000 else 2.0
            assert_close(got, want, dtype, scale=scale)


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.int8, np.uint8], ids=lambda d: np.dtype(d).name)
def test_reduce_int(dtype):
    rng = np.random.default_rng(2)
    x = rand(rng, (3, 4, 5), dtype)
    for op in ("ReduceMax", "ReduceMin", "ReduceSum"):
        for axes in [(1,), (0, 2)]:
            want = REDUCE[op](x, axes, True).astype(dtype)
            np.testing.assert_array_equal(run(op, [x, np.array(axes)], want.shape, dtype), want)


def test_reduce_axes_attribute_and_noop():
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    # Opset < 18: axes as an attribute.
    np.testing.assert_allclose(run("ReduceMean", [x], (2, 1, 4), np.float32, axes=[1]), x.mean(1, keepdims=True))
    # noop_with_empty_axes: identity.
    np.testing.assert_array_equal(run("ReduceSum", [x, np.array([], np.int64)], x.shape, np.float32,
                                      noop_with_empty_axes=1), x)
    # Empty axes without noop: reduce everything.
    np.testing.assert_allclose(run("ReduceSum", [x, np.array([], np.int64)], (1, 1, 1), np.float32), [[[276]]])
    # A reduced axis of size 1 still applies the reducer's map/finish.
    y = np.array([[-3.0], [4.0]], np.float32)
    np.testing.assert_allclose(run("ReduceL2", [y, np.array([1])], (2, 1), np.float32), [[3.0], [4.0]])
    expect_error(lambda: run("ReduceSum", [x, np.array([3])], (2, 3, 1), np.float32), 100023)
    expect_error(lambda: run("ReduceSum", [x, np.array([1])], (2, 3, 1), np.float32), 100022)


def test_reduce_max_inf_and_empty():
    x = np.full((2, 3), -np.inf, np.float32)
    np.testing.assert_array_equal(run("ReduceMax", [x, np.array([1])], (2, 1), np.float32), [[-np.inf]] * 2)
    np.testing.assert_array_equal(run("ReduceLogSumExp", [x, np.array([1])], (2, 1), np.float32), [[-np.inf]] * 2)
    e = np.zeros((2, 0), np.float32)
    np.testing.assert_array_equal(run("ReduceSum", [e, np.array([1])], (2, 1), np.float32), [[0], [0]])


def _softmax(x, axis):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


SOFTMAX_SHAPES = [((5,), -1), ((1, 1), -1), ((3, 1000), -1), ((3, 1000), 0), ((2, 3, 17, 5), 1), ((2, 3, 4, 600), 2),
                  ((64, 33), -1)]


@pytest.mark.parametrize("dtype", FLOATS, ids=lambda d: np.dtype(d).name)
def test_softmax_logsoftmax(dtype):
    rng = np.random.default_rng(3)
    for shape, axis in SOFTMAX_SHAPES:
        x = rand(rng, shape, dtype, -10, 10)
        x64 = x.astype(np.float64)
        assert_close(run("Softmax", [x], shape, dtype, axis=axis), _softmax(x64, axis), dtype, 2.0)
        want = np.log(_softmax(x64, axis))
        assert_close(run("LogSoftmax", [x], shape, dtype, axis=axis), want, dtype, 8.0)
    # Default axis is -1 (opset 13).
    x = rand(rng, (4, 6), np.float32)
    assert_close(run("Softmax", [x], x.shape, np.float32), _softmax(x.astype(np.float64), -1), np.float32)


def test_softmax_extremes():
    x = np.array([[1000.0, 0.0, -1000.0], [-np.inf, 0.0, -np.inf]], np.float32)
    got = run("Softmax", [x], x.shape, np.float32)
    np.testing.assert_allclose(got, [[1, 0, 0], [0, 1, 0]], atol=1e-7)
    got = run("LogSoftmax", [x], x.shape, np.float32)
    np.testing.assert_allclose(got[0], [0, -1000, -2000], rtol=1e-6)


def test_softmax_masked_rows_exact_zero_and_nan():
    # Rows longer than one vector (the fused exp + sum loop) and a tail: -inf / -100 below the row's max give
    # exactly 0 (an attention mask), a NaN anywhere makes its row NaN (as onnxruntime and numpy do).
    rng = np.random.default_rng(5)
    x = rng.uniform(-5, 5, (3, 37)).astype(np.float32)
    x[0, ::3] = -np.inf
    x[1, 5:20] = x[1].max() - 100.0
    x[2, 30] = np.nan
    got = run("Softmax", [x], x.shape, np.float32)
    assert np.all(got[0, ::3] == 0.0) and np.all(got[1, 5:20] == 0.0)
    np.testing.assert_allclose(got[:2].sum(axis=1), [1.0, 1.0], rtol=1e-6)
    assert np.all(np.isnan(got[2]))
    ref = np.exp(x[:2] - x[:2].max(axis=1, keepdims=True))
    np.testing.assert_allclose(got[:2], ref / ref.sum(axis=1, keepdims=True), rtol=2e-6, atol=1e-30)


def test_hardmax():
    rng = np.random.default_rng(4)
    x = rand(rng, (3, 4, 5), np.float32)
    for axis in (0, 1, -1):
        got = run("Hardmax", [x], x.shape, np.float32, axis=axis)
        want = (np.arange(x.shape[axis]).reshape([-1 if d == axis % 3 else 1 for d in range(3)])
                == np.expand_dims(np.argmax(x, axis=axis), axis)).astype(np.float32)
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int32, np.int64, np.uint8],
                         ids=lambda d: np.dtype(d).name)
def test_argmax_argmin(dtype):
    rng = np.random.default_rng(5)
    x = rand(rng, (3, 7, 5), dtype)
    for axis in (0, 1, 2, -1):
        for keep in (0, 1):
            for op, fn in (("ArgMax", np.argmax), ("ArgMin", np.argmin)):
                want = fn(x, axis=axis)
                if keep:
                    want = np.expand_dims(want, axis)
                got = run(op, [x], want.shape, np.int64, axis=axis, keepdims=keep)
                np.testing.assert_array_equal(got, want)
    # select_last_index picks the last of equal extremes.
    t = np.array([[1, 3, 3, 0]], dtype)
    assert run("ArgMax", [t], (1, 1), np.int64, axis=1, select_last_index=1)[0, 0] == 2
    assert run("ArgMax", [t], (1, 1), np.int64, axis=1)[0, 0] == 1


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int64], ids=lambda d: np.dtype(d).name)
def test_topk(dtype):
    rng = np.random.default_rng(6)
    x = rand(rng, (4, 50, 3), dtype) if dtype != np.int64 else rng.permutation(600).reshape(4, 50, 3).astype(dtype)
    if np.dtype(dtype).kind == "f":
        x = rng.permutation(600).reshape(4, 50, 3).astype(dtype) / 7  # distinct values
    for axis in (1, -1, 0):
        for largest in (1, 0):
            k = 3 if x.shape[axis] >= 3 else 1
            order = np.argsort(-x if largest else x, axis=axis, kind="stable")
            idx = np.take(order, np.arange(k), axis=axis)
            vals = np.take_along_axis(x, idx, axis=axis)
            gv, gi = run("TopK", [x, np.array([k], np.int64)], [vals.shape, vals.shape], [dtype, np.int64],
                         axis=axis, largest=largest)
            np.testing.assert_array_equal(gi, idx)
            np.testing.assert_array_equal(gv, vals)
    # Ties: lower index first.
    t = np.array([2, 1, 2, 2, 0], np.float32)
    gv, gi = run("TopK", [t, np.array([3])], [(3,), (3,)], [np.float32, np.int64])
    np.testing.assert_array_equal(gi, [0, 2, 3])
    expect_error(lambda: run("TopK", [t, np.array([9])], [(9,), (9,)], [np.float32, np.int64]), 100021)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64, np.float16], ids=lambda d: np.dtype(d).name)
def test_cumsum(dtype):
    rng = np.random.default_rng(7)
    x = rand(rng, (3, 4, 5), dtype)
    for axis in (0, 1, 2, -1):
        for exclusive in (0, 1):
            for reverse in (0, 1):
                xs = np.flip(x, axis) if reverse else x
                want = np.cumsum(xs.astype(np.float64), axis=axis)
                if exclusive:
                    want = want - xs
                if reverse:
                    want = np.flip(want, axis)
                got = run("CumSum", [x, np.array(axis, np.int32)], x.shape, dtype, exclusive=exclusive, reverse=reverse)
                assert_close(got, want, dtype, 4.0)


def test_reduce_max_min_nan_and_long_rows():
    rng = np.random.default_rng(8)
    x = rand(rng, (5, 1003), np.float32)
    x[2, 517] = np.nan  # inside the vector body
    x[4, 1001] = np.nan  # in the scalar tail
    for op, fn in (("ReduceMax", np.max), ("ReduceMin", np.min)):
        got = run(op, [x, np.array([1])], (5, 1), np.float32)
        np.testing.assert_array_equal(got, fn(x, axis=1, keepdims=True))


def test_reduce_max_min_bool():
    x = np.array([[True, False, False], [False, False, False], [True, True, True]])
    np.testing.assert_array_equal(run("ReduceMax", [x, np.array([1])], (3, 1), np.bool_), x.any(1, keepdims=True))
    np.testing.assert_array_equal(run("ReduceMin", [x, np.array([1])], (3, 1), np.bool_), x.all(1, keepdims=True))
    expect_error(lambda: run("ReduceSum", [x, np.array([1])], (3, 1), np.bool_), 100026)
