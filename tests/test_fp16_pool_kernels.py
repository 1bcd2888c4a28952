"""fp16 pools whose kernels read and write binary16 as it lies, with no widened copy of the plane: the 3x3/2
Max- and AveragePool (pool_3x3s2_plane_f16), the flat 3x3 kernel of small planes (pool_3x3_flat_f16) and the
whole-plane global pools (plane_sum_f16 / plane_max_f16).

Each output must be exactly the fp32 op on the widened input, rounded once: row widths that end in a partial
vector on both ISAs (a tail load that runs on into the next row, and the plane's last one, masked), pads and
ceil_mode (clipped windows), count_include_pad, and NaN / inf taps (the max skips a NaN, as the fp32 kernel does)."""
from __future__ import annotations

import numpy as np
import pytest

from conftest import run_check_in_child
from kernel_harness import randn, run_op

POOL_3X3S2 = [  # op, X shape, attributes; planes above the flat kernel's 1024 values, so the row kernel runs
    ("MaxPool", (1, 8, 111, 111), {}),  # squeezenet's stem pool: 111 = 6 x 16 + 15 / 13 x 8 + 7
    ("MaxPool", (2, 5, 56, 56), {"pads": [1, 1, 1, 1]}),  # resnet's stem pool, rows of whole vectors
    ("MaxPool", (1, 6, 40, 37), {"pads": [1, 0, 0, 1]}),
    ("MaxPool", (1, 3, 34, 45), {"ceil_mode": 1}),  # the last window clipped on both axes
    ("AveragePool", (1, 4, 45, 33), {"pads": [1, 1, 1, 1]}),
    ("AveragePool", (1, 4, 45, 33), {"pads": [1, 1, 1, 1], "count_include_pad": 1}),
    ("AveragePool", (2, 3, 41, 50), {"ceil_mode": 1}),
]
GLOBAL = [  # op, X shape: plane sizes below, at and past whole vectors, and many planes
    ("GlobalAveragePool", (1, 1000, 13, 13)),
    ("GlobalMaxPool", (2, 37, 9, 9)),
    ("GlobalAveragePool", (1, 5, 4, 4)),
    ("GlobalMaxPool", (1, 3, 80, 80)),
    ("GlobalAveragePool", (3, 7, 1, 1)),
]


def _output_shape(xs, attrs):
    pads = attrs.get("pads", [0, 0, 0, 0])
    ceil = attrs.get("ceil_mode", 0)
    s = attrs.get("strides", [2, 2])[0]
    dims = []
    for i in range(2):
        span = xs[2 + i] + pads[i] + pads[i + 2] - 3
        o = (span + (s - 1 if ceil else 0)) // s + 1
        if ceil and (o - 1) * s >= xs[2 + i] + pads[i]:
            o -= 1
        dims.append(o)
    return (xs[0], xs[1], *dims)


def _with_specials(x, rng):
    flat = x.reshape(-1)
    idx = rng.choice(flat.size, size=max(4, flat.size // 500), replace=False)
    flat[idx[0::3]] = np.nan
    flat[idx[1::3]] = np.inf
    flat[idx[2::3]] = -np.inf
    return x


def _assert_rounded_once(op, x, ys, attrs):
    (want,) = run_op(op, [x.astype(np.float32)], [ys], [np.float32], attrs)
    (y,) = run_op(op, [x], [ys], [np.float16], attrs)
    assert y.dtype == np.float16
    np.testing.assert_array_equal(y.astype(np.float32), want.astype(np.float16).astype(np.float32),
                                  err_msg=f"{op} {x.shape} {attrs}")


def _check_all() -> None:
    rng = np.random.default_rng(11)
    for op, xs, attrs in POOL_3X3S2:
        attrs = dict(attrs, kernel_shape=[3, 3], strides=[2, 2])
        x = randn(rng, xs, np.float16)
        if op == "MaxPool":
            x = _with_specials(x, rng)
        _assert_rounded_once(op, x, _output_shape(xs, attrs), attrs)
    for op, xs in GLOBAL:
        x = randn(rng, xs, np.float16)
        if op == "GlobalMaxPool":
            x = _with_specials(x, rng)
        _assert_rounded_once(op, x, (xs[0], xs[1], 1, 1), {})


def test_fp16_pools_are_the_fp32_pools_rounded_once():
    _check_all()


@pytest.mark.parametrize("isa", ["avx2", "scalar"])
def test_fp16_pools_on_other_isas(isa):
    run_check_in_child("test_fp16_pool_kernels", "_check_all()", ACL_SIM_KERNEL_ISA=isa)


def test_fp16_max_pool_of_a_half_max_and_a_nan_window():
    # 65504 (fp16's largest) survives as itself; a window of NaNs only gives the fill's -inf, as in fp32.
    x = np.zeros((1, 1, 40, 40), np.float16)
    x[0, 0, 0, 0] = 65504
    x[0, 0, 10:13, 10:13] = np.nan
    at = {"kernel_shape": [3, 3], "strides": [2, 2]}
    (y,) = run_op("MaxPool", [x], [(1, 1, 19, 19)], [np.float16], at)
    assert y[0, 0, 0, 0] == np.float16(65504)
    (want,) = run_op("MaxPool", [x.astype(np.float32)], [(1, 1, 19, 19)], [np.float32], at)
    np.testing.assert_array_equal(y.astype(np.float32), want)


def _check_random_shapes() -> None:
    # Small and odd planes, every pad / ceil_mode combination the 3x3/2 kernels take, and 3x3/1 with pads of one
    # (the flat kernel on planes up to 1024 / 4096 values, the row kernels above): each the fp32 op rounded once.
    rng = np.random.default_rng(5)
    for i in range(60):
        ih, iw = int(rng.integers(3, 70)), int(rng.integers(3, 70))
        if i % 3 == 2:
            attrs = {"kernel_shape": [3, 3], "strides": [1, 1], "pads": [1, 1, 1, 1], "ceil_mode": 0}
        else:
            pads = [int(v) for v in rng.integers(0, 2, 4)]
            attrs = {"kernel_shape": [3, 3], "strides": [2, 2], "pads": pads, "ceil_mode": int(rng.integers(0, 2))}
        op = "MaxPool" if rng.integers(0, 2) else "AveragePool"
        if op == "AveragePool":
            attrs["count_include_pad"] = int(rng.integers(0, 2))
        xs = (1, int(rng.integers(1, 4)), ih, iw)
        x = randn(rng, xs, np.float16)
        if op == "MaxPool":
            x = _with_specials(x, rng)
        _assert_rounded_once(op, x, _output_shape(xs, attrs), attrs)


def test_fp16_3x3_pools_over_random_shapes():
    _check_random_shapes()


def test_fp16_3x3_pools_over_random_shapes_avx2():
    run_check_in_child("test_fp16_pool_kernels", "_check_random_shapes()", ACL_SIM_KERNEL_ISA="avx2")

