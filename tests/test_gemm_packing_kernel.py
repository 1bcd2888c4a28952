"""The first A panel of a GEMM tile packs a row-major B in its micro-kernels as it reads it
(MicroKernelSet::packing): products with full and ragged strips, panels short of MR rows, one and several K
slices, in-kernel epilogues (bias, Relu) and the separate pass (Sigmoid, a column bias), against float64
NumPy, on this host's kernels and on the AVX2 ones. A transposed B takes the packing pass and must agree."""

import numpy as np
import pytest

from conftest import isa_env, run_check_in_child
from kernel_harness import activation, activation_attrs, assert_close_accum, randn, run_op

SHAPES = [(6, 300, 100), (9, 64, 200), (17, 7, 96), (64, 1, 48), (64, 256, 3136), (40, 1300, 150), (130, 700, 61)]


def _check_cases():
    rng = np.random.default_rng(5)
    for m, k, n in SHAPES:
        a, b = randn(rng, (m, k)), randn(rng, (k, n))
        want = a.astype(np.float64) @ b
        (y,) = run_op("MatMul", [a, b], [(m, n)], [np.float32])
        assert_close_accum(y, want, np.float32, k)
        for act in ("Relu", "Sigmoid"):
            (y,) = run_op("MatMul", [a, b], [(m, n)], [np.float32], activation_attrs(act))
            assert_close_accum(y, activation(want, act), np.float32, k)
        c = randn(rng, (n,))
        (y,) = run_op("Gemm", [a, b, c], [(m, n)], [np.float32])
        assert_close_accum(y, want + c, np.float32, k)
        (yt,) = run_op("Gemm", [a, np.ascontiguousarray(b.T), c], [(m, n)], [np.float32], {"transB": 1})
        assert_close_accum(yt, want + c, np.float32, k)


@pytest.mark.parametrize("isa", ["native", "avx2"])
def test_gemm_packing_kernel(isa):
    run_check_in_child("test_gemm_packing_kernel", "_check_cases()", **isa_env(isa))
