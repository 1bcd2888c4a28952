"""MatMul / Gemm kernels (packed GEMM + fused epilogues) against NumPy float64."""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from kernel_harness import (ACTIVATIONS, BF16, activation, activation_attrs, assert_close_accum, randn, run_op, testing)

DTYPES = [np.float32, np.float16] + ([BF16] if BF16 is not None else [])


def matmul_ref(a, b):
    return np.matmul(a.astype(np.float64), b.astype(np.float64))


# Tile edges of the micro-kernels (8x48 / 4x24 / 4x8), K-slice edges (256) and odd sizes.
SHAPES = [(1, 1, 1), (1, 7, 1), (3, 5, 2), (7, 13, 29), (8, 16, 48), (9, 17, 49), (47, 33, 95), (48, 64, 96),
          (49, 255, 97), (16, 256, 16), (17, 257, 15), (6, 513, 130), (100, 300, 50), (257, 129, 97),
          (1, 2048, 1000), (1000, 64, 3)]


@pytest.mark.parametrize("m,k,n", SHAPES)
def test_matmul_fp32_shapes(m, k, n):
    rng = np.random.default_rng(m * 1000 + k + n)
    a, b = randn(rng, (m, k)), randn(rng, (k, n))
    (y,) = run_op("MatMul", [a, b], [(m, n)], [np.float32])
    assert y.dtype == np.float32
    assert_close_accum(y, matmul_ref(a, b), np.float32, k)


def test_matmul_large():
    rng = np.random.default_rng(1)
    a, b = randn(rng, (700, 900)), randn(rng, (900, 1100))
    (y,) = run_op("MatMul", [a, b], [(700, 1100)], [np.float32])
    assert_close_accum(y, matmul_ref(a, b), np.float32, 900)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("m,k,n", [(1, 1, 1), (5, 33, 17), (64, 200, 96)])
def test_matmul_dtypes(dtype, m, k, n):
    rng = np.random.default_rng(k)
    a, b = randn(rng, (m, k), dtype), randn(rng, (k, n), dtype)
    (y,) = run_op("MatMul", [a, b], [(m, n)], [dtype])
    assert y.dtype == np.dtype(dtype)
    assert_close_accum(y, matmul_ref(a, b), dtype, k)


@pytest.mark.parametrize("sa,sb", [
    ((2, 3, 4, 5), (5, 6)),            # folded into one GEMM
    ((4, 5), (2, 3, 5, 6)),            # A broadcast over B's batch
    ((2, 1, 4, 5), (1, 3, 5, 6)),      # both broadcast
    ((3, 8, 64), (3, 64, 8)),          # attention-like batched
    ((5,), (5, 6)), ((2, 3, 5), (5,)), ((5,), (5,)), ((7,), (2, 7, 3)),
])
def test_matmul_broadcast_and_vectors(sa, sb):
    rng = np.random.default_rng(len(sa) * 10 + len(sb))
    a, b = randn(rng, sa), randn(rng, sb)
    want = matmul_ref(a, b)
    (y,) = run_op("MatMul", [a, b], [want.shape], [np.float32])
    assert y.shape == want.shape
    assert_close_accum(y, want, np.float32, sa[-1])


@pytest.mark.parametrize("act", ACTIVATIONS)
def test_matmul_every_epilogue(act):
    rng = np.random.default_rng(3)
    a, b = randn(rng, (19, 40)), randn(rng, (40, 53), scale=0.3)
    params = {"Clip": (-0.5, 0.7), "LeakyRelu": (0.2, None), "HardSigmoid": (0.3, 0.4)}.get(act, (None, None))
    (y,) = run_op("MatMul", [a, b], [(19, 53)], [np.float32], activation_attrs(act, *params))
    assert_close_accum(y, activation(matmul_ref(a, b), act, *params), np.float32, 40)


def test_epilogue_defaults_and_extremes():
    # Large |x| must not overflow the vector exp (sigmoid/tanh/silu saturate cleanly).
    a = np.array([[-200.0, -30.0, -3.0, -1e-4, 0.0, 1e-4, 3.0, 30.0, 200.0]], np.float32).T
    b = np.ones((1, 1), np.float32)
    for act in ACTIVATIONS:
        (y,) = run_op("MatMul", [a, b], [(9, 1)], [np.float32], {"activation": act})
        assert np.all(np.isfinite(y)), act
        np.testing.assert_allclose(y, activation(a, act), rtol=1e-5, atol=1e-6, err_msg=act)


@pytest.mark.parametrize("ta,tb", [(0, 0), (1, 0), (0, 1), (1, 1)])
@pytest.mark.parametrize("c_shape", [None, (), (1,), (37,), (1, 37), (23, 1), (23, 37)])
def test_gemm_transposes_and_c_broadcast(ta, tb, c_shape):
    rng = np.random.default_rng(ta * 2 + tb)
    m, k, n = 23, 31, 37
    a = randn(rng, (k, m) if ta else (m, k))
    b = randn(rng, (n, k) if tb else (k, n))
    alpha, beta = 0.75, -1.5
    aa = a.T if ta else a
    bb = b.T if tb else b
    want = alpha * matmul_ref(aa, bb)
    inputs = [a, b]
    if c_shape is not None:
        c = randn(rng, c_shape)
        inputs.append(c)
        want = want + beta * c.astype(np.float64)
    (y,) = run_op("Gemm", inputs, [(m, n)], [np.float32], {"alpha": alpha, "beta": beta, "transA": ta, "transB": tb})
    assert_close_accum(y, want, np.float32, k)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_gemm_dtypes_with_bias_and_activation(dtype):
    rng = np.random.default_rng(11)
    a, b, c = randn(rng, (10, 70), dtype), randn(rng, (50, 70), dtype), randn(rng, (50,), dtype)
    (y,) = run_op("Gemm", [a, b, c], [(10, 50)], [dtype], {"transB": 1, "activation": "Relu"})
    want = activation(matmul_ref(a, b.T) + c.astype(np.float64), "Relu")
    assert y.dtype == np.dtype(dtype)
    assert_close_accum(y, want, dtype, 70)


def test_gemm_zero_k_and_empty():
    a, b = np.zeros((3, 0), np.float32), np.zeros((0, 4), np.float32)
    c = np.arange(4, dtype=np.float32)
    (y,) = run_op("Gemm", [a, b, c], [(3, 4)], [np.float32], {"beta": 2.0})
    np.testing.assert_array_equal(y, np.broadcast_to(2 * c, (3, 4)))
    (y,) = run_op("MatMul", [np.zeros((0, 5), np.float32), np.ones((5, 3), np.float32)], [(0, 3)], [np.float32])
    assert y.shape == (0, 3)


def test_errors_carry_cann_codes():
    t = testing()
    a, b = np.ones((3, 4), np.float32), np.ones((5, 6), np.float32)
    with pytest.raises(t.OpError) as e:
        run_op("MatMul", [a, b], [(3, 6)], [np.float32])
    assert e.value.code == 100021 and "MatMul" in str(e.value)
    with pytest.raises(t.OpError) as e:
        run_op("MatMul", [a, np.ones((4, 6), np.float32)], [(3, 7)], [np.float32])
    assert e.value.code == 100022
    with pytest.raises(t.OpError) as e:
        run_op("MatMul", [a, np.ones((4, 6), np.float32)], [(3, 6)], [np.float32], {"activation": "Swish9"})
    assert e.value.code == 100023
    with pytest.raises(t.OpError) as e:
        run_op("MatMul", [a, np.ones((4, 6), np.float16)], [(3, 6)], [np.float32])
    assert e.value.code == 100021
    with pytest.raises(t.OpError) as e:
        run_op("Gemm", [a], [(3, 6)], [np.float32])
    assert e.value.code == 100021
    with pytest.raises(t.OpError) as e:
        run_op("Gemm", [a, np.ones((4, 6), np.float32), np.ones((2, 6), np.float32)], [(3, 6)], [np.float32])
    assert e.value.code == 100021
    with pytest.raises(t.OpError) as e:
        run_op("NoSuchOp", [a], [(3, 4)], [np.float32])
    assert e.value.code == 100024


def test_registry_lists_compute_ops():
    ops = set(testing().registered_ops())
    for op in ["MatMul", "Gemm", "Conv", "ConvTranspose", "MaxPool", "AveragePool", "LpPool", "GlobalAveragePool",
               "GlobalMaxPool", "GlobalLpPool"]:
        assert op in ops
    t = testing()
    assert t.dtype_size(0) == 4 and t.dtype_size(1) == 2 and t.dtype_size(9) == 8
    assert t.dtype_size(999) == 0


@pytest.mark.parametrize("isa", ["scalar", "avx2"])
def test_portable_and_avx2_paths(isa):
    """The same ops on the capped ISA (micro-kernels + epilogues), in a fresh process."""
    code = textwrap.dedent("""
        import numpy as np
        from kernel_harness import ACTIVATIONS, activation, activation_attrs, assert_close_accum, conv_ref, randn, run_op
        rng = np.random.default_rng(0)
        for m, k, n in [(1, 1, 1), (7, 300, 29), (61, 70, 50)]:
            a, b = randn(rng, (m, k)), randn(rng, (k, n))
            for act in ACTIVATIONS:
                (y,) = run_op("MatMul", [a, b], [(m, n)], [np.float32], activation_attrs(act))
                assert_close_accum(y, activation(a.astype(np.float64) @ b, act), np.float32, k)
        for m in (2, 37):  # few-row and packed paths, transposed B panels
            a, b, c = randn(rng, (m, 75)), randn(rng, (41, 75)), randn(rng, (41,))
            (y,) = run_op("Gemm", [a, b, c], [(m, 41)], [np.float32], {"transB": 1})
            assert_close_accum(y, a.astype(np.float64) @ b.T + c, np.float32, 75)
        x, w, bias = randn(rng, (1, 5, 9, 11)), randn(rng, (6, 5, 3, 3)), randn(rng, (6,))
        want = conv_ref(x, w, bias, pads=[1, 1, 1, 1])
        (y,) = run_op("Conv", [x, w, bias], [want.shape], [np.float32], {"pads": [1, 1, 1, 1]})
        assert_close_accum(y, want, np.float32, 45)
        x, w = randn(rng, (1, 4, 9, 11)), randn(rng, (4, 1, 3, 3))
        want = conv_ref(x, w, None, pads=[1, 1, 1, 1], group=4)
        (y,) = run_op("Conv", [x, w], [want.shape], [np.float32], {"pads": [1, 1, 1, 1], "group": 4})
        assert_close_accum(y, want, np.float32, 9)
        print("ok")
    """)
    env = dict(os.environ, ACL_SIM_KERNEL_ISA=isa)
    env["PYTHONPATH"] = os.pathsep.join([os.path.dirname(__file__), env.get("PYTHONPATH", "")])
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "ok" in r.stdout, r.stderr


@pytest.mark.parametrize("m", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("tb", [0, 1])
def test_gemm_few_rows_fc_layer(m, tb):
    """Batch-1..5 fully connected layers (the few-row path and its hand-over to the packed path)."""
    rng = np.random.default_rng(m + 10 * tb)
    k, n = 1027, 1001
    a = randn(rng, (m, k))
    b = randn(rng, (n, k) if tb else (k, n))
    c = randn(rng, (n,))
    (y,) = run_op("Gemm", [a, b, c], [(m, n)], [np.float32], {"transB": tb, "alpha": 0.5, "activation": "Relu"})
    want = activation(0.5 * matmul_ref(a, b.T if tb else b) + c, "Relu")
    assert_close_accum(y, want, np.float32, k)
