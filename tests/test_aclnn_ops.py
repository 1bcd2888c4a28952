"""aclnn operators through the C API (ctypes) on strided, offset, mixed-dtype views, against NumPy
references computed in float64."""
import ctypes as C

import numpy as np
import pytest

from aclnn_ctypes import close

rng = np.random.default_rng(7)


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


def test_cast_copy_permute_slice_strided(nn):
    src = nn.dev(rng.standard_normal((3, 4, 5)).astype(np.float32))
    dst = nn.dev(np.zeros((5, 4, 3), np.float16))
    nn.run("Cast", src.t(src.host.transpose(2, 1, 0)), C.c_int(1), dst.t())
    close(dst.read(), src.host.transpose(2, 1, 0), 1e-3)
    # InplaceCopy broadcasts src into a strided destination view (every other column).
    row = nn.dev(np.arange(4, dtype=np.float32))
    big = nn.dev(np.zeros((3, 8), np.float32))
    nn.run("InplaceCopy", big.t(big.host[:, ::2]), row.t())
    want = np.zeros((3, 8))
    want[:, ::2] = np.arange(4)
    close(big.read(), want)
    out = nn.dev(np.zeros((3, 2, 5), np.float32))
    nn.run("Slice", src.t(), C.c_int64(1), C.c_int64(1), C.c_int64(4), C.c_int64(2), out.t())
    close(out.read(), src.host[:, 1:4:2])
    p = nn.dev(np.zeros((5, 3, 4), np.float32))
    nn.run("Permute", src.t(), nn.ints([2, 0, 1]), p.t())
    close(p.read(), src.host.transpose(2, 0, 1))


def test_repeat_interleave_cat_pad(nn):
    x = nn.dev(rng.standard_normal((2, 3)).astype(np.float32))
    r = nn.dev(np.zeros((1, 4, 6), np.float32))
    nn.run("Repeat", x.t(), nn.ints([1, 2, 2]), r.t())
    close(r.read(), np.tile(x.host, (1, 2, 2)))
    ri = nn.dev(np.zeros((2, 6), np.float32))
    nn.run("RepeatInterleaveIntWithDim", x.t(), C.c_int64(2), C.c_int64(1), C.c_int64(6), ri.t())
    close(ri.read(), np.repeat(x.host, 2, axis=1))
    y = nn.dev(rng.standard_normal((2, 2)).astype(np.float32))
    cat = nn.dev(np.zeros((2, 5), np.float32))
    nn.run("Cat", nn.tensor_list([x.t(), y.t()]), C.c_int64(-1), cat.t())
    close(cat.read(), np.concatenate([x.host, y.host], axis=1))
    pad = nn.dev(np.zeros((4, 4), np.float32))
    nn.run("ConstantPadNd", x.t(), nn.ints([0, 1, 1, 1]), nn.scalar(-2.0), pad.t())
    close(pad.read(), np.pad(x.host, ((1, 1), (0, 1)), constant_values=-2))
    refl = nn.dev(np.zeros((2, 5), np.float32))
    nn.run("ReflectionPad1d", x.t(), nn.ints([1, 1]), refl.t())
    close(refl.read(), np.pad(x.host, ((0, 0), (1, 1)), mode="reflect"))


def test_gather_index_select_index_copy(nn):
    table = nn.dev(rng.standard_normal((10, 4)).astype(np.float32))
    idx = nn.dev(np.array([[3, 0], [9, 3]], np.int32))
    out = nn.dev(np.zeros((2, 2, 4), np.float32))
    nn.run("GatherV2", table.t(), C.c_int64(0), idx.t(), out.t())
    close(out.read(), table.host[idx.host])
    idx1 = nn.dev(np.array([2, 1], np.int64))
    sel = nn.dev(np.zeros((10, 2), np.float32))
    nn.run("IndexSelect", table.t(), C.c_int64(1), idx1.t(), sel.t())
    close(sel.read(), table.host[:, [2, 1]])
    rows = nn.dev(rng.standard_normal((2, 4)).astype(np.float32))
    nn.run("InplaceIndexCopy", table.t(), C.c_int64(0), idx1.t(), rows.t())
    want = table.host.copy()
    want[[2, 1]] = rows.host
    close(table.read(), want)
    bad = nn.dev(np.array([11], np.int64))
    one = nn.dev(np.zeros((1, 4), np.float32))
    assert nn.call("InplaceIndexCopy", table.t(), C.c_int64(0), bad.t(), one.t()) != 0


def test_reduce_argsort_cumsum_argmax(nn):
    x = nn.dev(rng.standard_normal((3, 7)).astype(np.float16))
    s = nn.dev(np.zeros((3, 1), np.float32))
    nn.run("ReduceSum", x.t(), nn.ints([1]), C.c_bool(True), C.c_int(0), s.t())
    close(s.read(), x.host.astype(np.float64).sum(1, keepdims=True), 1e-3)
    m = nn.dev(np.zeros((7,), np.float32))
    nn.run("Mean", x.t(), nn.ints([0]), C.c_bool(False), C.c_int(0), m.t())
    close(m.read(), x.host.astype(np.float64).mean(0), 1e-3)
    a = nn.dev(np.zeros((3, 7), np.int32))
    nn.run("Argsort", x.t(), C.c_int64(-1), C.c_bool(True), a.t())
    np.testing.assert_array_equal(a.read(), np.argsort(-x.host.astype(np.float64), axis=1, kind="stable"))
    cs = nn.dev(np.zeros((3, 7), np.float32))
    nn.run("Cumsum", x.t(), C.c_int64(1), C.c_int(0), cs.t())
    close(cs.read(), np.cumsum(x.host.astype(np.float64), 1), 1e-3)
    am = nn.dev(np.zeros((3,), np.int64))
    nn.run("ArgMax", x.t(), C.c_int64(1), C.c_bool(False), am.t())
    np.testing.assert_array_equal(am.read(), np.argmax(x.host, 1))


def test_softmax_rms_norm(nn):
    x = nn.dev(rng.standard_normal((2, 3, 8)).astype(np.float32))
    o = nn.dev(np.zeros((2, 3, 8), np.float16))
    nn.run("Softmax", x.t(), C.c_int64(-1), o.t())
    e = np.exp(x.host.astype(np.float64) - x.host.max(-1, keepdims=True))
    close(o.read(), e / e.sum(-1, keepdims=True), 1e-3)
    g = nn.dev(rng.standard_normal(8).astype(np.float32))
    y = nn.dev(np.zeros((2, 3, 8), np.float32))
    rstd = nn.dev(np.zeros((2, 3), np.float32))
    nn.run("RmsNorm", x.t(), g.t(), C.c_double(1e-6), y.t(), rstd.t())
    xd = x.host.astype(np.float64)
    r = 1 / np.sqrt((xd ** 2).mean(-1) + 1e-6)
    close(y.read(), xd * r[..., None] * g.host, 1e-5)
    close(rstd.read(), r, 1e-5)


@pytest.mark.parametrize("mode", [0, 1])
def test_rotary_position_embedding(nn, mode):
    B, S, N, D = 1, 3, 2, 8
    base = rng.standard_normal((B, N, S, D)).astype(np.float32)
    x = nn.dev(base)
    xv = base.transpose(0, 2, 1, 3)  # BSND view of a BNSD buffer
    theta = rng.standard_normal((1, S, 1, D // 2))
    full = np.concatenate([theta, theta], -1) if mode == 0 else np.repeat(theta, 2, -1)
    cos = nn.dev(np.cos(full).astype(np.float32))
    sin = nn.dev(np.sin(full).astype(np.float32))
    y = nn.dev(np.zeros((B, S, N, D), np.float32))
    nn.run("RotaryPositionEmbedding", x.t(xv), cos.t(), sin.t(), C.c_int64(mode), y.t())
    xd = xv.astype(np.float64)
    if mode == 0:
        rot = np.concatenate([-xd[..., D // 2:], xd[..., :D // 2]], -1)
    else:
        rot = np.stack([-xd[..., 1::2], xd[..., 0::2]], -1).reshape(xd.shape)
    close(y.read(), xd * np.cos(full) + rot * np.sin(full), 1e-5)


def test_fused_infer_attention_gqa_pse(nn):
    B, S, Skv, N, Nkv, D = 2, 3, 5, 4, 2, 8
    q = nn.dev(rng.standard_normal((B, S, N, D)).astype(np.float16))
    k = nn.dev(rng.standard_normal((B, Skv, Nkv, D)).astype(np.float16))
    v = nn.dev(rng.standard_normal((B, Skv, Nkv, D)).astype(np.float16))
    mask = rng.standard_normal((B, 1, S, Skv)).astype(np.float16)
    mask[:, :, 0, -1] = -np.inf
    pse = nn.dev(mask)
    pse_t = nn.tensor(pse, shape=[B, N, S, Skv], strides=[S * Skv, 0, Skv, 1], offset=0)  # heads share, stride 0
    out = nn.dev(np.zeros((B, S, N, D), np.float16))
    scale = 1 / np.sqrt(D)
    kl, vl = nn.tensor_list([k.t()]), nn.tensor_list([v.t()])
    layout = C.create_string_buffer(b"BSND")
    nulls = [None] * 19
    nn.run("FusedInferAttentionScoreV2", q.t(), kl, vl, pse_t, None, *nulls, C.c_int64(N), C.c_double(scale),
           C.c_int64(65535), C.c_int64(65535), layout, C.c_int64(Nkv), C.c_int64(0), C.c_int64(2), C.c_int64(0),
           C.c_int64(0), C.c_bool(False), C.c_int64(0), C.c_int64(0), out.t(), None)
    qd, kd, vd = (a.host.astype(np.float64) for a in (q, k, v))
    want = np.zeros((B, S, N, D))
    for b in range(B):
        for h in range(N):
            s = scale * qd[b, :, h] @ kd[b, :, h // 2].T + mask[b, 0].astype(np.float64)
            p = np.exp(s - s.max(-1, keepdims=True))
            p /= p.sum(-1, keepdims=True)
            want[b, :, h] = p @ vd[b, :, h // 2]
    close(out.read(), want, 5e-3)


def test_triangular_solve_and_im2col(nn):
    a = np.tril(rng.standard_normal((2, 4, 4))) + 4 * np.eye(4)
    A = nn.dev(a.astype(np.float32))
    B = nn.dev(rng.standard_normal((2, 4, 3)).astype(np.float32))
    X = nn.dev(np.zeros((2, 4, 3), np.float32))
    M = nn.dev(np.zeros((2, 4, 4), np.float32))
    nn.run("TriangularSolve", B.t(), A.t(), C.c_bool(False), C.c_bool(False), C.c_bool(False), X.t(), M.t())
    close(X.read(), np.linalg.solve(a, B.host.astype(np.float64)), 1e-4)
    x = nn.dev(rng.standard_normal((1, 2, 5, 6)).astype(np.float32))
    out = nn.dev(np.zeros((1, 2 * 3 * 2, 3 * 3), np.float32))
    nn.run("Im2col", x.t(), nn.ints([3, 2]), nn.ints([1, 1]), nn.ints([1, 0]), nn.ints([2, 2]), out.t())
    xp = np.pad(x.host.astype(np.float64), ((0, 0), (0, 0), (1, 1), (0, 0)))
    want = np.zeros((1, 12, 9))
    for c in range(2):
        for i in range(3):
            for j in range(2):
                for oh in range(3):
                    for ow in range(3):
                        want[0, c * 6 + i * 2 + j, oh * 3 + ow] = xp[0, c, oh * 2 + i, ow * 2 + j]
    close(out.read(), want)
