"""ACL_SIM_KERNEL_ISA reaches the compiler-vectorised loops too (kernels/isa_target.h: isa_call), not only the
intrinsics kernels: the few-row GEMM (fully connected layers at batch 1-4), the generic depthwise conv loop and
the global pools. Until stop 27 these were GCC target_clones, which pick by CPUID, so an AVX2 run on an AVX-512
host still ran their AVX-512 clones and the scalar / AVX2 variants were never exercised here."""
import numpy as np
import pytest

from conftest import run_check_in_child
from kernel_harness import assert_close_accum, conv_ref, randn, run_op


def _gemv_bits_check():
    # Under the scalar cap the loop is plain x86-64 code: no FMA contraction, so every float32 product and sum
    # rounds as numpy's do, in axpy8's order. (An AVX2 / AVX-512 body contracts them into FMAs, which round once.)
    rng = np.random.default_rng(3)
    a, b = randn(rng, (1, 8)), randn(rng, (8, 300))
    (y,) = run_op("MatMul", [a, b], [(1, 300)], [np.float32])
    p = [a[0, r] * b[r] for r in range(8)]
    want = np.float32(0) + (((p[0] + p[1]) + (p[2] + p[3])) + ((p[4] + p[5]) + (p[6] + p[7])))
    assert np.array_equal(y[0], want)


def _loops_check():
    rng = np.random.default_rng(11)
    for m in (1, 3):  # few rows: B read row by row (axpy8 / axpy4 / axpy) and, transposed, as columns (dot4)
        a, b = randn(rng, (m, 1037)), randn(rng, (1037, 203))
        (y,) = run_op("MatMul", [a, b], [(m, 203)], [np.float32])
        assert_close_accum(y, a @ b, np.float32, 1037)
        (y,) = run_op("Gemm", [a, np.ascontiguousarray(b.T)], [(m, 203)], [np.float32], {"transB": 1})
        assert_close_accum(y, a @ b, np.float32, 1037)
    # Depthwise conv with stride 3: the generic loop (strides 1 and 2 take the padded-plane SIMD kernels).
    x, w, bias = randn(rng, (1, 6, 23, 29)), randn(rng, (6, 1, 3, 3)), randn(rng, (6,))
    at = {"group": 6, "strides": [3, 3], "pads": [1, 1, 1, 1]}
    want = conv_ref(x, w, bias, strides=[3, 3], pads=[1, 1, 1, 1], group=6)
    (y,) = run_op("Conv", [x, w, bias], [want.shape], [np.float32], at)
    assert_close_accum(y, want, np.float32, 9)
    x = randn(rng, (2, 5, 13, 17))
    (y,) = run_op("GlobalAveragePool", [x], [(2, 5, 1, 1)], [np.float32])
    assert_close_accum(y, x.mean(axis=(2, 3), keepdims=True), np.float32, 13 * 17)
    (y,) = run_op("GlobalMaxPool", [x], [(2, 5, 1, 1)], [np.float32])
    np.testing.assert_array_equal(y, x.max(axis=(2, 3), keepdims=True))


def test_loops_native():
    _loops_check()


@pytest.mark.parametrize("isa", ["avx2", "scalar"])
def test_loops_other_isas(isa):
    run_check_in_child("test_isa_cap_loops", "_loops_check()", ACL_SIM_KERNEL_ISA=isa)


def test_scalar_cap_reaches_the_gemv_loop():
    run_check_in_child("test_isa_cap_loops", "_gemv_bits_check()", ACL_SIM_KERNEL_ISA="scalar")
