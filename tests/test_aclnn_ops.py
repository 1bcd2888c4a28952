"""aclnn operators through the C API (ctypes) on strided, offset, mixed-dtype views, against NumPy
references computed in float64."""
import ctypes as C

import numpy as np
import pytest

from aclnn_ctypes import ACL_DT, Aclnn

rng = np.random.default_rng(7)


@pytest.fixture
def nn(acl, device):
    n = Aclnn(acl)
    yield n
    n.close()


def close(got, want, tol=1e-5):
    np.testing.assert_allclose(np.asarray(got, np.float64), np.asarray(want, np.float64), rtol=tol, atol=tol)


def test_add_broadcast_strided_mixed_dtypes(nn):
    a = nn.dev(rng.standard_normal((4, 6)).astype(np.float32))
    b = nn.dev(rng.standard_normal((6,)).astype(np.float16))
    out = nn.dev(np.zeros((6, 4), np.float32))
    av = a.host.T  # [6, 4], strides (1, 6)
    ov = out.host[:, :]
    # out = a.T + 0.5 * b[:, None]   (b broadcast along dim 1 with stride 0)
    bt = nn.tensor(b, b.host, shape=[6, 4], strides=[1, 0], offset=0)
    nn.run("Add", a.t(av), bt, nn.scalar(0.5), out.t(ov))
    close(out.read(), av.astype(np.float64) + 0.5 * b.host.astype(np.float64)[:, None], 1e-3)


def test_inplace_mul_and_scalar_ops(nn):
    x = nn.dev(rng.standard_normal((3, 5)).astype(np.float32))
    y = nn.dev(rng.standard_normal((5,)).astype(np.float32))
    want = x.host.astype(np.float64) * y.host
    nn.run("InplaceMul", x.t(), y.t())
    close(x.read(), want)
    nn.run("InplaceMuls", x.t(), nn.scalar(2.0))
    close(x.read(), want * 2)
    nn.run("InplaceAdds", x.t(), nn.scalar(1.0), nn.scalar(3.0))
    close(x.read(), want * 2 + 3)
    out = nn.dev(np.zeros((3, 5), np.float16))
    nn.run("Divs", x.t(), nn.scalar(4.0), out.t())
    close(out.read(), (want * 2 + 3) / 4, 2e-3)


def test_threshold_clamp_fill(nn):
    v = rng.standard_normal(10).astype(np.float32)
    x = nn.dev(v)
    nn.run("InplaceThreshold", x.t(), nn.scalar(0.1), nn.scalar(-7.0))
    close(x.read(), np.where(v > 0.1, v, -7.0))
    nn.run("InplaceClampMax", x.t(), nn.scalar(0.5))
    close(x.read(), np.minimum(np.where(v > 0.1, v, -7.0), 0.5))
    nn.run("InplaceFillScalar", x.t(x.host[::2]), nn.scalar(9.0))
    got = x.read()
    assert np.all(got[::2] == 9.0)
    nn.run("InplaceZero", x.t())
    assert np.all(x.read() == 0)


def test_compare_ops(nn):
    a = nn.dev(np.array([1, 2, 3, 4], np.float32))
    b = nn.dev(np.array([1, 0, 3, 0], np.float32))
    out = nn.dev(np.zeros(4, np.float32))
    nn.run("EqTensor", a.t(), b.t(), out.t())
    close(out.read(), [1, 0, 1, 0])
    nn.run("GtScalar", a.t(), nn.scalar(2.5), out.t())
    close(out.read(), [0, 0, 1, 1])


@pytest.mark.parametrize("wdt", [np.float32, np.float16])
def test_mm_transposed_weight(nn, wdt):
    x = nn.dev(rng.standard_normal((5, 8)).astype(np.float32))
    w = nn.dev(rng.standard_normal((7, 8)).astype(wdt))  # [N, K] storage; mat2 is its [K, N] transpose
    out = nn.dev(np.zeros((5, 7), np.float32))
    nn.run("Mm", x.t(), w.t(w.host.T), out.t(), C.c_int8(2))
    close(out.read(), x.host.astype(np.float64) @ w.host.astype(np.float64).T, 1e-4)


def test_matmul_batch_broadcast_and_strided_out(nn):
    a = nn.dev(rng.standard_normal((2, 3, 4, 6)).astype(np.float32))
    b = nn.dev(rng.standard_normal((3, 6, 5)).astype(np.float16))
    out = nn.dev(np.zeros((2, 3, 5, 4), np.float32))
    ov = out.host.transpose(0, 1, 3, 2)  # [2, 3, 4, 5] view with a non-unit last stride
    nn.run("Matmul", a.t(), b.t(), out.t(ov), C.c_int8(1))
    want = a.host.astype(np.float64) @ b.host.astype(np.float64)
    close(out.read().transpose(0, 1, 3, 2), want, 1e-4)


def test_mv_and_batchmatmul(nn):
    m = nn.dev(rng.standard_normal((4, 3)).astype(np.float32))
    v = nn.dev(rng.standard_normal(3).astype(np.float32))
    o = nn.dev(np.zeros(4, np.float32))
    nn.run("Mv", m.t(), v.t(), o.t(), C.c_int8(0))
    close(o.read(), m.host.astype(np.float64) @ v.host)
    a = nn.dev(rng.standard_normal((2, 3, 4)).astype(np.float16))
    b = nn.dev(rng.standard_normal((2, 4, 5)).astype(np.float16))
    o2 = nn.dev(np.zeros((2, 3, 5), np.float16))
    nn.run("BatchMatMul", a.t(), b.t(), o2.t(), C.c_int8(2))
    close(o2.read(), a.host.astype(np.float64) @ b.host.astype(np.float64), 5e-3)


def test_matmul_rejects_bad_shapes(nn):
    x = nn.dev(np.zeros((2, 3), np.float32))
    out = nn.dev(np.zeros((2, 2), np.float32))
    assert nn.call("Mm", x.t(), x.t(), out.t(), C.c_int8(0)) == 161002
    assert "aclnnMm" in nn.err() and "inner dimensions" in nn.err()


def quantize_q8(w, group=32):
    """ggml Q8_0: per group of 32 along K, scale = amax / 127."""
    n, k = w.shape
    g = w.reshape(n, k // group, group)
    scale = np.abs(g).max(axis=2) / 127.0
    q = np.round(g / np.where(scale == 0, 1, scale)[..., None]).astype(np.int8)
    return q.reshape(n, k), scale.astype(np.float16)


def test_weight_quant_matmul_int8_groups(nn):
    n, k, m = 6, 64, 3
    q, scale = quantize_q8(rng.standard_normal((n, k)).astype(np.float32))
    wq = nn.dev(q)
    sc = nn.dev(scale)  # [N, K/32] storage, passed as its [K/32, N] transpose like ggml
    x = nn.dev(rng.standard_normal((m, k)).astype(np.float16))
    y = nn.dev(np.zeros((m, n), np.float16))
    nn.run("WeightQuantBatchMatmulV2", x.t(), wq.t(wq.host.T), sc.t(sc.host.T), None, None, None, None,
           C.c_int(32), y.t())
    deq = (q.astype(np.float64).reshape(n, k // 32, 32) * scale.astype(np.float64)[..., None]).reshape(n, k)
    close(y.read(), x.host.astype(np.float64) @ deq.T, 2e-2)


def test_weight_quant_matmul_int4(nn):
    n, k, m = 4, 64, 2
    vals = rng.integers(-8, 8, size=(n, k)).astype(np.int8)
    flat = vals.reshape(-1)
    packed = ((flat[0::2] & 0xF) | ((flat[1::2] & 0xF) << 4)).astype(np.uint8)  # low nibble first
    scale = (rng.random((n, k // 32)) + 0.5).astype(np.float16)
    wq = nn.dev(packed)
    sc = nn.dev(scale)
    x = nn.dev(rng.standard_normal((m, k)).astype(np.float16))
    y = nn.dev(np.zeros((m, n), np.float16))
    w_t = nn.tensor(wq, shape=[k, n], strides=[1, k], offset=0, dtype=29)
    nn.run("WeightQuantBatchMatmulV2", x.t(), w_t, sc.t(sc.host.T), None, None, None, None, C.c_int(32), y.t())
    deq = (vals.astype(np.float64).reshape(n, k // 32, 32) * scale.astype(np.float64)[..., None]).reshape(n, k)
    close(y.read(), x.host.astype(np.float64) @ deq.T, 3e-2)
