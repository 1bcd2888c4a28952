"""fp16 / bf16 plane ops (pools, global pools, depthwise convs) widen their planes a few at a time inside each task
(for_each_plane_range stages kPlaneStageValues values, at least one plane). Whatever the split, every output must be
exactly the fp32 op on the widened input, rounded once: planes smaller and larger than one stage, plane counts that
leave a partial last stage, and a task range that starts mid-tensor."""
from __future__ import annotations

import numpy as np
import pytest

from kernel_harness import BF16, randn, run_op

HALF_DTYPES = [np.float16] + ([BF16] if BF16 is not None else [])

CASES = [  # op, X shape, attributes, output shape
    ("GlobalAveragePool", (1, 1000, 13, 13), {}, (1, 1000, 1, 1)),  # 24 planes a stage, 1000 = 41 x 24 + 16
    ("GlobalMaxPool", (2, 37, 9, 9), {}, (2, 37, 1, 1)),
    ("GlobalAveragePool", (1, 3, 80, 80), {}, (1, 3, 1, 1)),  # planes larger than a stage: one at a time
    ("MaxPool", (1, 64, 111, 111), {"kernel_shape": [3, 3], "strides": [2, 2]}, (1, 64, 55, 55)),
    ("MaxPool", (1, 50, 27, 27), {"kernel_shape": [3, 3], "strides": [2, 2]}, (1, 50, 13, 13)),
    ("AveragePool", (2, 24, 14, 14), {"kernel_shape": [2, 2], "strides": [2, 2]}, (2, 24, 7, 7)),
]


@pytest.mark.parametrize("dtype", HALF_DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("op,xs,attrs,ys", CASES, ids=[f"{c[0]}-{'x'.join(map(str, c[1]))}" for c in CASES])
def test_staged_planes_match_fp32_rounded_once(dtype, op, xs, attrs, ys):
    x = randn(np.random.default_rng(42), xs, dtype)
    (want,) = run_op(op, [x.astype(np.float32)], [ys], [np.float32], attrs)
    (y,) = run_op(op, [x], [ys], [dtype], attrs)
    assert y.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(y.astype(np.float32), want.astype(dtype).astype(np.float32))


@pytest.mark.parametrize("dtype", HALF_DTYPES, ids=lambda d: np.dtype(d).name)
def test_staged_depthwise_conv_matches_fp32_rounded_once(dtype):
    rng = np.random.default_rng(43)
    x, w, b = randn(rng, (1, 96, 40, 40), dtype), randn(rng, (96, 1, 3, 3), dtype), randn(rng, (96,), dtype)
    at = {"group": 96, "pads": [1, 1, 1, 1], "activation": "Relu"}
    (want,) = run_op("Conv", [x.astype(np.float32), w.astype(np.float32), b.astype(np.float32)], [(1, 96, 40, 40)],
                     [np.float32], at)
    (y,) = run_op("Conv", [x, w, b], [(1, 96, 40, 40)], [dtype], at)
    np.testing.assert_array_equal(y.astype(np.float32), want.astype(dtype).astype(np.float32))
