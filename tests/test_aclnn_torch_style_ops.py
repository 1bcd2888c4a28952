"""The aclnn operators ggml-cann declares but never calls (torch_npu-style): Addcdiv, Embedding, Ger,
InplaceMaskedFillScalar, Scatter, through the C API (ctypes) on strided, offset, broadcast and
mixed-dtype views, against NumPy references; and the codes of rejected arguments."""
import ctypes as C

import numpy as np
import pytest

from aclnn_ctypes import close

rng = np.random.default_rng(12)
PARAM_INVALID = 161002
PARAM_NULLPTR = 161001


def test_addcdiv_broadcast_strided_mixed(nn):
    s = nn.dev(rng.standard_normal((3, 1)).astype(np.float32))
    t1 = nn.dev(rng.standard_normal((4, 3)).astype(np.float16))   # used transposed: [3, 4], strides (1, 3)
    t2 = nn.dev((rng.random(4) + 0.5).astype(np.float32))          # broadcast along dim 0
    big = nn.dev(np.zeros((3, 9), np.float32))
    ov = big.host[:, 1:9:2]                                        # [3, 4], strides (9, 2), offset 1
    nn.run("Addcdiv", s.t(), t1.t(t1.host.T), t2.t(), nn.scalar(0.5), big.t(ov))
    want = s.host.astype(np.float64) + 0.5 * t1.host.T.astype(np.float64) / t2.host
    got = big.read()
    close(got[:, 1:9:2], want, 2e-3)
    assert np.all(got[:, ::2] == 0)  # the gaps of the strided out stay untouched
    # float16 out: rounded once
    o16 = nn.dev(np.zeros((3, 4), np.float16))
    nn.run("Addcdiv", s.t(), t1.t(t1.host.T), t2.t(), nn.scalar(-2.0), o16.t())
    close(o16.read(), s.host.astype(np.float64) - 2.0 * t1.host.T.astype(np.float64) / t2.host, 1e-2)


def test_addcdiv_rejects(nn):
    f = nn.dev(np.ones((3, 4), np.float32))
    i = nn.dev(np.ones((3, 4), np.int32))
    wrong = nn.dev(np.zeros((4, 3), np.float32))
    assert nn.call("Addcdiv", f.t(), i.t(), f.t(), nn.scalar(1.0), f.t()) == PARAM_INVALID
    assert "tensor1" in nn.err()
    assert nn.call("Addcdiv", f.t(), f.t(), f.t(), nn.scalar(1.0), wrong.t()) == PARAM_INVALID
    assert nn.call("Addcdiv", f.t(), None, f.t(), nn.scalar(1.0), f.t()) == PARAM_NULLPTR


def test_embedding_strided_weight_any_index_rank(nn):
    w = nn.dev(rng.standard_normal((10, 8)).astype(np.float16))
    wv = w.host[:, 1::2]                                           # [10, 4], strides (8, 2), offset 1
    idx = nn.dev(np.array([[3, 0, 9], [9, 3, 1]], np.int64))
    out = nn.dev(np.zeros((2, 3, 4), np.float16))
    nn.run("Embedding", w.t(wv), idx.t(), out.t())
    np.testing.assert_array_equal(out.read(), wv[idx.host])
    idx32 = nn.dev(np.array([7], np.int32))
    one = nn.dev(np.zeros((1, 4), np.float16))
    nn.run("Embedding", w.t(wv), idx32.t(), one.t())
    np.testing.assert_array_equal(one.read(), wv[[7]])


def test_embedding_rejects(nn):
    w1 = nn.dev(np.zeros(10, np.float32))
    idx = nn.dev(np.array([1], np.int64))
    out = nn.dev(np.zeros((1,), np.float32))
    assert nn.call("Embedding", w1.t(), idx.t(), out.t()) == PARAM_INVALID
    assert "2-D" in nn.err()
    w = nn.dev(np.zeros((10, 4), np.float32))
    bad_out = nn.dev(np.zeros((2, 4), np.float32))
    assert nn.call("Embedding", w.t(), idx.t(), bad_out.t()) == PARAM_INVALID
    fidx = nn.dev(np.array([1.0], np.float32))
    o = nn.dev(np.zeros((1, 4), np.float32))
    assert nn.call("Embedding", w.t(), fidx.t(), o.t()) == PARAM_INVALID
    far = nn.dev(np.array([10], np.int64))
    assert nn.call("Embedding", w.t(), far.t(), o.t()) != 0   # found when the task runs


def test_ger_strided_and_promoted(nn):
    a = nn.dev(rng.standard_normal(10).astype(np.float32))
    b = nn.dev(rng.standard_normal(3).astype(np.float16))
    out = nn.dev(np.zeros((3, 5), np.float32))
    nn.run("Ger", a.t(a.host[::2]), b.t(), out.t(out.host.T))      # out written transposed: [5, 3] strides (1, 5)
    close(out.read().T, np.outer(a.host[::2].astype(np.float64), b.host.astype(np.float64)), 1e-3)
    ia = nn.dev(np.array([1, -2, 3], np.int32))
    ib = nn.dev(np.array([4, 5], np.int64))
    io = nn.dev(np.zeros((3, 2), np.int64))
    nn.run("Ger", ia.t(), ib.t(), io.t())
    np.testing.assert_array_equal(io.read(), np.outer(ia.host, ib.host))


def test_ger_rejects(nn):
    m = nn.dev(np.zeros((2, 2), np.float32))
    v = nn.dev(np.zeros(2, np.float32))
    o = nn.dev(np.zeros((2, 2), np.float32))
    assert nn.call("Ger", m.t(), v.t(), o.t()) == PARAM_INVALID
    assert "1-D" in nn.err()
    o3 = nn.dev(np.zeros((2, 3), np.float32))
    assert nn.call("Ger", v.t(), v.t(), o3.t()) == PARAM_INVALID


def test_masked_fill_broadcast_strided(nn):
    x = nn.dev(rng.standard_normal((4, 5)).astype(np.float32))
    xv = x.host.T                                                  # [5, 4], strides (1, 5)
    mask = nn.dev(np.array([True, False, False, True]))            # broadcast over the 5 rows
    nn.run("InplaceMaskedFillScalar", x.t(xv), mask.t(), nn.scalar(-1e4))
    want = np.where(mask.host[None, :], -1e4, xv)
    close(x.read().T, want)
    bf = nn.dev(np.arange(12, dtype=np.int32).reshape(3, 4))
    m8 = nn.dev((np.arange(12).reshape(3, 4) % 3 == 0).astype(np.uint8) * 7)   # nonzero uint8 counts as true
    nn.run("InplaceMaskedFillScalar", bf.t(), m8.t(), nn.scalar(-5, np.int32))
    np.testing.assert_array_equal(bf.read(), np.where(m8.host != 0, -5, bf.host))
    h = nn.dev(np.ones(6, np.float16))
    hm = nn.dev(np.array([0, 1, 0, 1, 0, 1], np.bool_))
    nn.run("InplaceMaskedFillScalar", h.t(h.host[1:4]), hm.t(hm.host[3:6]), nn.scalar(2.5))  # offsets on both
    np.testing.assert_array_equal(h.read(), np.array([1, 2.5, 1, 2.5, 1, 1], np.float16))


def test_masked_fill_rejects(nn):
    x = nn.dev(np.zeros((2, 3), np.float32))
    fm = nn.dev(np.zeros((2, 3), np.float32))
    bm = nn.dev(np.zeros((2,), np.bool_))
    assert nn.call("InplaceMaskedFillScalar", x.t(), fm.t(), nn.scalar(1.0)) == PARAM_INVALID
    assert "mask" in nn.err()
    assert nn.call("InplaceMaskedFillScalar", x.t(), bm.t(), nn.scalar(1.0)) == PARAM_INVALID
    assert "broadcast" in nn.err()


def scatter_ref(self, dim, index, src, reduce):
    out = self.astype(np.float64).copy()
    for pos in np.ndindex(*index.shape):
        tgt = list(pos)
        tgt[dim] = index[pos]
        tgt = tuple(tgt)
        if reduce == 0:
            out[tgt] = src[pos]
        elif reduce == 1:
            out[tgt] += src[pos]
        else:
            out[tgt] *= src[pos]
    return out


@pytest.mark.parametrize("reduce", [0, 1, 2])
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_scatter_src_larger_than_index(nn, reduce, dim):
    self_ = rng.standard_normal((3, 4)).astype(np.float32)
    s = nn.dev(self_)
    d = dim % 2
    idx_np = np.array([[0, 2, 1], [2, 0, 0]] if d == 0 else [[0, 3, 1], [2, 2, 0]], np.int64)  # repeats: add/mul
    idx = nn.dev(idx_np)
    src = nn.dev(rng.standard_normal((2, 5)).astype(np.float32))  # larger than index in dim 1: its corner is used
    out = nn.dev(np.zeros((3, 4), np.float32))
    nn.run("Scatter", s.t(), C.c_int64(dim), idx.t(), src.t(), C.c_int64(reduce), out.t())
    # with reduce 0 a repeated target (row 1 of the dim-1 index) keeps the last value, as the reference does
    close(out.read(), scatter_ref(self_, d, idx_np, src.host[:2, :3], reduce))
    np.testing.assert_array_equal(s.read(), self_)  # self is an input only


def test_scatter_strided_int_and_out_is_self(nn):
    base = np.arange(20, dtype=np.int32).reshape(4, 5)
    s = nn.dev(base)
    sv = s.host[::2, 1:]                                           # [2, 4], strides (10, 1), offset 1
    idx = nn.dev(np.array([[3], [0]], np.int32))
    src = nn.dev(np.array([[100, 200], [300, 400]], np.int32))
    nn.run("Scatter", s.t(sv), C.c_int64(1), idx.t(), src.t(), C.c_int64(1), s.t(sv))  # out is self
    want = base.copy()
    want[0, 1 + 3] += 100
    want[2, 1 + 0] += 300
    np.testing.assert_array_equal(s.read(), want)
    h = nn.dev(np.ones((2, 3), np.float16))
    hi = nn.dev(np.array([[1, 0, 1]], np.int64))
    hs = nn.dev(np.full((1, 3), 4, np.float16))
    ho = nn.dev(np.zeros((2, 3), np.float16))
    nn.run("Scatter", h.t(), C.c_int64(0), hi.t(), hs.t(), C.c_int64(2), ho.t())
    np.testing.assert_array_equal(ho.read(), np.array([[1, 4, 1], [4, 1, 4]], np.float16))


def test_scatter_rejects(nn):
    s = nn.dev(np.zeros((3, 4), np.float32))
    idx = nn.dev(np.zeros((2, 3), np.int64))
    src = nn.dev(np.zeros((2, 3), np.float32))
    src16 = nn.dev(np.zeros((2, 3), np.float16))
    out = nn.dev(np.zeros((3, 4), np.float32))

    def call(*a):
        return nn.call("Scatter", *a)

    assert call(s.t(), C.c_int64(0), idx.t(), src16.t(), C.c_int64(0), out.t()) == PARAM_INVALID
    assert "dtypes differ" in nn.err()
    assert call(s.t(), C.c_int64(2), idx.t(), src.t(), C.c_int64(0), out.t()) == PARAM_INVALID
    assert call(s.t(), C.c_int64(0), idx.t(), src.t(), C.c_int64(3), out.t()) == PARAM_INVALID
    assert "reduce" in nn.err()
    big_idx = nn.dev(np.zeros((2, 5), np.int64))
    assert call(s.t(), C.c_int64(0), big_idx.t(), src.t(), C.c_int64(0), out.t()) == PARAM_INVALID
    flat = nn.dev(np.zeros(3, np.int64))
    assert call(s.t(), C.c_int64(0), flat.t(), src.t(), C.c_int64(0), out.t()) == PARAM_INVALID
    assert "rank" in nn.err()
    far = nn.dev(np.full((2, 3), 7, np.int64))
    assert call(s.t(), C.c_int64(0), far.t(), src.t(), C.c_int64(0), out.t()) != 0   # found when the task runs
    assert call(s.t(), C.c_int64(0), None, src.t(), C.c_int64(0), out.t()) == PARAM_NULLPTR
