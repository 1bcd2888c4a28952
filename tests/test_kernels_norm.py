"""Normalisation built-in kernels against NumPy: LayerNormalization,
BatchNormalization (inference), InstanceNormalization, GroupNormalization,
MeanVarianceNormalization, LpNormalization."""
import numpy as np
import pytest

from conftest import run_check_in_child
from kernel_harness import FLOATS, assert_close as _assert_close, expect_error, rand, run


def assert_close(got, want, dtype, scale=1.0):
    # Normalisations compute in float32 for every dtype (float64 included; docs/op_coverage.md).
    _assert_close(got, want, np.float32 if np.dtype(dtype) == np.float64 else dtype, scale)


def _layer_norm(x, scale, bias, axis, eps):
    axes = tuple(range(axis % x.ndim, x.ndim))
    mean = x.mean(axis=axes, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=axes, keepdims=True)
    inv = 1 / np.sqrt(var + eps)
    y = (x - mean) * inv * scale
    if bias is not None:
        y = y + bias
    return y, mean, inv


@pytest.mark.parametrize("dtype", FLOATS, ids=lambda d: np.dtype(d).name)
def test_layer_norm(dtype):
    rng = np.random.default_rng(1)
    for shape, axis in [((4, 7), -1), ((2, 3, 768), -1), ((2, 3, 4, 5), 2), ((1, 1), -1), ((3, 20001), 1)]:
        x = rand(rng, shape, dtype)
        nshape = shape[axis % len(shape):]
        scale, bias = rand(rng, nshape, dtype), rand(rng, nshape, dtype)
        want, mean, inv = _layer_norm(x.astype(np.float64), scale.astype(np.float64), bias.astype(np.float64), axis, 1e-5)
        stat_shape = shape[: axis % len(shape)] + (1,) * len(nshape)
        y, m, s = run("LayerNormalization", [x, scale, bias], [shape, stat_shape, stat_shape],
                      [dtype, np.float32, np.float32], axis=axis, epsilon=1e-5)
        assert_close(y, want, dtype, 8.0)
        assert_close(m, mean, dtype, 4.0)
        assert_close(s, inv, dtype, 40.0 if np.dtype(dtype).itemsize == 2 else 4.0)


def test_layer_norm_without_bias_and_broadcast_scale():
    rng = np.random.default_rng(2)
    x = rand(rng, (3, 4, 6), np.float32)
    scale = rand(rng, (1, 6), np.float32)  # broadcasts to the normalised shape [4, 6]
    want, _, _ = _layer_norm(x.astype(np.float64), scale.astype(np.float64), None, 1, 1e-3)
    got = run("LayerNormalization", [x, scale], x.shape, np.float32, axis=1, epsilon=1e-3)
    assert_close(got, want, np.float32, 4.0)


@pytest.mark.parametrize("dtype", FLOATS, ids=lambda d: np.dtype(d).name)
def test_batch_norm(dtype):
    rng = np.random.default_rng(3)
    for shape in [(2, 3, 5, 7), (1, 16, 1, 1), (4, 8), (2, 5, 3000)]:
        c = shape[1]
        x = rand(rng, shape, dtype)
        s, b, m = rand(rng, (c,), dtype), rand(rng, (c,), dtype), rand(rng, (c,), dtype)
        v = rand(rng, (c,), dtype, 0.1, 2.0)
        bshape = (1, c) + (1,) * (len(shape) - 2)
        x64 = x.astype(np.float64)
        r = lambda a: a.astype(np.float64).reshape(bshape)  # noqa: E731
        want = (x64 - r(m)) / np.sqrt(r(v) + 1e-4) * r(s) + r(b)
        got = run("BatchNormalization", [x, s, b, m, v], shape, dtype, epsilon=1e-4)
        assert_close(got, want, dtype, 8.0)
    expect_error(lambda: run("BatchNormalization", [x, s, b, m, v], shape, dtype, training_mode=1), 100023)
    expect_error(lambda: run("BatchNormalization", [x, s[:-1], b, m, v], shape, dtype), 100021)


@pytest.mark.parametrize("dtype", [np.float32, np.float16], ids=lambda d: np.dtype(d).name)
def test_instance_norm(dtype):
    rng = np.random.default_rng(4)
    for shape in [(2, 3, 5, 7), (1, 4, 1000), (3, 2, 1)]:
        x = rand(rng, shape, dtype)
        c = shape[1]
        s, b = rand(rng, (c,), dtype), rand(rng, (c,), dtype)
        x64 = x.astype(np.float64)
        axes = tuple(range(2, len(shape)))
        mean = x64.mean(axis=axes, keepdims=True)
        var = x64.var(axis=axes, keepdims=True)
        bshape = (1, c) + (1,) * (len(shape) - 2)
        want = (x64 - mean) / np.sqrt(var + 1e-5) * s.astype(np.float64).reshape(bshape) + b.astype(np.float64).reshape(bshape)
        assert_close(run("InstanceNormalization", [x, s, b], shape, dtype), want, dtype, 8.0)


@pytest.mark.parametrize("per_group", [False, True])
def test_group_norm(per_group):
    rng = np.random.default_rng(5)
    n, c, h, w, g = 2, 6, 4, 5, 3
    x = rand(rng, (n, c, h, w), np.float32)
    pn = g if per_group else c
    s, b = rand(rng, (pn,), np.float32), rand(rng, (pn,), np.float32)
    xg = x.astype(np.float64).reshape(n, g, -1)
    y = (xg - xg.mean(-1, keepdims=True)) / np.sqrt(xg.var(-1, keepdims=True) + 1e-5)
    y = y.reshape(n, c, h, w)
    sc = np.repeat(s, c // g) if per_group else s
    bc = np.repeat(b, c // g) if per_group else b
    want = y * sc.reshape(1, c, 1, 1) + bc.reshape(1, c, 1, 1)
    assert_close(run("GroupNormalization", [x, s, b], x.shape, np.float32, num_groups=g), want, np.float32, 8.0)
    expect_error(lambda: run("GroupNormalization", [x, s, b], x.shape, np.float32, num_groups=4))


def test_mvn_and_lp_norm():
    rng = np.random.default_rng(6)
    x = rand(rng, (2, 3, 4, 5), np.float32)
    x64 = x.astype(np.float64)
    mean = x64.mean(axis=(0, 2, 3), keepdims=True)
    std = np.sqrt(((x64 - mean) ** 2).mean(axis=(0, 2, 3), keepdims=True))
    assert_close(run("MeanVarianceNormalization", [x], x.shape, np.float32), (x64 - mean) / (std + 1e-9), np.float32, 4)
    for p in (1, 2):
        norm = np.linalg.norm(x64, ord=p, axis=1, keepdims=True)
        assert_close(run("LpNormalization", [x], x.shape, np.float32, axis=1, p=p), x64 / norm, np.float32, 4)


def _lrn_check(size, alpha=1e-2, beta=0.75, bias=2.0, shape=(2, 7, 5, 61)):
    rng = np.random.default_rng(7)
    x = rand(rng, shape, np.float32)
    x64 = x.astype(np.float64)
    c = x.shape[1]
    sq = np.zeros_like(x64)
    for ch in range(c):
        lo, hi = max(0, ch - (size - 1) // 2), min(c - 1, ch + size - 1 - (size - 1) // 2)
        sq[:, ch] = (x64[:, lo:hi + 1] ** 2).sum(axis=1)
    want = x64 / (bias + alpha / size * sq) ** beta
    got = run("LRN", [x], x.shape, np.float32, size=size, alpha=alpha, beta=beta, bias=bias)
    assert_close(got, want, np.float32, 4.0)


@pytest.mark.parametrize("size", [1, 3, 4, 5])
def test_lrn(size):
    _lrn_check(size)


# beta 0.75 / 0.5 / 1 take closed forms, any other beta exp(beta log t); bias <= 0 or alpha < 0 keep libm's pow.
LRN_ATTRS = [dict(beta=0.5), dict(beta=1.0), dict(beta=0.6), dict(beta=2.5, alpha=1e-4, bias=1.0),
             dict(bias=0.5, alpha=-1e-3), dict(shape=(1, 64, 56, 56), alpha=1e-4, bias=1.0)]


def _lrn_attrs_check():
    _lrn_check(5)
    for extra in LRN_ATTRS:
        _lrn_check(5, **extra)


def test_lrn_powers():
    _lrn_attrs_check()


@pytest.mark.parametrize("isa", ["avx2", "scalar"])
def test_lrn_other_isas(isa):
    run_check_in_child("test_kernels_norm", "_lrn_attrs_check()", ACL_SIM_KERNEL_ISA=isa)
