"""Data-movement and shape built-in kernels against NumPy: Reshape family,
Transpose, DepthToSpace/SpaceToDepth, Concat, Split, Slice, Gather,
GatherElements, GatherND, Expand, Tile, Pad, Shape, Size, ConstantOfShape,
Range, EyeLike, Trilu."""
import numpy as np
import pytest

from kernel_harness import BF16, expect_error, rand, run

MOVE_TYPES = [np.float32, np.float16, np.int64, np.int8, np.bool_, np.float64] + ([BF16] if BF16 is not None else [])
ids = lambda d: np.dtype(d).name  # noqa: E731


@pytest.mark.parametrize("op", ["Reshape", "Flatten", "Squeeze", "Unsqueeze", "Identity", "Dropout"])
def test_copy_ops(op):
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    got = run(op, [x], (4, 6), np.float32)
    np.testing.assert_array_equal(got, x.reshape(4, 6))
    expect_error(lambda: run(op, [x], (5, 6), np.float32), 100022)


@pytest.mark.parametrize("dtype", MOVE_TYPES, ids=ids)
def test_transpose(dtype):
    rng = np.random.default_rng(1)
    cases = [((2, 3), None), ((2, 3, 4), (0, 2, 1)), ((2, 3, 4, 5), (0, 2, 3, 1)), ((2, 3, 4, 5), (3, 1, 0, 2)),
             ((1, 5, 1, 7), (3, 2, 1, 0)), ((67, 131), (1, 0)), ((3, 1), (1, 0)), ((4, 5, 6), (0, 1, 2)),
             ((2, 3, 4, 5, 6), (4, 0, 3, 1, 2)), ((), ())]
    for shape, perm in cases:
        x = rand(rng, shape, dtype)
        want = np.transpose(x, perm)
        attrs = {} if perm is None else {"perm": list(perm)}
        np.testing.assert_array_equal(run("Transpose", [x], want.shape, dtype, **attrs), want)
    expect_error(lambda: run("Transpose", [x], (), dtype, perm=[0]), 100023)


def test_transpose_large():
    x = np.random.default_rng(2).random((3, 257, 513)).astype(np.float32)
    np.testing.assert_array_equal(run("Transpose", [x], (513, 3, 257), np.float32, perm=[2, 0, 1]),
                                  x.transpose(2, 0, 1))


@pytest.mark.parametrize("mode", ["DCR", "CRD"])
def test_depth_space(mode):
    x = np.arange(2 * 8 * 3 * 5, dtype=np.float32).reshape(2, 8, 3, 5)
    b = 2
    n, c, h, w = x.shape
    if mode == "DCR":
        want = x.reshape(n, b, b, c // 4, h, w).transpose(0, 3, 4, 1, 5, 2).reshape(n, c // 4, h * b, w * b)
    else:
        want = x.reshape(n, c // 4, b, b, h, w).transpose(0, 1, 4, 2, 5, 3).reshape(n, c // 4, h * b, w * b)
    got = run("DepthToSpace", [x], want.shape, np.float32, blocksize=b, mode=mode)
    np.testing.assert_array_equal(got, want)
    y = np.arange(2 * 3 * 4 * 6, dtype=np.int32).reshape(2, 3, 4, 6)
    want = y.reshape(2, 3, 2, 2, 3, 2).transpose(0, 3, 5, 1, 2, 4).reshape(2, 12, 2, 3)
    np.testing.assert_array_equal(run("SpaceToDepth", [y], want.shape, np.int32, blocksize=2), want)


@pytest.mark.parametrize("dtype", MOVE_TYPES, ids=ids)
def test_concat_split(dtype):
    rng = np.random.default_rng(3)
    for axis in (0, 1, 2, -1):
        parts = [rand(rng, tuple(k if d == axis % 3 else s for d, s in enumerate((2, 3, 4))), dtype) for k in (1, 3, 2)]
        want = np.concatenate(parts, axis=axis)
        np.testing.assert_array_equal(run("Concat", parts, want.shape, dtype, axis=axis), want)
        outs = run("Split", [want, np.array([1, 3, 2])], [p.shape for p in parts], [dtype] * 3, axis=axis)
        for o, p in zip(outs, parts):
            np.testing.assert_array_equal(o, p)
    big = [rand(rng, (100000,), dtype), rand(rng, (5,), dtype)]
    np.testing.assert_array_equal(run("Concat", big, (100005,), dtype, axis=0), np.concatenate(big))
    expect_error(lambda: run("Concat", [parts[0], parts[0][:1]], (4, 3, 4), dtype, axis=0))


@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.uint8], ids=ids)
def test_slice(dtype):
    rng = np.random.default_rng(4)
    x = rand(rng, (6, 7, 8), dtype)
    cases = [
        ([1], [4], [0], None, np.s_[1:4]),
        ([0, 2], [-1, 100], [1, 2], None, np.s_[:, 0:-1, 2:]),
        ([5, -1], [0, -9], [0, 2], [-2, -3], np.s_[5:0:-2, :, ::-3]),
        ([-100], [100], [-1], [2], np.s_[:, :, ::2]),
        ([3], [3], [1], None, np.s_[:, 3:3]),
        ([2, 1, 0], [6, 7, 8], [0, 1, 2], [3, 4, 5], np.s_[2::3, 1::4, 0::5]),
    ]
    for starts, ends, axes, steps, sl in cases:
        want = x[sl]
        ins = [x, np.array(starts), np.array(ends), np.array(axes)] + ([np.array(steps)] if steps else [])
        np.testing.assert_array_equal(run("Slice", ins, want.shape, dtype), want)
    # Opset 1: attributes.
    np.testing.assert_array_equal(run("Slice", [x], (2, 7, 8), dtype, starts=[1], ends=[3], axes=[0]), x[1:3])


@pytest.mark.parametrize("dtype", MOVE_TYPES, ids=ids)
def test_gather(dtype):
    rng = np.random.default_rng(5)
    x = rand(rng, (5, 6, 7), dtype)
    for axis in (0, 1, 2, -1):
        for ind_dtype in (np.int64, np.int32):
            idx = rng.integers(-x.shape[axis], x.shape[axis], size=(2, 3)).astype(ind_dtype)
            want = np.take(x, idx, axis=axis)
            np.testing.assert_array_equal(run("Gather", [x, idx], want.shape, dtype, axis=axis), want)
    scalar = np.array(2, np.int64)
    np.testing.assert_array_equal(run("Gather", [x, scalar], (6, 7), dtype), x[2])
    expect_error(lambda: run("Gather", [x, np.array([5])], (1, 6, 7), dtype), 100021)


def test_gather_elements_and_nd():
    rng = np.random.default_rng(6)
    x = rand(rng, (4, 5, 6), np.float32)
    for axis in (0, 1, 2):
        idx = rng.integers(-x.shape[axis], x.shape[axis], size=(3, 4, 5) if axis else (2, 5, 6))
        idx = idx[: x.shape[0], : x.shape[1], : x.shape[2]]
        grid = list(np.indices(idx.shape))
        grid[axis] = np.where(idx < 0, idx + x.shape[axis], idx)
        want = x[tuple(grid)]
        np.testing.assert_array_equal(run("GatherElements", [x, idx], want.shape, np.float32, axis=axis), want)
    ind = np.array([[0, 1], [3, 4], [2, 0]])
    want = x[ind[:, 0], ind[:, 1]]
    np.testing.assert_array_equal(run("GatherND", [x, ind], want.shape, np.float32), want)
    # batch_dims=1: per batch, index rows of x[b].
    ind_b = np.array([[[1], [4]], [[0], [2]], [[3], [3]], [[2], [1]]])
    want = np.stack([x[b][ind_b[b, :, 0]] for b in range(4)])
    np.testing.assert_array_equal(run("GatherND", [x, ind_b], want.shape, np.float32, batch_dims=1), want)
    expect_error(lambda: run("GatherND", [x, np.array([[4, 0]])], (1, 6), np.float32), 100021)


@pytest.mark.parametrize("dtype", MOVE_TYPES, ids=ids)
def test_expand_tile(dtype):
    rng = np.random.default_rng(7)
    x = rand(rng, (3, 1, 5), dtype)
    shape = np.array([2, 3, 4, 5])
    np.testing.assert_array_equal(run("Expand", [x, shape], (2, 3, 4, 5), dtype), np.broadcast_to(x, (2, 3, 4, 5)))
    reps = np.array([2, 3, 1])
    np.testing.assert_array_equal(run("Tile", [x, reps], (6, 3, 5), dtype), np.tile(x, (2, 3, 1)))
    np.testing.assert_array_equal(run("Tile", [x, np.array([1, 1, 4])], (3, 1, 20), dtype), np.tile(x, (1, 1, 4)))


@pytest.mark.parametrize("mode", ["constant", "reflect", "edge", "wrap"])
@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.float16], ids=ids)
def test_pad(mode, dtype):
    rng = np.random.default_rng(8)
    x = rand(rng, (3, 4, 5), dtype)
    pads = [1, 0, 2, 2, 3, 1]  # begins then ends
    width = [(1, 2), (0, 3), (2, 1)]
    kw = {"constant_values": 7} if mode == "constant" else {}
    want = np.pad(x, width, mode={"edge": "edge", "reflect": "reflect", "wrap": "wrap", "constant": "constant"}[mode], **kw)
    ins = [x, np.array(pads)] + ([np.array(7, dtype)] if mode == "constant" else [])
    np.testing.assert_array_equal(run("Pad", ins, want.shape, dtype, mode=mode), want)


def test_pad_negative_axes_and_attr_form():
    x = np.arange(20, dtype=np.float32).reshape(4, 5)
    # Negative pads crop.
    np.testing.assert_array_equal(run("Pad", [x, np.array([-1, 1, 0, -2])], (3, 4), np.float32),
                                  np.pad(x, [(0, 0), (1, 0)])[1:, :-2])
    # Opset 18 axes input.
    np.testing.assert_array_equal(run("Pad", [x, np.array([2, 1]), None, np.array([1])], (4, 8), np.float32),
                                  np.pad(x, [(0, 0), (2, 1)]))
    # Opset < 11: attributes.
    np.testing.assert_array_equal(run("Pad", [x], (5, 5), np.float32, pads=[1, 0, 0, 0], value=-1.0),
                                  np.pad(x, [(1, 0), (0, 0)], constant_values=-1))


def test_shape_size_constant_range_eye_trilu():
    x = np.zeros((2, 3, 4), np.float32)
    np.testing.assert_array_equal(run("Shape", [x], (3,), np.int64), [2, 3, 4])
    np.testing.assert_array_equal(run("Shape", [x], (2,), np.int64, start=-2), [3, 4])
    assert run("Size", [x], (), np.int64) == 24
    np.testing.assert_array_equal(run("ConstantOfShape", [np.array([2, 3])], (2, 3), np.int32, value=5),
                                  np.full((2, 3), 5, np.int32))
    np.testing.assert_array_equal(run("ConstantOfShape", [np.array([4])], (4,), np.float16, value=1.5),
                                  np.full(4, 1.5, np.float16))
    np.testing.assert_array_equal(run("Range", [np.array(1, np.int64), np.array(10, np.int64), np.array(3, np.int64)],
                                      (3,), np.int64), [1, 4, 7])
    np.testing.assert_allclose(run("Range", [np.array(1.0, np.float32), np.array(0.0, np.float32),
                                             np.array(-0.25, np.float32)], (4,), np.float32), [1, 0.75, 0.5, 0.25])
    np.testing.assert_array_equal(run("EyeLike", [np.zeros((3, 4))], (3, 4), np.float32, k=1), np.eye(3, 4, 1))
    m = np.arange(2 * 4 * 5, dtype=np.float32).reshape(2, 4, 5) + 1
    for upper in (0, 1):
        for k in (-1, 0, 2):
            want = np.triu(m, k) if upper else np.tril(m, k)
            np.testing.assert_array_equal(run("Trilu", [m, np.array(k)], m.shape, np.float32, upper=upper), want)


@pytest.mark.parametrize("reduction", ["none", "add", "mul", "max", "min"])
@pytest.mark.parametrize("dtype", [np.float32, np.int64], ids=ids)
def test_scatter_nd(reduction, dtype):
    rng = np.random.default_rng(9)
    x = rand(rng, (4, 5, 6), dtype)
    ind = np.array([[1, 2], [3, 0], [1, 2]])  # a duplicate exercises the reduction
    upd = rand(rng, (3, 6), dtype)
    want = x.copy()
    for t, (i, j) in enumerate(ind):
        if reduction == "none":
            want[i, j] = upd[t]
        else:
            fn = {"add": np.add, "mul": np.multiply, "max": np.maximum, "min": np.minimum}[reduction]
            want[i, j] = fn(want[i, j], upd[t])
    attrs = {} if reduction == "none" else {"reduction": reduction}
    np.testing.assert_array_equal(run("ScatterND", [x, ind, upd], x.shape, dtype, **attrs), want)


def test_scatter_elements():
    rng = np.random.default_rng(10)
    x = rand(rng, (3, 4), np.float32)
    ind = np.array([[1, 0, 2, -1], [0, 2, 1, 0]])
    upd = rand(rng, (2, 4), np.float32)
    for axis in (0, 1):
        want = x.copy()
        for i in range(2):
            for j in range(4):
                k = ind[i, j] % x.shape[axis]
                if axis == 0:
                    want[k, j] = upd[i, j]
                else:
                    want[i, k] = upd[i, j]
        np.testing.assert_array_equal(run("ScatterElements", [x, ind, upd], x.shape, np.float32, axis=axis), want)
    expect_error(lambda: run("ScatterElements", [x, ind + 5, upd], x.shape, np.float32), 100021)


def test_space_to_depth_crd():
    y = np.arange(2 * 3 * 4 * 6, dtype=np.float32).reshape(2, 3, 4, 6)
    want = y.reshape(2, 3, 2, 2, 3, 2).transpose(0, 1, 3, 5, 2, 4).reshape(2, 12, 2, 3)
    np.testing.assert_array_equal(run("SpaceToDepth", [y], want.shape, np.float32, blocksize=2, mode="CRD"), want)
