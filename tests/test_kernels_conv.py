"""Conv / ConvTranspose kernels (direct stride-1, implicit-GEMM, 1x1, depthwise) against NumPy float64."""
import os
import subprocess
import sys

import numpy as np
import pytest

from conftest import run_check_in_child
from kernel_harness import (ACTIVATIONS, BF16, activation, activation_attrs, assert_close_accum, conv_out_shape, conv_ref,
                        conv_transpose_ref, randn, run_op, testing)


@pytest.fixture(autouse=True)
def _no_winograd(monkeypatch):
    """These bounds are the direct sum's (accum_tol); the Winograd path has its own, in test_conv_winograd.py."""
    monkeypatch.setenv("ACL_SIM_CONV_WINOGRAD", "0")


DTYPES = [np.float32, np.float16] + ([BF16] if BF16 is not None else [])

# (X shape, W shape, attrs): resnet/vgg/densenet/PP-OCR-like shapes plus odd edges.
CONV_CASES = [
    ((1, 1, 1, 1), (1, 1, 1, 1), {}),
    ((1, 3, 9, 9), (4, 3, 3, 3), {}),
    ((1, 3, 9, 9), (4, 3, 3, 3), {"pads": [1, 1, 1, 1]}),
    ((2, 8, 13, 11), (6, 4, 3, 3), {"group": 2, "strides": [2, 1], "pads": [1, 0, 2, 1], "dilations": [1, 2]}),
    ((1, 64, 56, 56), (64, 64, 3, 3), {"pads": [1, 1, 1, 1]}),
    ((1, 3, 64, 64), (16, 3, 7, 7), {"strides": [2, 2], "pads": [3, 3, 3, 3]}),
    ((2, 32, 7, 7), (48, 32, 1, 1), {}),
    ((1, 37, 10, 12), (19, 37, 1, 1), {"strides": [2, 2]}),
    ((1, 20, 9, 9), (30, 20, 1, 1), {"pads": [1, 0, 0, 1]}),
    ((1, 512, 7, 7), (64, 512, 3, 3), {"pads": [1, 1, 1, 1]}),
    ((1, 16, 20, 20), (16, 1, 3, 3), {"group": 16, "pads": [1, 1, 1, 1], "strides": [2, 2]}),
    ((2, 16, 21, 19), (16, 1, 5, 5), {"group": 16, "pads": [2, 2, 2, 2]}),
    ((1, 8, 12, 12), (16, 1, 3, 3), {"group": 8, "pads": [2, 2, 2, 2], "dilations": [2, 2]}),
    ((1, 8, 15, 15), (8, 1, 3, 3), {"group": 8, "auto_pad": "SAME_UPPER", "strides": [2, 2]}),
    ((1, 12, 16, 16), (24, 3, 3, 3), {"group": 4, "pads": [1, 1, 1, 1]}),
    ((1, 6, 10, 9), (5, 6, 4, 3), {"auto_pad": "SAME_LOWER", "strides": [3, 2]}),
    ((1, 6, 10, 9), (5, 6, 4, 3), {"auto_pad": "VALID"}),
    ((1, 3, 10), (5, 3, 3), {"auto_pad": "SAME_UPPER", "strides": [2]}),
    ((2, 4, 17), (6, 2, 5), {"group": 2, "pads": [2, 1], "dilations": [2]}),
    ((1, 4, 5, 6, 7), (3, 4, 2, 3, 2), {"pads": [1, 0, 1, 0, 1, 1]}),
    ((1, 2, 4, 5, 6), (2, 1, 3, 3, 3), {"group": 2, "strides": [2, 2, 2], "pads": [1, 1, 1, 1, 1, 1]}),
    # 1x1 on a 1x1 plane: one GEMM over the batch, W^T read in place (squeeze-excite blocks).
    ((1, 480, 1, 1), (120, 480, 1, 1), {}),
    ((8, 96, 1, 1), (24, 96, 1, 1), {}),
    ((3, 40, 1), (7, 40, 1), {}),
]


def _ref(x, w, b, at):
    return conv_ref(x, w, b, strides=at.get("strides"), dilations=at.get("dilations"), pads=at.get("pads"),
                    group=at.get("group", 1), auto_pad=at.get("auto_pad", "NOTSET"))


@pytest.mark.parametrize("xs,ws,at", CONV_CASES, ids=[f"{c[0]}x{c[1]}" for c in CONV_CASES])
def test_conv_fp32(xs, ws, at):
    rng = np.random.default_rng(sum(xs) + sum(ws))
    x, w, b = randn(rng, xs), randn(rng, ws), randn(rng, (ws[0],))
    want = _ref(x, w, b, at)
    (y,) = run_op("Conv", [x, w, b], [want.shape], [np.float32], at)
    assert_close_accum(y, want, np.float32, int(np.prod(ws[1:])))
    # The bias is optional.
    (y,) = run_op("Conv", [x, w], [want.shape], [np.float32], at)
    assert_close_accum(y, _ref(x, w, None, at), np.float32, int(np.prod(ws[1:])))


def test_conv_batch_and_kernel_shape_attr():
    rng = np.random.default_rng(5)
    x, w, b = randn(rng, (3, 10, 15, 13)), randn(rng, (12, 10, 3, 3)), randn(rng, (12,))
    at = {"pads": [1, 1, 1, 1], "kernel_shape": [3, 3], "strides": [2, 2]}
    want = _ref(x, w, b, at)
    (y,) = run_op("Conv", [x, w, b], [want.shape], [np.float32], at)
    assert_close_accum(y, want, np.float32, 90)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("case", [0, 1, 2], ids=["3x3", "1x1", "depthwise"])
def test_conv_dtypes(dtype, case):
    xs, ws, at = [((1, 8, 11, 10), (12, 8, 3, 3), {"pads": [1, 1, 1, 1]}),
                  ((2, 16, 6, 7), (8, 16, 1, 1), {}),
                  ((1, 8, 11, 10), (8, 1, 3, 3), {"pads": [1, 1, 1, 1], "group": 8})][case]
    rng = np.random.default_rng(case)
    x, w, b = randn(rng, xs, dtype), randn(rng, ws, dtype), randn(rng, (ws[0],), dtype)
    want = _ref(x, w, b, at)
    (y,) = run_op("Conv", [x, w, b], [want.shape], [dtype], at)
    assert y.dtype == np.dtype(dtype)
    assert_close_accum(y, want, dtype, int(np.prod(ws[1:])))


@pytest.mark.parametrize("act", ACTIVATIONS)
@pytest.mark.parametrize("depthwise", [False, True], ids=["gemm", "depthwise"])
def test_conv_every_epilogue(act, depthwise):
    rng = np.random.default_rng(7)
    if depthwise:
        x, w, at = randn(rng, (1, 6, 9, 10)), randn(rng, (6, 1, 3, 3)), {"pads": [1, 1, 1, 1], "group": 6}
    else:
        x, w, at = randn(rng, (1, 6, 9, 10)), randn(rng, (10, 6, 3, 3), scale=0.3), {"pads": [1, 1, 1, 1]}
    b = randn(rng, (w.shape[0],))
    params = {"Clip": (0.0, 6.0), "LeakyRelu": (0.1, None), "HardSigmoid": (0.25, 0.5)}.get(act, (None, None))
    attrs = dict(at, **activation_attrs(act, *params))
    want = activation(_ref(x, w, b, at), act, *params)
    (y,) = run_op("Conv", [x, w, b], [want.shape], [np.float32], attrs)
    assert_close_accum(y, want, np.float32, int(np.prod(w.shape[1:])))


def test_conv_errors():
    t = testing()
    x, w = np.ones((1, 4, 5, 5), np.float32), np.ones((6, 4, 3, 3), np.float32)
    with pytest.raises(t.OpError) as e:  # wrong output shape
        run_op("Conv", [x, w], [(1, 6, 5, 5)], [np.float32])
    assert e.value.code == 100022
    with pytest.raises(t.OpError) as e:  # channels do not match the groups
        run_op("Conv", [x, w], [(1, 6, 3, 3)], [np.float32], {"group": 3})
    assert e.value.code == 100021
    with pytest.raises(t.OpError) as e:
        run_op("Conv", [x, w], [(1, 6, 3, 3)], [np.float32], {"strides": [1]})
    assert e.value.code == 100023
    with pytest.raises(t.OpError) as e:
        run_op("Conv", [x, w], [(1, 6, 3, 3)], [np.float32], {"auto_pad": "SIDEWAYS"})
    assert e.value.code == 100023
    with pytest.raises(t.OpError) as e:
        run_op("Conv", [x, w, np.ones(5, np.float32)], [(1, 6, 3, 3)], [np.float32])
    assert e.value.code == 100021


def test_conv_transpose_onnx_doc_example():
    # onnx backend test "convtranspose_pads": strides [3, 2], pads [1, 2, 1, 2].
    x = np.arange(9, dtype=np.float32).reshape(1, 1, 3, 3)
    w = np.ones((1, 2, 3, 3), np.float32)
    (y,) = run_op("ConvTranspose", [x, w], [(1, 2, 7, 3)], [np.float32], {"strides": [3, 2], "pads": [1, 2, 1, 2]})
    row = [[1, 1, 3], [1, 1, 3], [7, 4, 9], [7, 4, 9], [7, 4, 9], [13, 7, 15], [13, 7, 15]]
    np.testing.assert_array_equal(y, np.array([[row, row]], np.float32))


CT_CASES = [
    ((1, 1, 3, 3), (1, 2, 3, 3), {"strides": [3, 2], "pads": [1, 2, 1, 2]}),
    ((2, 4, 5, 6), (4, 3, 3, 3), {"group": 2, "strides": [2, 2], "pads": [1, 1, 1, 1], "output_padding": [1, 0],
                                  "dilations": [1, 2]}),
    ((1, 16, 8, 8), (16, 8, 4, 4), {"strides": [2, 2], "pads": [1, 1, 1, 1]}),
    ((1, 3, 7), (3, 2, 4), {"strides": [2]}),
    ((1, 8, 4, 4, 3), (8, 2, 2, 2, 2), {"strides": [2, 2, 2]}),
    ((1, 5, 6, 6), (5, 7, 1, 1), {}),
    # kernel == stride, no pads: every output has one source (the interleaved col2im rows)
    ((2, 6, 5, 13), (6, 4, 2, 2), {"strides": [2, 2], "group": 2}),
    ((1, 4, 3, 5), (4, 3, 3, 3), {"strides": [3, 3]}),
    ((1, 3, 9), (3, 2, 2), {"strides": [2]}),
]


@pytest.mark.parametrize("xs,ws,at", CT_CASES, ids=[f"{c[0]}x{c[1]}" for c in CT_CASES])
def test_conv_transpose_fp32(xs, ws, at):
    rng = np.random.default_rng(sum(xs))
    x, w = randn(rng, xs), randn(rng, ws)
    b = randn(rng, (ws[1] * at.get("group", 1),))
    want = conv_transpose_ref(x, w, b, strides=at.get("strides"), dilations=at.get("dilations"), pads=at.get("pads"),
                              group=at.get("group", 1), output_padding=at.get("output_padding"))
    (y,) = run_op("ConvTranspose", [x, w, b], [want.shape], [np.float32], at)
    assert_close_accum(y, want, np.float32, xs[1] * int(np.prod(ws[2:])))


@pytest.mark.parametrize("auto_pad", ["SAME_UPPER", "SAME_LOWER", "output_shape"])
def test_conv_transpose_implied_pads(auto_pad):
    rng = np.random.default_rng(2)
    x, w = randn(rng, (1, 3, 5, 5)), randn(rng, (3, 4, 4, 4))
    out = (10, 10)  # input * stride; total padding 2 per axis
    total = 2 * (5 - 1) + 4 - 10
    begin = total // 2 if auto_pad == "SAME_UPPER" else total - total // 2
    want = conv_transpose_ref(x, w, None, strides=[2, 2], pads=[begin, begin, total - begin, total - begin],
                              out_sp=list(out))
    at = {"strides": [2, 2]}
    if auto_pad == "output_shape":
        at["output_shape"] = list(out)
    else:
        at["auto_pad"] = auto_pad
    (y,) = run_op("ConvTranspose", [x, w], [(1, 4) + out], [np.float32], at)
    assert_close_accum(y, want, np.float32, 48)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_conv_transpose_dtypes_and_epilogue(dtype):
    rng = np.random.default_rng(9)
    x, w, b = randn(rng, (1, 6, 5, 4), dtype), randn(rng, (6, 3, 3, 3), dtype), randn(rng, (3,), dtype)
    want = activation(conv_transpose_ref(x, w, b, strides=[2, 2]), "Sigmoid")
    (y,) = run_op("ConvTranspose", [x, w, b], [want.shape], [dtype], {"strides": [2, 2], "activation": "Sigmoid"})
    assert y.dtype == np.dtype(dtype)
    assert_close_accum(y, want, dtype, 54)


def test_conv_transpose_errors():
    t = testing()
    x, w = np.ones((1, 4, 5, 5), np.float32), np.ones((4, 2, 3, 3), np.float32)
    with pytest.raises(t.OpError) as e:
        run_op("ConvTranspose", [x, w], [(1, 2, 8, 8)], [np.float32])
    assert e.value.code == 100022
    with pytest.raises(t.OpError) as e:
        run_op("ConvTranspose", [x, np.ones((3, 2, 3, 3), np.float32)], [(1, 2, 7, 7)], [np.float32])
    assert e.value.code == 100021


@pytest.mark.parametrize("direct", ["1", "all"], ids=["auto", "direct"])
def test_conv_random_geometries(direct, monkeypatch):
    """Seeded random 1-3-D geometries: groups, strides, dilations, asymmetric pads, batch."""
    monkeypatch.setenv("ACL_SIM_CONV_DIRECT", direct)
    rng = np.random.default_rng(123)
    checked = 0
    while checked < 60:
        nsp, g = int(rng.integers(1, 4)), int(rng.choice([1, 1, 2, 3]))
        c, m = g * int(rng.integers(1, 4)), g * int(rng.integers(1, 4))
        k = [int(rng.integers(1, 4)) for _ in range(nsp)]
        at = {"strides": [int(rng.integers(1, 3)) for _ in range(nsp)],
              "dilations": [int(rng.integers(1, 3)) for _ in range(nsp)],
              "pads": [int(rng.integers(0, 3)) for _ in range(2 * nsp)], "group": g}
        x = randn(rng, [int(rng.integers(1, 3)), c] + [int(rng.integers(1, 9)) for _ in range(nsp)])
        w, b = randn(rng, [m, c // g] + k), randn(rng, (m,))
        out = conv_out_shape(list(x.shape[2:]), k, at["strides"], at["dilations"], at["pads"][:nsp], at["pads"][nsp:])
        if min(out) <= 0:  # the window does not fit: no such convolution
            continue
        want = _ref(x, w, b, at)
        checked += 1
        (y,) = run_op("Conv", [x, w, b], [want.shape], [np.float32], at)
        assert_close_accum(y, want, np.float32, int(np.prod(w.shape[1:])))


def test_conv_transpose_random_geometries():
    rng = np.random.default_rng(7)
    checked = 0
    while checked < 60:
        nsp, g = int(rng.integers(1, 4)), int(rng.choice([1, 2]))
        c, mg = g * int(rng.integers(1, 4)), int(rng.integers(1, 4))
        s = [int(rng.integers(1, 4)) for _ in range(nsp)]
        at = {"strides": s, "dilations": [int(rng.integers(1, 3)) for _ in range(nsp)],
              "pads": [int(rng.integers(0, 2)) for _ in range(2 * nsp)], "group": g,
              "output_padding": [int(rng.integers(0, s[i])) for i in range(nsp)]}
        x = randn(rng, [int(rng.integers(1, 3)), c] + [int(rng.integers(1, 6)) for _ in range(nsp)])
        w = randn(rng, [c, mg] + [int(rng.integers(1, 4)) for _ in range(nsp)])
        b = randn(rng, (mg * g,))
        want = conv_transpose_ref(x, w, b, at["strides"], at["dilations"], at["pads"], g, at["output_padding"])
        if min(want.shape) <= 0:
            continue
        checked += 1
        (y,) = run_op("ConvTranspose", [x, w, b], [want.shape], [np.float32], at)
        assert_close_accum(y, want, np.float32, c * int(np.prod(w.shape[2:])))


# Convs whose rows are wide enough take the direct path (conv_direct.cpp), strided ones on phase planes;
# ACL_SIM_CONV_DIRECT=all takes it on every plane, =0 sends them all to the GEMM.
DIRECT_CASES = [
    ((1, 16, 40, 40), (13, 16, 3, 3), {"pads": [1, 1, 1, 1]}),            # many tiles, ragged M, junk columns
    ((1, 40, 12, 12), (24, 40, 3, 3), {"pads": [0, 2, 1, 0]}),            # asymmetric pads, K > one slice
    ((2, 32, 9, 10), (20, 32, 1, 1), {}),                                 # 1x1 unpadded: output written in place
    ((1, 8, 9, 9), (9, 8, 1, 1), {"pads": [1, 1, 1, 1]}),                 # 1x1 padded
    ((1, 16, 20, 20), (70, 16, 1, 1), {}),                                # M >= 4K: rows-outer sweep
    ((1, 3, 40, 40), (16, 3, 1, 1), {"pads": [1, 1, 1, 1]}),
    ((1, 6, 14, 11), (7, 6, 3, 3), {"pads": [2, 2, 2, 2], "dilations": [2, 2]}),
    ((1, 6, 10, 9), (5, 6, 4, 3), {"auto_pad": "SAME_LOWER"}),            # even kernel
    ((2, 4, 37), (6, 2, 5), {"group": 2, "pads": [2, 1], "dilations": [2]}),  # 1-D, groups
    ((1, 512, 7, 7), (40, 512, 3, 3), {"pads": [1, 1, 1, 1]}),            # 7x7 plane, long K
    ((1, 64, 30, 30), (40, 64, 1, 1), {"strides": [2, 2]}),               # strided 1x1: one phase plane
    ((1, 3, 60, 60), (16, 3, 7, 7), {"strides": [2, 2], "pads": [3, 3, 3, 3]}),  # stem: 4 phase planes
    ((1, 16, 31, 29), (12, 16, 3, 3), {"strides": [2, 1], "pads": [1, 0, 0, 1]}),
    ((1, 8, 25, 27), (9, 8, 3, 3), {"strides": [3, 2], "dilations": [2, 1], "pads": [2, 1, 1, 2]}),
    ((1, 8, 21), (5, 8, 1), {"strides": [3]}),
    ((1, 8, 60), (5, 8, 4), {"strides": [2], "pads": [1, 2]}),
    ((1, 8, 200), (9, 8, 3), {"pads": [1, 1]}),                           # 1-D, long row
    ((2, 3, 20, 112), (10, 3, 3, 3), {"pads": [1, 1, 1, 1]}),             # wide rows: strips per output row, batch
    ((1, 3, 30, 224), (9, 3, 7, 7), {"strides": [2, 2], "pads": [3, 3, 3, 3]}),  # stem rows, phase planes
    ((1, 40, 6, 96), (12, 40, 3, 3), {"pads": [1, 2, 1, 0]}),             # strips per row, two K slices
    ((2, 128, 14, 14), (32, 128, 3, 3), {"pads": [1, 1, 1, 1]}),          # densenet: few rows, junk columns, batch
    ((1, 128, 7, 7), (32, 128, 3, 3), {"pads": [1, 1, 1, 1]}),
    ((1, 3, 9, 7), (5, 3, 3, 3), {"pads": [1, 1, 1, 1]}),                # odd K, 7-column edge strip (AVX2 4x8)
]


def _direct_paths_check():
    rng = np.random.default_rng(11)
    for xs, ws, at in DIRECT_CASES:
        x, w, b = randn(rng, xs), randn(rng, ws), randn(rng, (ws[0],))
        want = _ref(x, w, b, at)
        r = randn(rng, want.shape)
        (y,) = run_op("Conv", [x, w, b], [want.shape], [np.float32], dict(at, activation="Relu"))
        assert_close_accum(y, np.maximum(want, 0), np.float32, int(np.prod(ws[1:])))
        if at.get("group", 1) == 1:  # residual epilogue
            (y,) = run_op("Conv", [x, w, b, r], [want.shape], [np.float32], at)
            assert_close_accum(y, want + r, np.float32, int(np.prod(ws[1:])))
            # Bias, residual and ReLU are applied in the kernels' stores; other activations in a pass after.
            (y,) = run_op("Conv", [x, w, b, r], [want.shape], [np.float32],
                          dict(at, activation="LeakyRelu", activation_alpha=0.1))
            s = want + r
            assert_close_accum(y, np.where(s >= 0, s, 0.1 * s), np.float32, int(np.prod(ws[1:])))
            (y,) = run_op("Conv", [x, w, None, r], [want.shape], [np.float32], dict(at, activation="Relu"))
            assert_close_accum(y, np.maximum(want - b.reshape([-1] + [1] * (want.ndim - 2)) + r, 0), np.float32,
                               int(np.prod(ws[1:])))


@pytest.mark.parametrize("direct", ["all", "1", "0"], ids=["direct", "auto", "gemm"])
def test_conv_stride1_paths(direct, monkeypatch):
    monkeypatch.setenv("ACL_SIM_CONV_DIRECT", direct)
    _direct_paths_check()


@pytest.mark.parametrize("isa", ["avx2", "scalar"])
def test_conv_direct_other_isas(isa):
    code = "import test_kernels_conv as t; t._direct_paths_check(); print('ok')"
    env = dict(os.environ, ACL_SIM_KERNEL_ISA=isa, ACL_SIM_CONV_DIRECT="all")
    env["PYTHONPATH"] = os.pathsep.join([os.path.dirname(__file__), env.get("PYTHONPATH", "")])
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "ok" in r.stdout, r.stderr


# Depthwise shapes for the padded-plane SIMD path (strides 1 and 2) and the generic loop (stride 3):
# rows of whole vectors plus tails on both ISAs, pads wider than the window, dilation, a channel
# multiplier, 1-D, the PP-OCR 5x5/2 at 40x40 and PP-OCR cls's few-row planes.
DW_CASES = [
    ((1, 120, 40, 40), (120, 1, 5, 5), {"group": 120, "pads": [2, 2, 2, 2], "strides": [2, 2]}),
    ((2, 6, 37, 35), (6, 1, 3, 3), {"group": 6, "pads": [1, 1, 1, 1]}),
    ((1, 4, 19, 41), (8, 1, 3, 5), {"group": 4, "pads": [3, 0, 1, 4], "strides": [2, 2], "dilations": [2, 1]}),
    ((1, 3, 23, 50), (3, 1, 7, 7), {"group": 3, "pads": [3, 3, 3, 3], "strides": [1, 2]}),
    ((1, 5, 17, 33), (5, 1, 3, 3), {"group": 5, "strides": [3, 3], "pads": [1, 1, 1, 1]}),
    ((1, 4, 70), (4, 1, 5), {"group": 4, "pads": [2, 2], "strides": [2]}),
    ((1, 2, 5, 5), (2, 1, 3, 3), {"group": 2, "pads": [4, 4, 4, 4]}),
    # PP-OCR cls's planes of 2-6 rows (most 5x5 taps fall in the padding rows), stride (2, 1), and rows of 150
    # and 170 columns: chunks of 8 vectors, then the rest with a tail.
    ((2, 12, 2, 96), (12, 1, 5, 5), {"group": 12, "pads": [2, 2, 2, 2]}),
    ((2, 6, 3, 150), (6, 1, 5, 5), {"group": 6, "pads": [2, 2, 2, 2]}),
    ((2, 6, 6, 170), (6, 1, 5, 5), {"group": 6, "pads": [2, 2, 2, 2], "strides": [2, 1]}),
    ((1, 4, 1, 7), (4, 1, 3, 3), {"group": 4, "pads": [1, 1, 1, 1]}),
]


def _depthwise_check():
    rng = np.random.default_rng(23)
    for xs, ws, at in DW_CASES + [c for c in CONV_CASES if c[2].get("group", 1) == c[0][1] and c[1][1] == 1]:
        x, w, b = randn(rng, xs), randn(rng, ws), randn(rng, (ws[0],))
        k = int(np.prod(ws[1:]))
        want = _ref(x, w, b, at)
        (y,) = run_op("Conv", [x, w, b], [want.shape], [np.float32], at)
        assert_close_accum(y, want, np.float32, k)
        (y,) = run_op("Conv", [x, w, b], [want.shape], [np.float32], dict(at, activation="Relu"))
        assert_close_accum(y, np.maximum(want, 0), np.float32, k)
        (y,) = run_op("Conv", [x, w], [want.shape], [np.float32], dict(at, activation="LeakyRelu",
                                                                      activation_alpha=0.1))
        plain = _ref(x, w, None, at)
        assert_close_accum(y, np.where(plain >= 0, plain, 0.1 * plain), np.float32, k)


def test_depthwise_geometries():
    _depthwise_check()


@pytest.mark.parametrize("isa", ["avx2", "scalar"])
def test_depthwise_other_isas(isa):
    run_check_in_child("test_kernels_conv", "_depthwise_check()", ACL_SIM_KERNEL_ISA=isa)


HALF_DTYPES = [np.float16] + ([BF16] if BF16 is not None else [])


@pytest.mark.parametrize("dtype", HALF_DTYPES, ids=lambda d: np.dtype(d).name)
def test_depthwise_half_matches_fp32_rounded(dtype):
    # fp16 / bf16 depthwise convs stage their planes per task (one input plane per output plane) or widen the
    # whole input (a channel multiplier): either way each output is the fp32 conv of the widened values, rounded
    # once. Many planes per shape, so several tasks each stage their own.
    rng = np.random.default_rng(29)
    cases = DW_CASES + [((8, 96, 3, 96), (96, 1, 5, 5), {"group": 96, "pads": [2, 2, 2, 2]}),
                        ((2, 64, 20, 20), (64, 1, 3, 3), {"group": 64, "pads": [1, 1, 1, 1], "strides": [2, 2]})]
    for xs, ws, at in cases:
        x, w, b = randn(rng, xs, dtype), randn(rng, ws, dtype), randn(rng, (ws[0],), dtype)
        out = _ref(x.astype(np.float32), w.astype(np.float32), b.astype(np.float32), at).shape
        at = dict(at, activation="Relu")
        (want,) = run_op("Conv", [x.astype(np.float32), w.astype(np.float32), b.astype(np.float32)], [out],
                         [np.float32], at)
        (y,) = run_op("Conv", [x, w, b], [out], [dtype], at)
        assert y.dtype == np.dtype(dtype)
        np.testing.assert_array_equal(y.astype(np.float32), want.astype(dtype).astype(np.float32), err_msg=str(xs))


@pytest.mark.parametrize("n", [1, 6])
def test_conv_1x1_plane_epilogue(n):
    """The one-pixel pointwise conv's GEMM takes the bias per output channel (its columns), a residual of the
    output's shape and the fused activation, as every other conv path does."""
    rng = np.random.default_rng(n)
    x, w, b = randn(rng, (n, 240, 1, 1)), randn(rng, (60, 240, 1, 1)), randn(rng, (60,))
    r = randn(rng, (n, 60, 1, 1))
    want = _ref(x, w, b, {})
    (y,) = run_op("Conv", [x, w, b, r], [want.shape], [np.float32], {"activation": "Relu"})
    assert_close_accum(y, np.maximum(want + r, 0), np.float32, 240)
    (y,) = run_op("Conv", [x, w], [want.shape], [np.float32], {"activation": "LeakyRelu", "activation_alpha": 0.1})
    z = _ref(x, w, None, {})
    assert_close_accum(y, np.where(z >= 0, z, 0.1 * z), np.float32, 240)
