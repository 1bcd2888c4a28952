"""Kernels added for the ONNX node-suite coverage (issue 15) against float64 NumPy references:
ReverseSequence, TensorScatter, Det, Col2Im, TfIdfVectorizer, MaxPool on 8-bit integers and
LpPool with dilations. Seeded random data, shapes past one pool block where it matters."""
import itertools

import numpy as np
import pytest

from kernel_harness import BF16, assert_close, expect_error, rand, run

ids = lambda d: np.dtype(d).name  # noqa: E731


# ---------------------------------------------------------------- ReverseSequence

def _reverse_sequence_ref(x, lens, batch_axis, time_axis):
    y = x.copy()
    for b, n in enumerate(lens):
        src = [slice(None)] * x.ndim
        src[batch_axis] = b
        src[time_axis] = slice(0, n)
        dst = list(src)
        y[tuple(dst)] = np.flip(x[tuple(src)], axis=time_axis - (batch_axis < time_axis))
    return y


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int64, np.int8] + ([BF16] if BF16 else []), ids=ids)
def test_reverse_sequence(dtype):
    rng = np.random.default_rng(11)
    for shape, batch_axis, time_axis in [((5, 4), 1, 0), ((4, 5), 0, 1), ((3, 7, 6), 0, 2), ((6, 2, 3, 5), 2, 0),
                                         ((40, 33, 64), 1, 0)]:
        x = rand(rng, shape, dtype)
        lens = rng.integers(0, shape[time_axis] + 1, size=shape[batch_axis]).astype(np.int64)
        got = run("ReverseSequence", [x, lens], shape, dtype, batch_axis=batch_axis, time_axis=time_axis)
        np.testing.assert_array_equal(got, _reverse_sequence_ref(x, lens, batch_axis, time_axis))
    expect_error(lambda: run("ReverseSequence", [x, lens[:1]], shape, dtype, batch_axis=1, time_axis=0), 100021)
    bad = lens.copy()
    bad[0] = shape[0] + 1
    expect_error(lambda: run("ReverseSequence", [x, bad], shape, dtype, batch_axis=1, time_axis=0), 100021)


# ---------------------------------------------------------------- TensorScatter

@pytest.mark.parametrize("mode", ["linear", "circular"])
def test_tensor_scatter(mode):
    rng = np.random.default_rng(12)
    for past_shape, seq, axis in [((2, 3, 8, 5), 3, -2), ((3, 8, 4), 2, 1), ((2, 6, 3, 4), 4, 1), ((4, 64, 128), 5, 1)]:
        past = rng.standard_normal(past_shape).astype(np.float32)
        ax = axis % len(past_shape)
        upd_shape = list(past_shape)
        upd_shape[ax] = seq
        update = rng.standard_normal(upd_shape).astype(np.float32)
        hi = past_shape[ax] - seq + 1 if mode == "linear" else past_shape[ax] * 2
        idx = rng.integers(0, hi, size=past_shape[0]).astype(np.int64)
        want = past.copy()
        for prefix in np.ndindex(*past_shape[:ax]):
            for s in range(seq):
                t = idx[prefix[0]] + s
                if mode == "circular":
                    t %= past_shape[ax]
                want[prefix + (t,)] = update[prefix + (s,)]
        got = run("TensorScatter", [past, update, idx], past_shape, np.float32, axis=axis, mode=mode)
        np.testing.assert_array_equal(got, want)
    # write_indices absent: from step 0.
    got = run("TensorScatter", [past, update], past_shape, np.float32, axis=axis, mode=mode)
    want = past.copy()
    want[:, :seq] = update
    np.testing.assert_array_equal(got, want)
    if mode == "linear":
        idx[0] = past_shape[1]
        expect_error(lambda: run("TensorScatter", [past, update, idx], past_shape, np.float32, axis=1), 100021)


# ---------------------------------------------------------------- Det

@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16], ids=ids)
def test_det(dtype):
    rng = np.random.default_rng(13)
    for shape in [(2, 2), (3, 3), (4, 1, 1), (5, 2, 6, 6), (300, 3, 3), (2, 17, 17)]:
        x = rng.uniform(-1, 1, size=shape).astype(dtype)
        want = np.linalg.det(x.astype(np.float64))
        got = run("Det", [x], shape[:-2], dtype)
        scale = 1.0 if dtype != np.float16 else 4.0
        assert_close(got, want, dtype, scale=scale * max(1.0, np.abs(want).max()))
    singular = np.array([[1, 2], [2, 4]], dtype=dtype)
    assert run("Det", [singular], (), dtype) == 0
    expect_error(lambda: run("Det", [np.zeros((2, 3), dtype)], (), dtype), 100021)


# ---------------------------------------------------------------- Col2Im

def _col2im_ref(x, image, block, strides, dilations, pads):
    n_dims = len(image)
    nb = [(image[a] + pads[a] + pads[a + n_dims] - dilations[a] * (block[a] - 1) - 1) // strides[a] + 1
          for a in range(n_dims)]
    N, CK, L = x.shape
    K = int(np.prod(block))
    C = CK // K
    out = np.zeros((N, C) + tuple(image), dtype=np.float64)
    xv = x.astype(np.float64).reshape(N, C, K, L)
    for k, koff in enumerate(itertools.product(*[range(b) for b in block])):
        for l, bco in enumerate(itertools.product(*[range(b) for b in nb])):
            pos = [bco[a] * strides[a] - pads[a] + koff[a] * dilations[a] for a in range(n_dims)]
            if all(0 <= p < image[a] for a, p in enumerate(pos)):
                out[(slice(None), slice(None)) + tuple(pos)] += xv[:, :, k, l]
    return out


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16], ids=ids)
def test_col2im(dtype):
    rng = np.random.default_rng(14)
    cases = [((5, 5), (1, 5), (1, 1), (1, 1), (0, 0, 0, 0)),
             ((5, 5), (3, 3), (2, 2), (1, 1), (0, 0, 0, 0)),
             ((5, 5), (1, 5), (1, 1), (1, 1), (0, 1, 0, 1)),
             ((6, 6), (2, 2), (1, 1), (1, 5), (0, 0, 0, 0)),
             ((9, 11), (3, 2), (2, 3), (2, 1), (1, 2, 0, 1)),
             ((3, 4, 5), (1, 1, 1), (1, 1, 1), (1, 1, 1), (0,) * 6),
             ((4, 5, 6), (2, 3, 2), (1, 2, 2), (1, 1, 2), (1, 0, 1, 0, 1, 1)),
             ((7,), (3,), (2,), (1,), (1, 1))]
    for image, block, strides, dilations, pads in cases:
        n = len(image)
        nb = [(image[a] + pads[a] + pads[a + n] - dilations[a] * (block[a] - 1) - 1) // strides[a] + 1
              for a in range(n)]
        N, C = 2, 3
        x = rng.uniform(-1, 1, size=(N, C * int(np.prod(block)), int(np.prod(nb)))).astype(dtype)
        want = _col2im_ref(x, image, block, strides, dilations, pads)
        got = run("Col2Im", [x, np.array(image, np.int64), np.array(block, np.int64)], want.shape, dtype,
                  strides=list(strides), dilations=list(dilations), pads=list(pads))
        assert_close(got, want, dtype, scale=4.0)
    expect_error(lambda: run("Col2Im", [x, np.array(image, np.int64), np.array(block, np.int64)], want.shape, dtype),
                 100021)


# ---------------------------------------------------------------- TfIdfVectorizer

def _tfidf_onnx_ref(x, **attrs):
    from onnx import TensorProto, helper
    from onnx.reference import ReferenceEvaluator

    node = helper.make_node("TfIdfVectorizer", ["X"], ["Y"], **attrs)
    g = helper.make_graph([node], "t", [helper.make_tensor_value_info("X", TensorProto.INT64, None)],
                          [helper.make_tensor_value_info("Y", TensorProto.FLOAT, None)])
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 9)])
    return ReferenceEvaluator(model).run(None, {"X": x.astype(np.int64)})[0]


@pytest.mark.parametrize("mode", ["TF", "IDF", "TFIDF"])
def test_tfidf_vectorizer(mode):
    rng = np.random.default_rng(15)
    pool = [2, 3, 5, 4, 5, 6, 7, 8, 6, 7, 3, 3, 2, 9, 9, 9]  # 4 unigrams, 3 bigrams, 2 trigrams
    counts = [0, 4, 10]
    indexes = [0, 1, 2, 3, 4, 5, 6, 7, 8]
    weights = list(rng.uniform(0.5, 2.0, size=9).round(3))
    for shape, (min_n, max_n), skip in itertools.product([(12,), (3, 10), (24, 40)], [(1, 1), (1, 2), (2, 3), (1, 3)],
                                                         [0, 2, 5]):
        attrs = dict(min_gram_length=min_n, max_gram_length=max_n, max_skip_count=skip, mode=mode,
                     ngram_counts=counts, ngram_indexes=indexes, pool_int64s=pool)
        if mode != "TF":
            attrs["weights"] = weights
        for dtype in (np.int32, np.int64):
            x = rng.integers(2, 10, size=shape).astype(dtype)
            want = _tfidf_onnx_ref(x, **attrs)
            got = run("TfIdfVectorizer", [x], want.shape, np.float32, **attrs)
            np.testing.assert_allclose(got, want, rtol=1e-6)
    expect_error(lambda: run("TfIdfVectorizer", [x.astype(np.float32)], want.shape, np.float32, **attrs), 100026)


# ---------------------------------------------------------------- pooling corner cases

@pytest.mark.parametrize("dtype", [np.uint8, np.int8], ids=ids)
def test_max_pool_int8(dtype):
    rng = np.random.default_rng(16)
    x = rand(rng, (2, 3, 9, 11), dtype) if dtype == np.int8 else rng.integers(0, 256, (2, 3, 9, 11)).astype(dtype)
    want = np.full((2, 3, 9, 11), np.iinfo(dtype).min, dtype=np.float64)
    padded = np.full((2, 3, 13, 15), -np.inf)
    padded[:, :, 2:11, 2:13] = x
    want = np.max([padded[:, :, i:i + 9, j:j + 11] for i in range(5) for j in range(5)], axis=0)
    got = run("MaxPool", [x], x.shape, dtype, kernel_shape=[5, 5], pads=[2, 2, 2, 2])
    np.testing.assert_array_equal(got, want.astype(dtype))


def test_lp_pool_dilations():
    rng = np.random.default_rng(17)
    x = rng.standard_normal((2, 3, 10, 9)).astype(np.float32)
    # kernel 2x3, dilations 2x2, strides 1: output (10 - 3) x (9 - 5)
    want = np.zeros((2, 3, 8, 5))
    for i, j in itertools.product(range(8), range(5)):
        win = x[:, :, i:i + 3:2, j:j + 5:2].astype(np.float64)
        want[:, :, i, j] = np.sqrt((win ** 2).sum(axis=(2, 3)))
    got = run("LpPool", [x], want.shape, np.float32, kernel_shape=[2, 3], dilations=[2, 2], p=2)
    assert_close(got, want, np.float32, scale=4.0)


# ---------------------------------------------------------------- DeformConv

def _bilinear_zero(plane, h, w):
    H, W = plane.shape
    h0, w0 = np.floor(h).astype(np.int64), np.floor(w).astype(np.int64)
    lh, lw = h - h0, w - w0
    out = np.zeros(h.shape)
    for dy, dx, wt in ((0, 0, (1 - lh) * (1 - lw)), (0, 1, (1 - lh) * lw), (1, 0, lh * (1 - lw)), (1, 1, lh * lw)):
        y, x = h0 + dy, w0 + dx
        ok = (y >= 0) & (y < H) & (x >= 0) & (x < W)
        out += np.where(ok, wt * plane[np.clip(y, 0, H - 1), np.clip(x, 0, W - 1)], 0.0)
    return out


def _deform_conv_ref(x, w, off, b, mask, strides, pads, dil, group, og):
    N, C, H, W = x.shape
    M, cg, kh, kw = w.shape
    oh, ow = off.shape[2:]
    off = off.astype(np.float64).reshape(N, og, kh, kw, 2, oh, ow)
    mask = np.ones((N, og, kh, kw, oh, ow)) if mask is None else mask.astype(np.float64).reshape(N, og, kh, kw, oh, ow)
    ii, jj = np.meshgrid(np.arange(oh), np.arange(ow), indexing="ij")
    cols = np.zeros((N, C, kh, kw, oh, ow))
    for n, c, ti, tj in itertools.product(range(N), range(C), range(kh), range(kw)):
        o = c // (C // og)
        h = ii * strides[0] - pads[0] + ti * dil[0] + off[n, o, ti, tj, 0]
        v = jj * strides[1] - pads[1] + tj * dil[1] + off[n, o, ti, tj, 1]
        cols[n, c, ti, tj] = _bilinear_zero(x[n, c].astype(np.float64), h, v) * mask[n, o, ti, tj]
    y = np.zeros((N, M, oh, ow))
    mg = M // group
    for gi in range(group):
        wg = w[gi * mg:(gi + 1) * mg].astype(np.float64).reshape(mg, -1)
        cg_cols = cols[:, gi * cg:(gi + 1) * cg].reshape(N, cg * kh * kw, oh * ow)
        y[:, gi * mg:(gi + 1) * mg] = np.einsum("mk,nkp->nmp", wg, cg_cols).reshape(N, mg, oh, ow)
    if b is not None:
        y += b.astype(np.float64).reshape(1, M, 1, 1)
    return y


@pytest.mark.parametrize("dtype", [np.float32, np.float16], ids=ids)
def test_deform_conv(dtype):
    rng = np.random.default_rng(18)
    for (N, C, H, W), (M, kh, kw), strides, pads, dil, group, og, with_bm in [
            ((1, 1, 3, 3), (1, 2, 2), (1, 1), (0, 0, 0, 0), (1, 1), 1, 1, False),
            ((2, 4, 9, 8), (6, 3, 3), (1, 1), (1, 1, 1, 1), (1, 1), 2, 2, True),
            ((1, 3, 12, 10), (5, 3, 2), (2, 1), (1, 0, 1, 0), (2, 1), 1, 3, True),
            ((2, 8, 16, 16), (16, 3, 3), (1, 1), (1, 1, 1, 1), (1, 1), 1, 1, False)]:
        oh = (H + pads[0] + pads[2] - dil[0] * (kh - 1) - 1) // strides[0] + 1
        ow = (W + pads[1] + pads[3] - dil[1] * (kw - 1) - 1) // strides[1] + 1
        x = rng.standard_normal((N, C, H, W)).astype(dtype)
        w = rng.standard_normal((M, C // group, kh, kw)).astype(dtype)
        off = (2.0 * rng.standard_normal((N, og * kh * kw * 2, oh, ow))).astype(dtype)
        b = rng.standard_normal(M).astype(dtype) if with_bm else None
        mask = rng.uniform(0, 1, (N, og * kh * kw, oh, ow)).astype(dtype) if with_bm else None
        want = _deform_conv_ref(x, w, off, b, mask, strides, pads, dil, group, og)
        got = run("DeformConv", [x, w, off, b, mask], want.shape, dtype, strides=list(strides), pads=list(pads),
                  dilations=list(dil), group=group, offset_group=og)
        assert_close(got, want, dtype, scale=20.0)
    expect_error(lambda: run("DeformConv", [x, w, off[:, :2]], want.shape, dtype, pads=list(pads)), 100021)


# ---------------------------------------------------------------- MaxUnpool

@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.float16], ids=ids)
def test_max_unpool_inverts_max_pool(dtype):
    rng = np.random.default_rng(19)
    x = rand(rng, (2, 3, 8, 10), np.float32)
    pooled, idx = run("MaxPool", [x], [(2, 3, 4, 5), (2, 3, 4, 5)], [np.float32, np.int64], kernel_shape=[2, 2],
                      strides=[2, 2])
    vals = pooled.astype(dtype)
    want = np.zeros(x.shape, dtype=np.float64).ravel()
    want[idx.ravel()] = vals.ravel().astype(np.float64)
    got = run("MaxUnpool", [vals, idx], x.shape, dtype, kernel_shape=[2, 2], strides=[2, 2])
    np.testing.assert_array_equal(got, want.reshape(x.shape).astype(dtype))
    # Indices that cross planes (not from MaxPool) still scatter, in order.
    cross = rng.permutation(x.size)[:idx.size].reshape(idx.shape).astype(np.int64)
    want = np.zeros(x.size)
    want[cross.ravel()] = vals.ravel().astype(np.float64)
    got = run("MaxUnpool", [vals, cross], x.shape, dtype, kernel_shape=[2, 2], strides=[2, 2])
    np.testing.assert_array_equal(got, want.reshape(x.shape).astype(dtype))
    cross[0, 0, 0, 0] = x.size
    expect_error(lambda: run("MaxUnpool", [vals, cross], x.shape, dtype, kernel_shape=[2, 2], strides=[2, 2]), 100021)


def test_conv_transpose_output_shape_larger_than_full():
    """output_shape beyond the full result: the result stays at the start, the end is zero."""
    rng = np.random.default_rng(20)
    x = rng.standard_normal((1, 2, 3, 3)).astype(np.float32)
    w = rng.standard_normal((2, 3, 3, 3)).astype(np.float32)
    full = np.zeros((1, 3, 9, 7))
    for i, j in itertools.product(range(3), range(3)):
        full[:, :, i * 3:i * 3 + 3, j * 2:j * 2 + 3] += np.einsum("c,cmhw->mhw", x[0, :, i, j].astype(np.float64), w)
    want = np.zeros((1, 3, 10, 8))
    want[:, :, :9, :7] = full
    got = run("ConvTranspose", [x, w], want.shape, np.float32, strides=[3, 2], output_shape=[10, 8])
    assert_close(got, want, np.float32, scale=10.0)


# ---------------------------------------------------------------- float64 MatMul, integer GEMMs

def test_matmul_float64():
    rng = np.random.default_rng(21)
    for a_shape, b_shape in [((7, 5), (5, 3)), ((2, 3, 33, 70), (70, 41)), ((4, 1, 9, 8), (3, 8, 300)), ((6,), (6,)),
                             ((5,), (2, 5, 4)), ((130, 257), (257, 1100))]:
        a, b = rng.standard_normal(a_shape), rng.standard_normal(b_shape)
        want = np.matmul(a, b)
        got = run("MatMul", [a, b], want.shape, np.float64)
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
    expect_error(lambda: run("MatMul", [a, b.astype(np.float32)], want.shape, np.float64), 100021)


@pytest.mark.parametrize("adt,bdt", [(np.uint8, np.uint8), (np.int8, np.int8), (np.uint8, np.int8)], ids=str)
def test_matmul_integer(adt, bdt):
    rng = np.random.default_rng(22)
    lo = lambda dt: np.iinfo(dt).min  # noqa: E731
    hi = lambda dt: np.iinfo(dt).max  # noqa: E731
    for a_shape, b_shape, per_row, per_col in [((4, 3), (3, 2), False, False), ((37, 300), (300, 45), True, True),
                                               ((2, 5, 6), (6, 7), False, True), ((3, 4, 9), (3, 9, 5), False, False)]:
        a = rng.integers(lo(adt), hi(adt), a_shape, endpoint=True).astype(adt)
        b = rng.integers(lo(bdt), hi(bdt), b_shape, endpoint=True).astype(bdt)
        za = rng.integers(lo(adt), hi(adt), (a_shape[-2],) if per_row else (), endpoint=True).astype(adt)
        zb = rng.integers(lo(bdt), hi(bdt), (b_shape[-1],) if per_col else (), endpoint=True).astype(bdt)
        za_b = za.astype(np.int64)[:, None] if per_row else za.astype(np.int64)
        want = np.matmul(a.astype(np.int64) - za_b, b.astype(np.int64) - zb.astype(np.int64))
        got = run("MatMulInteger", [a, b, za, zb], want.shape, np.int32)
        np.testing.assert_array_equal(got, want.astype(np.int32))
    got = run("MatMulInteger", [a, b], want.shape, np.int32)
    np.testing.assert_array_equal(got, np.matmul(a.astype(np.int64), b.astype(np.int64)).astype(np.int32))
    expect_error(lambda: run("MatMulInteger", [a.astype(np.float32), b], want.shape, np.int32), 100026)


@pytest.mark.parametrize("dt", [np.uint8, np.int8], ids=ids)
def test_conv_integer(dt):
    from kernel_harness import conv_ref

    rng = np.random.default_rng(23)
    info = np.iinfo(dt)
    for x_shape, w_shape, attrs in [((1, 1, 3, 3), (1, 1, 2, 2), {}),
                                    ((2, 4, 9, 8), (6, 2, 3, 3), dict(group=2, pads=[1, 1, 1, 1])),
                                    ((1, 3, 11, 10), (4, 3, 3, 2), dict(strides=[2, 1], dilations=[1, 2],
                                                                        pads=[1, 0, 2, 1])),
                                    ((2, 3, 17), (5, 3, 4), dict(strides=[3], pads=[2, 1])),
                                    ((1, 2, 4, 5, 6), (3, 2, 2, 3, 2), dict(pads=[1, 0, 1, 0, 1, 1]))]:
        x = rng.integers(info.min, info.max, x_shape, endpoint=True).astype(dt)
        w = rng.integers(info.min, info.max, w_shape, endpoint=True).astype(dt)
        xz = np.array(rng.integers(info.min, info.max, endpoint=True), dtype=dt)
        wz = rng.integers(info.min, info.max, (w_shape[0],), endpoint=True).astype(dt)
        nsp = len(x_shape) - 2
        pads = attrs.get("pads", [0] * 2 * nsp)
        want = conv_ref((x.astype(np.float64) - float(xz)),
                        w.astype(np.float64) - wz.astype(np.float64).reshape((-1,) + (1,) * (nsp + 1)),
                        strides=attrs.get("strides"), dilations=attrs.get("dilations"), pads=pads,
                        group=attrs.get("group", 1))
        got = run("ConvInteger", [x, w, xz, wz], want.shape, np.int32, **attrs)
        np.testing.assert_array_equal(got, np.rint(want).astype(np.int32))
    expect_error(lambda: run("ConvInteger", [x, w, np.array([1, 2], dt)], want.shape, np.int32, **attrs), 100021)
