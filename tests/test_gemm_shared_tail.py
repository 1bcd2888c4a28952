"""A ragged right edge of 1-4 columns shared by every N block (gemm.cpp): each tile runs the tail's one-column
kernel for its share of the rows. Products split into several N blocks with such an edge (N = 49, 52, 97, 99,
100, 196 over 24- and 48-wide strips), a last single column over packed A, with the in-kernel epilogue (bias, Relu), the separate pass (Sigmoid, a
column bias) and a conv residual, on this host's kernels and on the AVX2 ones, against float64 NumPy."""

import numpy as np
import pytest

from conftest import ON_IM2COL, isa_env, run_check_in_child
from kernel_harness import activation, activation_attrs, assert_close_accum, conv_ref, randn, run_op


def _check_cases():
    rng = np.random.default_rng(11)
    for m, k, n in [(64, 600, 52), (128, 1152, 100), (384, 300, 97), (200, 260, 99), (256, 1024, 196)]:
        a, b = randn(rng, (m, k)), randn(rng, (k, n))
        (y,) = run_op("MatMul", [a, b], [(m, n)], [np.float32])
        assert_close_accum(y, a.astype(np.float64) @ b, np.float32, k)
        for act in ("Relu", "Sigmoid"):
            (y,) = run_op("MatMul", [a, b], [(m, n)], [np.float32], activation_attrs(act))
            assert_close_accum(y, activation(a.astype(np.float64) @ b, act), np.float32, k)
        c = randn(rng, (n,))
        (y,) = run_op("Gemm", [a, b, c], [(m, n)], [np.float32], {"activation": "Relu"})
        assert_close_accum(y, activation(a.astype(np.float64) @ b + c, "Relu"), np.float32, k)
    # A transposed is packed per panel: a last single column (N = 24 s + 1, 48 s + 1) runs as the column kernel
    # over packed A, two k steps per vector, K not a multiple of its 8-step loop.
    for m, k, n in [(64, 1027, 49), (30, 300, 97), (9, 5, 25)]:
        a, b = randn(rng, (m, k)), randn(rng, (k, n))
        (y,) = run_op("Gemm", [np.ascontiguousarray(a.T), b], [(m, n)], [np.float32], {"transA": 1})
        assert_close_accum(y, a.astype(np.float64) @ b, np.float32, k)
    # 3x3 convs on a 7x7 plane (N = 49) through the im2col GEMM: bias + Relu, and a residual.
    x, w, bias = randn(rng, (1, 96, 7, 7)), randn(rng, (320, 96, 3, 3)), randn(rng, (320,))
    want = conv_ref(x, w, bias, pads=[1, 1, 1, 1])
    (y,) = run_op("Conv", [x, w, bias], [want.shape], [np.float32], {"pads": [1, 1, 1, 1], "activation": "Relu"})
    assert_close_accum(y, activation(want, "Relu"), np.float32, 96 * 9)
    r = randn(rng, want.shape)
    (y,) = run_op("Conv", [x, w, bias, r], [want.shape], [np.float32], {"pads": [1, 1, 1, 1]})
    assert_close_accum(y, want + r, np.float32, 96 * 9)


@pytest.mark.parametrize("isa", ["native", "avx2"])
def test_gemm_shared_tail(isa):
    run_check_in_child("test_gemm_shared_tail", "_check_cases()", **isa_env(isa, **ON_IM2COL))
