"""Kernels added for ONNX node-test coverage, against float64 NumPy references (seeded):
CumProd, BitCast, BitwiseNot, GridSample, AffineGrid."""
import numpy as np
import pytest

from kernel_harness import FLOATS, INTS, assert_close, expect_error, rand, run


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16, np.int32, np.int64])
def test_cumprod(dtype):
    rng = np.random.default_rng(21)
    x = rand(rng, (3, 4, 5), dtype, lo=0.5, hi=1.5) if np.dtype(dtype).kind == "f" else \
        rng.integers(-3, 4, size=(3, 4, 5)).astype(dtype)
    for axis in (0, 1, 2, -1):
        for exclusive in (0, 1):
            for reverse in (0, 1):
                xs = np.flip(x, axis).astype(np.float64) if reverse else x.astype(np.float64)
                want = np.cumprod(xs, axis=axis)
                if exclusive:
                    ones = np.ones_like(np.take(want, [0], axis=axis))
                    want = np.concatenate([ones, np.delete(want, -1, axis=axis)], axis=axis)
                if reverse:
                    want = np.flip(want, axis)
                got = run("CumProd", [x, np.array(axis, np.int64)], x.shape, dtype, exclusive=exclusive,
                          reverse=reverse)
                if np.dtype(dtype).kind == "f":
                    assert_close(got, want, dtype, 4.0)
                else:
                    np.testing.assert_array_equal(got, want.astype(dtype))


@pytest.mark.parametrize("src,dst", [(np.float32, np.int32), (np.int64, np.float64), (np.uint16, np.float16),
                                     (np.int8, np.uint8), (np.bool_, np.uint8)])
def test_bitcast(src, dst):
    rng = np.random.default_rng(22)
    x = rand(rng, (4, 33), src)
    got = run("BitCast", [x], x.shape, dst, to=0)
    np.testing.assert_array_equal(got.view(np.uint8), x.view(np.uint8).reshape(got.view(np.uint8).shape))


def test_bitcast_width_mismatch_is_rejected():
    x = np.zeros((3,), np.float32)
    expect_error(lambda: run("BitCast", [x], x.shape, np.float64, to=0), 100026)


@pytest.mark.parametrize("dtype", INTS)
def test_bitwise_not(dtype):
    rng = np.random.default_rng(23)
    x = rand(rng, (5, 70), dtype)
    np.testing.assert_array_equal(run("BitwiseNot", [x], x.shape, dtype), np.bitwise_not(x))


def test_bitwise_not_rejects_floats():
    x = np.zeros((3,), np.float32)
    expect_error(lambda: run("BitwiseNot", [x], x.shape, np.float32), 100026)


# --- GridSample: a float64 reference written from the ONNX definition ---------------------------

def _reflect(x, lo, hi):
    rng_ = hi - lo
    if x < lo:
        dx = lo - x
        n = int(dx / rng_)
        r = dx - n * rng_
        return lo + r if n % 2 == 0 else hi - r
    if x > hi:
        dx = x - hi
        n = int(dx / rng_)
        r = dx - n * rng_
        return hi - r if n % 2 == 0 else lo + r
    return x


def _cubic(t):
    a, x = -0.75, abs(t)
    return [((a * (x + 1) - 5 * a) * (x + 1) + 8 * a) * (x + 1) - 4 * a,
            ((a + 2) * x - (a + 3)) * x * x + 1,
            ((a + 2) * (1 - x) - (a + 3)) * (1 - x) * (1 - x) + 1,
            ((a * (2 - x) - 5 * a) * (2 - x) + 8 * a) * (2 - x) - 4 * a]


def _grid_sample_ref(x, grid, mode, padding, align):
    x = x.astype(np.float64)
    n_b, ch = x.shape[:2]
    dims = x.shape[2:]
    r = len(dims)
    out = np.zeros((n_b, ch) + grid.shape[1:-1])
    lo = [0.0 if align else -0.5 for _ in dims]
    hi = [d - 1.0 if align else d - 0.5 for d in dims]

    def pixel(xn, idx):
        idx = list(idx)
        for k, i in enumerate(idx):
            if 0 <= i < dims[k]:
                continue
            if padding == "zeros":
                return np.zeros(ch)
            if padding == "border":
                idx[k] = min(max(i, 0), dims[k] - 1)
            else:
                idx[k] = min(max(int(_reflect(float(i), lo[k], hi[k])), 0), dims[k] - 1)
        return xn[(slice(None),) + tuple(idx)]

    for n in range(n_b):
        for pos in np.ndindex(*grid.shape[1:-1]):
            g = grid[(n,) + pos][::-1].astype(np.float64)
            coords = []
            for k in range(r):
                c = (g[k] + 1) / 2 * (dims[k] - 1) if align else ((g[k] + 1) * dims[k] - 1) / 2
                if mode == "nearest":
                    c = float(np.rint(c))
                if c < lo[k] or c > hi[k]:
                    if padding == "border":
                        c = min(max(c, 0.0), dims[k] - 1.0)
                    elif padding == "reflection":
                        c = _reflect(c, lo[k], hi[k])
                coords.append(c)
            if mode == "nearest":
                val = pixel(x[n], [int(c) for c in coords])
            else:
                taps = []
                for c in coords:
                    f = int(np.floor(c))
                    t = c - f
                    taps.append([(f, 1 - t), (f + 1, t)] if mode == "linear" else
                                [(f - 1 + k, w) for k, w in enumerate(_cubic(t))])
                val = np.zeros(ch)
                for combo in np.ndindex(*[len(t) for t in taps]):
                    w = np.prod([taps[k][j][1] for k, j in enumerate(combo)])
                    val = val + w * pixel(x[n], [taps[k][j][0] for k, j in enumerate(combo)])
            out[(n, slice(None)) + pos] = val
    return out


@pytest.mark.parametrize("mode", ["nearest", "linear", "cubic", "bilinear"])
@pytest.mark.parametrize("padding", ["zeros", "border", "reflection"])
@pytest.mark.parametrize("align", [0, 1])
def test_grid_sample_2d(mode, padding, align):
    rng = np.random.default_rng(24)
    x = rand(rng, (2, 3, 5, 6), np.float32)
    grid = rng.uniform(-1.4, 1.4, size=(2, 4, 7, 2)).astype(np.float32)  # some points outside
    got = run("GridSample", [x, grid], (2, 3, 4, 7), np.float32, mode=mode, padding_mode=padding,
              align_corners=align)
    ref_mode = {"bilinear": "linear"}.get(mode, mode)
    assert_close(got, _grid_sample_ref(x, grid, ref_mode, padding, align), np.float32, 8.0)


@pytest.mark.parametrize("mode", ["nearest", "linear"])
@pytest.mark.parametrize("padding", ["zeros", "border", "reflection"])
def test_grid_sample_3d(mode, padding):
    rng = np.random.default_rng(25)
    x = rand(rng, (1, 2, 3, 4, 5), np.float64)
    grid = rng.uniform(-1.3, 1.3, size=(1, 2, 3, 4, 3))
    got = run("GridSample", [x, grid], (1, 2, 2, 3, 4), np.float64, mode=mode, padding_mode=padding,
              align_corners=0)
    assert_close(got, _grid_sample_ref(x, grid, mode, padding, 0), np.float64, 10.0)


def test_grid_sample_float16_and_errors():
    rng = np.random.default_rng(26)
    x = rand(rng, (1, 2, 4, 4), np.float16)
    grid = rng.uniform(-1, 1, size=(1, 3, 3, 2)).astype(np.float16)
    got = run("GridSample", [x, grid], (1, 2, 3, 3), np.float16, mode="linear")
    assert_close(got, _grid_sample_ref(x, grid.astype(np.float64), "linear", "zeros", 0), np.float16, 4.0)
    expect_error(lambda: run("GridSample", [x, grid], (1, 2, 3, 3), np.float16, mode="area"), 100023)
    bad_grid = np.zeros((1, 3, 3, 3), np.float16)
    expect_error(lambda: run("GridSample", [x, bad_grid], (1, 2, 3, 3), np.float16), 100021)
    x5 = np.zeros((1, 1, 2, 2, 2), np.float32)
    g5 = np.zeros((1, 1, 1, 1, 3), np.float32)
    expect_error(lambda: run("GridSample", [x5, g5], (1, 1, 1, 1, 1), np.float32, mode="cubic"), 100023)


@pytest.mark.parametrize("align", [0, 1])
@pytest.mark.parametrize("size", [(2, 3, 4, 5), (2, 1, 3, 4, 5)])
def test_affine_grid(align, size):
    rng = np.random.default_rng(27)
    r = len(size) - 2
    theta = rng.uniform(-1, 1, size=(size[0], r, r + 1)).astype(np.float32)

    def base(d):
        if align:
            return np.linspace(-1, 1, d)
        return -1 + (2 * np.arange(d) + 1) / d

    axes = [base(d) for d in size[2:]]
    mesh = np.meshgrid(*axes, indexing="ij")  # spatial dims outer to inner
    coords = np.stack([m for m in mesh[::-1]] + [np.ones_like(mesh[0])], axis=-1)  # x, y, (z), 1
    want = np.einsum("nrc,...c->n...r", theta.astype(np.float64), coords)
    got = run("AffineGrid", [theta, np.array(size, np.int64)], want.shape, np.float32, align_corners=align)
    assert_close(got, want, np.float32, 4.0)



@pytest.mark.parametrize("axis", [-1, 0, 1, 2])
@pytest.mark.parametrize("idx_dtype,val_dtype", [(np.int64, np.float32), (np.float32, np.int32),
                                                 (np.int32, np.float16), (np.uint8, np.int64)])
def test_one_hot(axis, idx_dtype, val_dtype):
    rng = np.random.default_rng(28)
    depth = 6
    lo = 0 if np.dtype(idx_dtype).kind == "u" else -8
    indices = rng.integers(lo, 8, size=(3, 4)).astype(idx_dtype)  # some out of range, some negative
    values = np.array([2, 7], dtype=val_dtype)
    wrapped = indices.astype(np.int64)
    wrapped = np.where(wrapped < 0, wrapped + depth, wrapped)
    hot = (wrapped[..., None] == np.arange(depth)).astype(np.float64)  # depth axis last
    want = np.moveaxis(hot, -1, axis if axis >= 0 else 2)
    want = np.where(want > 0, 7.0, 2.0)
    got = run("OneHot", [indices, np.array(depth, np.int64), values], want.shape, val_dtype, axis=axis)
    np.testing.assert_array_equal(got.astype(np.float64), want)


def test_one_hot_rejects_bad_depth_and_values():
    idx = np.zeros((2,), np.int64)
    expect_error(lambda: run("OneHot", [idx, np.array(0, np.int64), np.array([0, 1], np.float32)], (2, 0),
                             np.float32), 100021)
    expect_error(lambda: run("OneHot", [idx, np.array(3, np.int64), np.array([0, 1, 2], np.float32)], (2, 3),
                             np.float32), 100021)


def _quantize_ref(x, scale, zp, qtype):
    info = np.iinfo(qtype)
    q = np.rint(x.astype(np.float64) / scale.astype(np.float64)) + zp.astype(np.float64)
    return np.clip(q, info.min, info.max).astype(qtype)


@pytest.mark.parametrize("qtype", [np.uint8, np.int8, np.int16, np.uint16])
def test_quantize_dequantize_per_tensor_axis_and_blocked(qtype):
    rng = np.random.default_rng(29)
    x = rng.uniform(-300, 300, size=(2, 6, 5)).astype(np.float32)
    x[0, 0, :3] = [0.5, 1.5, -2.5]  # ties round to even
    info = np.iinfo(qtype)
    mid = (int(info.min) + int(info.max)) // 2
    cases = [  # (scale, zero point, attrs, broadcast shape of scale for the reference)
        (np.array(1.0 if qtype in (np.int16, np.uint16) else 2.0, np.float32), np.array(mid, qtype), {}, ()),
        (rng.uniform(0.5, 3, size=6).astype(np.float32), np.full(6, mid, qtype), {"axis": 1}, (1, 6, 1)),
        (rng.uniform(0.5, 3, size=(2, 3, 5)).astype(np.float32), np.full((2, 3, 5), mid, qtype),
         {"axis": 1, "block_size": 2}, None),
    ]
    for scale, zp, attrs, shape in cases:
        if shape is None:  # blocked: repeat each scale over its block of the axis
            s_full = np.repeat(scale, 2, axis=1)
            z_full = np.repeat(zp, 2, axis=1)
        else:
            s_full, z_full = scale.reshape(shape), zp.reshape(shape)
        want = _quantize_ref(x, s_full, z_full, qtype)
        got = run("QuantizeLinear", [x, scale, zp], x.shape, qtype, **attrs)
        np.testing.assert_array_equal(got, want)
        back = run("DequantizeLinear", [got, scale, zp], x.shape, np.float32, **attrs)
        assert_close(back, (want.astype(np.float64) - z_full) * s_full, np.float32)
    # no zero point: uint8 output
    got = run("QuantizeLinear", [x, np.array(4.0, np.float32)], x.shape, np.uint8)
    np.testing.assert_array_equal(got, _quantize_ref(x, np.float64(4.0), np.float64(0), np.uint8))


def test_quantize_rejects_bad_scale_and_dtype():
    x = np.zeros((2, 3), np.float32)
    expect_error(lambda: run("QuantizeLinear", [x, np.ones(4, np.float32)], x.shape, np.uint8, axis=1), 100021)
    expect_error(lambda: run("QuantizeLinear", [x, np.ones(1, np.float32)], x.shape, np.float32), 100026)
