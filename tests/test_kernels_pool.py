"""Pooling kernels against the NumPy reference (whose ceil_mode / count_include_pad /
storage_order semantics were checked against onnxruntime when this suite was written)."""

import numpy as np
import pytest
from onnx import helper

from conftest import run_check_in_child
from kernel_harness import BF16, assert_close_accum, conv_out_shape, pool_ref, randn, run_op, testing

DTYPES = [np.float32, np.float16] + ([BF16] if BF16 is not None else [])
OP = {"max": "MaxPool", "avg": "AveragePool", "lp": "LpPool"}

CASES = [
    ("max", (1, 1, 1, 1), {"kernel_shape": [1, 1]}),
    ("max", (1, 64, 112, 112), {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1, 1, 1, 1]}),
    ("max", (2, 3, 9, 10), {"kernel_shape": [3, 2], "strides": [2, 3], "pads": [1, 0, 0, 1], "dilations": [2, 1],
                            "ceil_mode": 1}),
    ("max", (1, 2, 7, 8), {"kernel_shape": [2, 2], "strides": [2, 2], "ceil_mode": 1}),
    ("max", (1, 3, 11), {"kernel_shape": [4], "strides": [3], "auto_pad": "SAME_LOWER"}),
    ("max", (1, 2, 5, 6, 7), {"kernel_shape": [2, 3, 2], "strides": [2, 2, 2], "pads": [0, 1, 1, 1, 0, 1]}),
    ("avg", (2, 3, 9, 10), {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1, 1, 1, 1], "ceil_mode": 1,
                            "count_include_pad": 1}),
    ("avg", (2, 3, 10, 10), {"kernel_shape": [3, 3], "strides": [2, 2], "ceil_mode": 1, "count_include_pad": 1}),
    ("avg", (2, 3, 9, 10), {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1, 1, 1, 1], "ceil_mode": 1}),
    ("avg", (1, 3, 11), {"kernel_shape": [4], "strides": [3], "auto_pad": "SAME_UPPER"}),
    ("avg", (1, 3, 11), {"kernel_shape": [4], "strides": [3], "auto_pad": "SAME_LOWER", "count_include_pad": 1}),
    ("avg", (1, 8, 14, 14), {"kernel_shape": [2, 2], "strides": [2, 2]}),
    ("avg", (1, 2, 5, 6, 7), {"kernel_shape": [3, 3, 3], "pads": [1, 1, 1, 1, 1, 1], "count_include_pad": 1}),
    ("lp", (1, 3, 6, 6), {"kernel_shape": [2, 2], "strides": [2, 2], "p": 3}),
    ("lp", (2, 2, 7, 5), {"kernel_shape": [3, 2], "pads": [1, 0, 1, 0]}),
]


def _ref(kind, x, at):
    return pool_ref(x, kind, at["kernel_shape"], at.get("strides"), at.get("pads"), at.get("dilations"),
                    at.get("ceil_mode", 0), at.get("count_include_pad", 0), at.get("auto_pad", "NOTSET"),
                    at.get("p", 2))


@pytest.mark.parametrize("kind,xs,at", CASES, ids=[f"{c[0]}-{c[1]}-{i}" for i, c in enumerate(CASES)])
def test_pool_fp32(kind, xs, at):
    rng = np.random.default_rng(sum(xs))
    x = randn(rng, xs)
    want, idx = _ref(kind, x, at)
    if kind == "max":
        y, got_idx = run_op("MaxPool", [x], [want.shape, want.shape], [np.float32, np.int64], at)
        np.testing.assert_array_equal(got_idx, idx)
        np.testing.assert_array_equal(y, want.astype(np.float32))
        (y_only,) = run_op("MaxPool", [x], [want.shape], [np.float32], at)  # Indices is optional
        np.testing.assert_array_equal(y_only, y)
    else:
        (y,) = run_op(OP[kind], [x], [want.shape], [np.float32], at)
        assert_close_accum(y, want, np.float32)


def test_max_pool_storage_order_column_major():
    rng = np.random.default_rng(4)
    x = randn(rng, (2, 3, 7, 8))
    at = {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1, 1, 1, 1], "storage_order": 1}
    want, idx = _ref("max", x, at)
    _, got = run_op("MaxPool", [x], [want.shape, want.shape], [np.float32, np.int64], at)
    plane, rem = np.divmod(idx, 7 * 8)
    h, w = np.divmod(rem, 8)
    np.testing.assert_array_equal(got, plane * 56 + w * 7 + h)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("kind", ["max", "avg"])
def test_pool_dtypes(dtype, kind):
    rng = np.random.default_rng(8)
    x = randn(rng, (2, 5, 9, 9), dtype)
    at = {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1, 1, 1, 1]}
    want, _ = _ref(kind, x, at)
    (y,) = run_op(OP[kind], [x], [want.shape], [dtype], at)
    assert y.dtype == np.dtype(dtype)
    assert_close_accum(y, want, dtype)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("xs", [(1, 1, 1, 1), (2, 7, 5, 9), (1, 2048, 7, 7), (1, 3, 300, 301), (2, 3, 17), (1, 2, 3, 4, 5)])
def test_global_pools(dtype, xs):
    rng = np.random.default_rng(sum(xs))
    x = randn(rng, xs, dtype)
    out = xs[:2] + (1,) * (len(xs) - 2)
    axes = tuple(range(2, len(xs)))
    x64 = x.astype(np.float64)
    (y,) = run_op("GlobalAveragePool", [x], [out], [dtype])
    assert_close_accum(y, x64.mean(axis=axes, keepdims=True), dtype)
    (y,) = run_op("GlobalMaxPool", [x], [out], [dtype])
    np.testing.assert_array_equal(y, x.max(axis=axes, keepdims=True))
    (y,) = run_op("GlobalLpPool", [x], [out], [dtype], {"p": 2})
    assert_close_accum(y, np.sqrt((x64 ** 2).sum(axis=axes, keepdims=True)), dtype)


def test_pool_errors():
    t = testing()
    x = np.ones((1, 2, 6, 6), np.float32)
    with pytest.raises(t.OpError) as e:
        run_op("MaxPool", [x], [(1, 2, 3, 3)], [np.float32], {})
    assert e.value.code == 100023
    with pytest.raises(t.OpError) as e:
        run_op("MaxPool", [x], [(1, 2, 4, 4)], [np.float32], {"kernel_shape": [2, 2], "strides": [2, 2]})
    assert e.value.code == 100022
    with pytest.raises(t.OpError) as e:
        run_op("AveragePool", [x], [(1, 2, 3, 3)], [np.float32], {"kernel_shape": [2, 2, 2]})
    assert e.value.code == 100023
    with pytest.raises(t.OpError) as e:
        run_op("MaxPool", [x], [(1, 2, 3, 3), (1, 2, 3, 3)], [np.float32, np.float32],
               {"kernel_shape": [2, 2], "strides": [2, 2]})
    assert e.value.code == 100022
    with pytest.raises(t.OpError) as e:
        run_op("GlobalAveragePool", [x], [(1, 2)], [np.float32])
    assert e.value.code == 100022
    with pytest.raises(t.OpError) as e:
        run_op("GlobalAveragePool", [x.astype(np.int64)], [(1, 2, 1, 1)], [np.int64])
    assert e.value.code == 100021


def test_pool_random_geometries():
    rng = np.random.default_rng(321)
    checked = 0
    while checked < 80:
        nsp = int(rng.integers(1, 4))
        sp = [int(rng.integers(1, 9)) for _ in range(nsp)]
        k = [int(rng.integers(1, 4)) for _ in range(nsp)]
        pads = [min(int(rng.integers(0, 3)), k[i % nsp] - 1) for i in range(2 * nsp)]
        kind = str(rng.choice(["max", "avg", "lp"]))
        at = {"kernel_shape": k, "strides": [int(rng.integers(1, 3)) for _ in range(nsp)], "pads": pads}
        if kind != "lp":
            at["ceil_mode"] = int(rng.integers(0, 2))
        if kind == "max":
            at["dilations"] = [int(rng.integers(1, 3)) for _ in range(nsp)]
        if kind == "avg":
            at["count_include_pad"] = int(rng.integers(0, 2))
        x = randn(rng, [int(rng.integers(1, 3)), int(rng.integers(1, 4))] + sp)
        out = conv_out_shape(sp, k, at["strides"], at.get("dilations", [1] * nsp), pads[:nsp], pads[nsp:],
                             at.get("ceil_mode", 0))
        if min(out) <= 0:  # the window does not fit: no such pooling
            continue
        want, idx = _ref(kind, x, at)
        checked += 1
        if kind == "max":
            y, got_idx = run_op("MaxPool", [x], [want.shape, want.shape], [np.float32, np.int64], at)
            np.testing.assert_array_equal(got_idx, idx)
            np.testing.assert_array_equal(y, want.astype(np.float32))
        else:
            (y,) = run_op(OP[kind], [x], [want.shape], [np.float32], at)
            assert_close_accum(y, want, np.float32)



def _row_taps_check():
    """The vectorised row taps (pool_taps.cpp) on every interior length up to 40 (masked tails of both vector
    widths), strides 1 and 2 and a dilated window, and the whole-plane window (resnet's 7x7 AveragePool);
    MaxPool skips a NaN tap as the per-output loop does."""
    rng = np.random.default_rng(7)
    for w in range(3, 44):
        for kind in ("max", "avg"):
            for at in ({"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1, 1, 1, 1]},
                       {"kernel_shape": [3, 3], "strides": [2, 2], "ceil_mode": 1},
                       {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [0, 1, 1, 0], "ceil_mode": 1},
                       {"kernel_shape": [2, 3], "strides": [1, 1]},
                       {"kernel_shape": [1, 2], "strides": [1, 2], "dilations": [1, 2]}):
                x = randn(rng, (1, 2, 5, w))
                want = _ref(kind, x, at)[0]
                (got,) = run_op(OP[kind], [x], [want.shape], [np.float32], at)
                np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6, err_msg=f"{kind} {w} {at}")
    x = randn(rng, (2, 3, 9, 40))  # the 3x3/2 MaxPool kernel skips NaN as the row path does
    x[0, 1, 4, 7] = x[1, 2, 0, 0] = np.nan
    at = {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1, 1, 1, 1]}
    want = _ref("max", np.where(np.isnan(x), -np.inf, x), at)[0]
    (got,) = run_op("MaxPool", [x], [want.shape], [np.float32], at)
    np.testing.assert_array_equal(got, want.astype(np.float32))
    for kind in ("max", "avg"):
        x = randn(rng, (1, 33, 7, 7))
        x[0, 3, 2, 5] = np.nan
        (got,) = run_op(OP[kind], [x], [(1, 33, 1, 1)], [np.float32], {"kernel_shape": [7, 7]})
        if kind == "max":
            np.testing.assert_array_equal(got[0, :, 0, 0], np.where(np.isnan(x), -np.inf, x)[0].max(axis=(1, 2)))
        else:
            ok = np.arange(33) != 3
            np.testing.assert_allclose(got[0, ok, 0, 0], x[0, ok].mean(axis=(1, 2)), rtol=1e-5, atol=1e-6)


def test_pool_row_taps():
    _row_taps_check()


@pytest.mark.parametrize("isa", ["avx2", "scalar"])
def test_pool_row_taps_other_isas(isa):
    run_check_in_child("test_kernels_pool", "_row_taps_check()", ACL_SIM_KERNEL_ISA=isa)


# MaxPool 3x3 stride 2 takes a vector kernel per ISA (pool_taps.cpp): input widths off the vector width hit
# its scalar column tail, output widths off it the masked store, both paddings the window base; NaN taps
# are skipped the way max_ps skips them. Planes up to kFlatPlaneMaxStride2 floats (pool_flat.h) take the flat
# kernel instead, its window centres packed from every stride-1 window: top / left pads 0 and 1, planes of one
# vector or less (3x3, 5x7), a few (7x7, 9x9, 14x14, 17x23) and many (28x28), 1 and 960 planes per call.
MAX3S2_SHAPES = [(1, 3, 112, 112), (2, 2, 17, 23), (1, 2, 9, 9), (1, 1, 40, 41), (1, 2, 5, 7), (1, 1, 3, 3),
                 (1, 8, 14, 14), (2, 3, 7, 7), (1, 3, 28, 28), (1, 960, 7, 7)]


def _max3s2_check():
    rng = np.random.default_rng(7)
    for xs in MAX3S2_SHAPES:
        for pt, pl in [(0, 0), (1, 1), (1, 0), (0, 1)]:
            at = {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [pt, pl, pt, pl]}
            x = randn(rng, xs)
            x.flat[rng.integers(0, x.size, 3)] = np.nan
            want, _ = _ref("max", np.where(np.isnan(x), -np.inf, x), at)
            (y,) = run_op("MaxPool", [x], [want.shape], [np.float32], at)
            np.testing.assert_array_equal(y, want.astype(np.float32), err_msg=f"{xs} pads {pt},{pl}")


@pytest.mark.parametrize("isa", ["avx512", "avx2", "scalar"])
def test_pool_3x3s2_max_per_isa(isa):
    run_check_in_child("test_kernels_pool", "_max3s2_check()", ACL_SIM_KERNEL_ISA=isa)


# AveragePool 3x3 stride 2 takes the same kernel, summing, scaled by per-output counts worked out once per call
# (pool_ops.cpp: average_scales): top / left pads 0 or 1 with any bottom / right pad, both count rules, ceil_mode
# (clipped last windows), and shufflenet's 1x240x28x28 pad 1. Planes up to kFlatPlaneMaxStride2 floats take the
# flat kernel instead (7x7, 9x9, 14x14 with top pad 0 and ceil_mode, 5x7, 3x3, 17x23, 28x28), unless a ceil_mode
# window is centred past the plane (8x9).
AVG3S2_CASES = [((1, 3, 112, 112), {"pads": [1, 1, 1, 1]}), ((2, 2, 17, 23), {}),
                ((1, 2, 9, 9), {"pads": [1, 0, 1, 0], "count_include_pad": 1}),
                ((1, 1, 40, 41), {"pads": [0, 1, 0, 1]}), ((1, 2, 5, 7), {"pads": [1, 1, 1, 1], "ceil_mode": 1}),
                ((1, 1, 3, 3), {"pads": [1, 1, 1, 1], "count_include_pad": 1}),
                ((1, 2, 14, 14), {"pads": [0, 0, 1, 1], "count_include_pad": 1, "ceil_mode": 1}),
                ((1, 4, 28, 28), {"pads": [1, 1, 1, 1]}), ((1, 6, 14, 14), {"pads": [1, 1, 1, 1]}),
                ((2, 3, 7, 7), {"pads": [1, 1, 1, 1], "count_include_pad": 1}),
                ((1, 2, 8, 9), {"pads": [1, 1, 1, 1], "ceil_mode": 1}), ((1, 960, 7, 7), {"pads": [1, 1, 1, 1]})]


def _avg3s2_check():
    _avg_cases_check(AVG3S2_CASES, {"kernel_shape": [3, 3], "strides": [2, 2]}, 19, 9)


@pytest.mark.parametrize("isa", ["avx512", "avx2", "scalar"])
def test_avg_pool_3x3s2_per_isa(isa):
    run_check_in_child("test_kernels_pool", "_avg3s2_check()", ACL_SIM_KERNEL_ISA=isa)


# AveragePool 2x2 stride 2 with every window inside the plane has its own vector kernel (pool_taps.cpp); odd
# sizes leave a last row / column out (floor), widths off the vector width use its scalar tail, and the
# variants it must leave to the generic path (ceil_mode clipping, padding) are checked alongside.
AVG2S2_CASES = [((1, 3, 56, 56), {}), ((2, 2, 9, 13), {}), ((1, 1, 8, 34), {}), ((1, 2, 2, 2), {}),
                ((1, 4, 7, 67), {}), ((1, 2, 9, 13), {"ceil_mode": 1}),
                ((1, 2, 8, 10), {"pads": [0, 1, 0, 1], "count_include_pad": 1})]


def _avg_cases_check(cases, base, seed, taps):
    """Each (X shape, attribute overrides) of `cases` on top of `base` against the float64 reference."""
    rng = np.random.default_rng(seed)
    for xs, extra in cases:
        at = dict(base, **extra)
        x = randn(rng, xs)
        want, _ = _ref("avg", x, at)
        (y,) = run_op("AveragePool", [x], [want.shape], [np.float32], at)
        assert_close_accum(y, want, np.float32, taps)


def _avg2s2_check():
    _avg_cases_check(AVG2S2_CASES, {"kernel_shape": [2, 2], "strides": [2, 2]}, 11, 4)


@pytest.mark.parametrize("isa", ["avx512", "avx2", "scalar"])
def test_avg_pool_2x2s2_per_isa(isa):
    run_check_in_child("test_kernels_pool", "_avg2s2_check()", ACL_SIM_KERNEL_ISA=isa)


# AveragePool 3x3 stride 1 padded by one on every side (a same-size blur) has its own vector kernels
# (pool_taps.cpp): planes up to kFlatPlaneMax floats as one flat run (pool_flat.h: 40x40, 33x35), larger ones row by
# row (65x66, 70x80); one
# to three window rows, widths under / over / off the vector widths, both count rules; a window of another size
# or padding stays on the generic path alongside.
AVG3S1_CASES = [((1, 3, 28, 28), {}), ((1, 2, 28, 28), {"count_include_pad": 1}), ((2, 1, 1, 5), {}),
                ((1, 2, 2, 3), {}), ((1, 1, 5, 17), {"count_include_pad": 1}), ((1, 2, 7, 33), {}),
                ((1, 1, 4, 16), {}), ((1, 1, 6, 9), {"pads": [1, 1, 0, 0]}), ((1, 576, 14, 14), {}),
                ((1, 2, 40, 40), {}), ((1, 1, 33, 35), {"count_include_pad": 1}), ((1, 2, 65, 66), {}),
                ((1, 1, 70, 80), {"count_include_pad": 1})]


def _avg3s1_check():
    _avg_cases_check(AVG3S1_CASES, {"kernel_shape": [3, 3], "strides": [1, 1], "pads": [1, 1, 1, 1]}, 13, 9)


@pytest.mark.parametrize("isa", ["avx512", "avx2", "scalar"])
def test_avg_pool_3x3s1p1_per_isa(isa):
    run_check_in_child("test_kernels_pool", "_avg3s1_check()", ACL_SIM_KERNEL_ISA=isa)


# MaxPool 3x3 stride 1 padded by one on every side (inception's pool branches) takes the same kernel with -inf
# padding: 7x7 planes, one and two rows, widths under / over / off the vector widths; NaN taps are skipped as the
# row path skips them, and windows of another padding stay on the generic path alongside.
MAX3S1_SHAPES = [(1, 4, 7, 7), (2, 2, 1, 5), (1, 1, 2, 3), (1, 2, 14, 17), (1, 1, 5, 33), (1, 3, 28, 28),
                 (1, 64, 7, 7), (1, 2, 40, 40), (1, 1, 33, 35), (1, 1, 1, 1), (3, 1, 3, 1), (1, 2, 65, 66)]


def _max3s1_check():
    rng = np.random.default_rng(17)
    at = {"kernel_shape": [3, 3], "strides": [1, 1], "pads": [1, 1, 1, 1]}
    for xs in MAX3S1_SHAPES:
        x = randn(rng, xs)
        x.flat[rng.integers(0, x.size, 2)] = np.nan
        want, _ = _ref("max", np.where(np.isnan(x), -np.inf, x), at)
        (y,) = run_op("MaxPool", [x], [want.shape], [np.float32], at)
        np.testing.assert_array_equal(y, want.astype(np.float32), err_msg=str(xs))
    x = randn(rng, (1, 2, 6, 9))
    at = {"kernel_shape": [3, 3], "strides": [1, 1], "pads": [1, 1, 0, 0]}
    want, _ = _ref("max", x, at)
    (y,) = run_op("MaxPool", [x], [want.shape], [np.float32], at)
    np.testing.assert_array_equal(y, want.astype(np.float32))


@pytest.mark.parametrize("isa", ["avx512", "avx2", "scalar"])
def test_max_pool_3x3s1p1_per_isa(isa):
    run_check_in_child("test_kernels_pool", "_max3s1_check()", ACL_SIM_KERNEL_ISA=isa)


def _pool_3x3_random_check():
    """3x3 windows on random planes (1..40 a side, some past kFlatPlaneMax), strides 1 and 2, every combination
    of 0 / 1 pads per side, ceil_mode and both count rules: the flat, 3x3/2, 3x3/1 and generic kernels and the
    choice between them, against the float64 reference; MaxPool with NaN and infinite taps."""
    rng = np.random.default_rng(2026)
    checked = 0
    while checked < 150:
        side = (lambda: int(rng.integers(1, 41))) if checked % 10 else (lambda: int(rng.integers(60, 75)))
        xs = (int(rng.integers(1, 3)), int(rng.integers(1, 5)), side(), side())
        kind = "max" if rng.random() < 0.5 else "avg"
        s = int(rng.integers(1, 3))
        pads = [int(v) for v in rng.integers(0, 2, 4)]
        at = {"kernel_shape": [3, 3], "strides": [s, s], "pads": pads, "ceil_mode": int(rng.integers(0, 2))}
        if kind == "avg":
            at["count_include_pad"] = int(rng.integers(0, 2))
        out = conv_out_shape(list(xs[2:]), [3, 3], [s, s], [1, 1], pads[:2], pads[2:], at["ceil_mode"])
        if min(out) <= 0:
            continue
        checked += 1
        x = randn(rng, xs)
        if kind == "max":
            for v in (np.nan, np.inf, -np.inf):
                x.flat[rng.integers(0, x.size, 2)] = v
            want, _ = _ref("max", np.where(np.isnan(x), -np.inf, x), at)
            (y,) = run_op("MaxPool", [x], [want.shape], [np.float32], at)
            np.testing.assert_array_equal(y, want.astype(np.float32), err_msg=f"{xs} {at}")
        else:
            want, _ = _ref("avg", x, at)
            (y,) = run_op("AveragePool", [x], [want.shape], [np.float32], at)
            assert_close_accum(y, want, np.float32, 9)


@pytest.mark.parametrize("isa", ["avx512", "avx2", "scalar"])
def test_pool_3x3_random_per_isa(isa):
    run_check_in_child("test_kernels_pool", "_pool_3x3_random_check()", ACL_SIM_KERNEL_ISA=isa)


# A window that overhangs the padded input by less than a stride still gives one output in onnxruntime and in onnx's
# shape inference (C's truncating division), so ATC sizes the output that way and the kernel must agree: a 1-row
# input pooled 3x3/2 with one pad below, a 2-row one 5x5/3 with one above, both ceil modes and count rules, through
# the kernel and through a compiled model, against onnxruntime. With count_include_pad the window counts its taps
# inside the padded input, as onnx's reference and onnxruntime's AveragePool-19 kernel do (its older kernel, opset
# 18 and before, divides such a window by the whole kernel area; docs/op_coverage.md).
OVERHANG_CASES = [((1, 2, 1, 9), [3, 3], [2, 2], [0, 0, 1, 0]), ((1, 1, 2, 7), [5, 5], [3, 3], [1, 1, 0, 1]),
                  ((1, 3, 1, 1), [3, 3], [2, 2], [0, 1, 1, 0])]


@pytest.mark.parametrize("op", ["MaxPool", "AveragePool"])
def test_pool_overhanging_window_matches_onnxruntime(op):
    from atc_util import make_model, ort_run

    import acl_sim.onnx_backend as backend

    rng = np.random.default_rng(5)
    for xs, k, s, pads in OVERHANG_CASES:
        for ceil in (0, 1):
            for cip in ((0, 1) if op == "AveragePool" else (None,)):
                at = {"kernel_shape": k, "strides": s, "pads": pads, "ceil_mode": ceil}
                if cip is not None:
                    at["count_include_pad"] = cip
                model = make_model([helper.make_node(op, ["x"], ["y"], **at)], [("x", list(xs))],
                                   [("y", ["n", "c", "h", "w"])], opset=19)
                x = randn(rng, xs)
                (want,) = ort_run(model, {"x": x})
                (got,) = run_op(op, [x], [want.shape], [np.float32], at)
                np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6, err_msg=f"{xs} {at}")
                rep = backend.prepare(model)
                try:
                    (out,) = rep.run({"x": x})
                finally:
                    rep.close()
                assert out.shape == want.shape
                np.testing.assert_allclose(out, want, rtol=1e-6, atol=1e-6, err_msg=f"model {xs} {at}")


@pytest.mark.parametrize("dtype", DTYPES[1:], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("kind,at,shape", [
    ("max", {"kernel_shape": [3, 3], "pads": [1, 1, 1, 1]}, (2, 40, 14, 14)),  # flat 3x3/1
    ("avg", {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1, 1, 1, 1]}, (1, 64, 28, 28)),  # flat 3x3/2
    ("max", {"kernel_shape": [3, 3], "strides": [2, 2]}, (1, 24, 111, 111)),  # 3x3/2 per plane
    ("avg", {"kernel_shape": [2, 2], "strides": [2, 2]}, (1, 48, 56, 56)),  # 2x2/2
    ("avg", {"kernel_shape": [7, 7]}, (3, 100, 7, 7)),  # the whole plane
    ("max", {"kernel_shape": [5, 5], "strides": [2, 2], "pads": [2, 2, 2, 2]}, (1, 70, 20, 20)),  # row path
    ("lp", {"kernel_shape": [3, 3], "strides": [2, 2]}, (1, 50, 15, 15)),  # per output
])
def test_half_pools_match_fp32_rounded(dtype, kind, at, shape):
    # fp16 / bf16 pools widen and narrow per task: over many tasks each output is the fp32 pool of the widened
    # input, rounded once, exactly.
    x = randn(np.random.default_rng(13), shape, dtype)
    want, _ = _ref(kind, x.astype(np.float32), at)
    (y32,) = run_op(OP[kind], [x.astype(np.float32)], [want.shape], [np.float32], at)
    (y,) = run_op(OP[kind], [x], [want.shape], [dtype], at)
    assert y.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(y.astype(np.float32), y32.astype(dtype).astype(np.float32))


def test_half_max_pool_indices_over_many_tasks():
    x = randn(np.random.default_rng(14), (2, 30, 13, 13), np.float16)
    at = {"kernel_shape": [3, 3], "strides": [2, 2]}
    want, idx = _ref("max", x.astype(np.float32), at)
    y, got = run_op("MaxPool", [x], [want.shape, want.shape], [np.float16, np.int64], at)
    np.testing.assert_array_equal(got, idx)
    np.testing.assert_array_equal(y.astype(np.float32), want.astype(np.float16).astype(np.float32))
