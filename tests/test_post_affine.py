"""The post-activation affine epilogue (activation_scale / activation_shift) and ATC's fuse_post_affine.

Kernel: Conv (GEMM, direct and depthwise paths), ConvTranspose, Gemm, MatMul and BatchNormalization
with an activation followed by `* scale + shift`, against float64 NumPy, on every ISA.
Graph: PP-LCNet's Conv -> HardSwish -> Mul(s) -> Add(t) compiles to one Conv and matches
onnxruntime on the runtime; Sub/Div forms compose; non-scalar or shared operands stay nodes.
"""

import numpy as np
import pytest
from onnx import helper

from acl_sim._core import testing_model
from conftest import run_check_in_child
from atc_util import compile_and_compare, make_model, ops_of, ort_run, pass_stats
from kernel_harness import run

SCALE, SHIFT = 0.75, -0.3


def _hswish(v):
    return v * np.clip(v / 6 + 0.5, 0, 1)


def _conv_ref(x, w, b, stride=1, pad=0, group=1):
    n, c, h, wd = x.shape
    m, cg, kh, kw = w.shape
    xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    oh, ow = (h + 2 * pad - kh) // stride + 1, (wd + 2 * pad - kw) // stride + 1
    y = np.zeros((n, m, oh, ow))
    mg = m // group
    for o in range(m):
        g = o // mg
        for i in range(kh):
            for j in range(kw):
                patch = xp[:, g * cg:(g + 1) * cg, i:i + stride * oh:stride, j:j + stride * ow:stride]
                y[:, o] += np.einsum("nchw,c->nhw", patch, w[o, :, i, j].astype(np.float64))
    return y + b.reshape(1, -1, 1, 1)


def _epilogue_check():
    rng = np.random.default_rng(0)
    ep = dict(activation_scale=SCALE, activation_shift=SHIFT)
    # (x shape, w shape, stride, pad, group): 1x1 GEMM, 3x3 direct, depthwise 5x5, batch 2 ragged.
    for xs, ws, stride, pad, group in [((1, 16, 9, 7), (24, 16, 1, 1), 1, 0, 1), ((2, 8, 11, 13), (16, 8, 3, 3), 1, 1, 1),
                                       ((1, 12, 10, 9), (12, 1, 5, 5), 1, 2, 12), ((2, 6, 9, 9), (10, 6, 3, 3), 2, 1, 1)]:
        x = rng.standard_normal(xs).astype(np.float32)
        w = (rng.standard_normal(ws) / np.sqrt(np.prod(ws[1:]))).astype(np.float32)
        b = rng.standard_normal(ws[0]).astype(np.float32)
        want = _conv_ref(x, w, b, stride, pad, group)
        attrs = dict(kernel_shape=list(ws[2:]), strides=[stride] * 2, pads=[pad] * 4, group=group)
        for act, ref in (("HardSwish", _hswish), ("Relu", lambda v: np.maximum(v, 0))):
            y = run("Conv", [x, w, b], want.shape, np.float32, activation=act, **attrs, **ep)
            np.testing.assert_allclose(y, ref(want) * SCALE + SHIFT, rtol=1e-4, atol=1e-4, err_msg=f"{act} {xs} {ws}")
        if group == 1:  # with the fused residual: act(conv + r) * scale + shift
            r = rng.standard_normal(want.shape).astype(np.float32)
            y = run("Conv", [x, w, b, r], want.shape, np.float32, activation="HardSwish", **attrs, **ep)
            np.testing.assert_allclose(y, _hswish(want + r) * SCALE + SHIFT, rtol=1e-4, atol=1e-4)
    a, bm = rng.standard_normal((5, 33)).astype(np.float32), rng.standard_normal((33, 17)).astype(np.float32)
    c = rng.standard_normal(17).astype(np.float32)
    want = a.astype(np.float64) @ bm + c
    y = run("Gemm", [a, bm, c], want.shape, np.float32, activation="Sigmoid", **ep)
    np.testing.assert_allclose(y, 1 / (1 + np.exp(-want)) * SCALE + SHIFT, rtol=1e-5, atol=1e-5)
    y = run("MatMul", [a, bm], want.shape, np.float32, activation="Relu", **ep)
    np.testing.assert_allclose(y, np.maximum(want - c, 0) * SCALE + SHIFT, rtol=1e-4, atol=1e-4)
    x = rng.standard_normal((1, 3, 5, 5)).astype(np.float32)
    w = rng.standard_normal((3, 4, 2, 2)).astype(np.float32)
    y = run("ConvTranspose", [x, w], (1, 4, 10, 10), np.float32, strides=[2, 2], activation="Relu", **ep)
    ref = np.einsum("nchw,cmij->nmhiwj", x.astype(np.float64), w).reshape(1, 4, 10, 10)
    np.testing.assert_allclose(y, np.maximum(ref, 0) * SCALE + SHIFT, rtol=1e-4, atol=1e-4)
    ones, zeros = np.ones(3, np.float32), np.zeros(3, np.float32)
    y = run("BatchNormalization", [x, ones, zeros, zeros, ones], x.shape, np.float32, epsilon=0.0, activation="Relu",
            **ep)
    np.testing.assert_allclose(y, np.maximum(x, 0) * SCALE + SHIFT, rtol=1e-5, atol=1e-5)


def test_post_affine_epilogue():
    _epilogue_check()


@pytest.mark.parametrize("isa", ["avx2", "scalar"])
def test_post_affine_epilogue_other_isas(isa):
    run_check_in_child("test_post_affine", "_epilogue_check()", ACL_SIM_KERNEL_ISA=isa)


def _lab_model(tail, inits_extra=None):
    """x -> Conv -> HardSwish -> `tail` nodes (reading 'h') -> ... -> y."""
    rng = np.random.default_rng(1)
    n = helper.make_node
    nodes = [n("Conv", ["x", "w", "b"], ["c"], pads=[1, 1, 1, 1]), n("HardSwish", ["c"], ["h"])] + tail
    inits = {"w": (rng.standard_normal((6, 3, 3, 3)) / 5).astype(np.float32), "b": rng.standard_normal(6).astype(np.float32),
             "s": np.array([1.5], np.float32), "t": np.array([-0.25], np.float32),
             "u": np.float32(0.5)}
    inits.update(inits_extra or {})
    return make_model(nodes, [("x", [1, 3, 8, 8])], [("y", None)], inits, opset=14)


def _check(model, tmp_path, name):
    x = np.random.default_rng(2).standard_normal((1, 3, 8, 8)).astype(np.float32)
    report, om = compile_and_compare(model, tmp_path, [{"x": x}], name=name)
    (got,) = testing_model.run_om(report["om_path"], [x])
    np.testing.assert_allclose(got, ort_run(model, {"x": x})[0], rtol=1e-5, atol=1e-5)
    return report, om


def test_learnable_affine_block_folds_into_the_conv(tmp_path):
    n = helper.make_node
    model = _lab_model([n("Mul", ["s", "h"], ["m"]), n("Add", ["m", "t"], ["a"]),
                        n("Conv", ["a", "w2"], ["y"])], {"w2": np.ones((2, 6, 1, 1), np.float32)})
    report, om = _check(model, tmp_path, "lab")
    assert ops_of(om) == ["Conv", "Conv"]
    attrs = om.profile(0)["nodes"][0]["attrs"]
    assert attrs["activation"] == "HardSwish"
    assert attrs["activation_scale"] == 1.5 and attrs["activation_shift"] == -0.25
    assert pass_stats(report, "fuse_post_affine")["folded"] == 2


def test_sub_div_chains_compose(tmp_path):
    n = helper.make_node
    # y = (u - h * s) / s  ->  scale = -1, shift = u / s
    model = _lab_model([n("Mul", ["h", "s"], ["m"]), n("Sub", ["u", "m"], ["d"]), n("Div", ["d", "s"], ["y"])])
    report, om = _check(model, tmp_path, "subdiv")
    assert ops_of(om) == ["Conv"]
    attrs = om.profile(0)["nodes"][0]["attrs"]
    assert attrs["activation_scale"] == -1.0 and abs(attrs["activation_shift"] - 0.5 / 1.5) < 1e-7


def test_non_scalar_and_shared_operands_stay(tmp_path):
    n = helper.make_node
    # a per-channel Mul is not a scalar; it stays (and stops the chain before the Add).
    model = _lab_model([n("Mul", ["h", "cs"], ["m"]), n("Add", ["m", "t"], ["y"])],
                       {"cs": np.arange(1, 7, dtype=np.float32).reshape(1, 6, 1, 1)})
    _, om = _check(model, tmp_path, "channel")
    assert ops_of(om) == ["Conv", "Mul", "Add"]
    # h is read twice: its Mul cannot move into the Conv.
    model = _lab_model([n("Mul", ["h", "s"], ["m"]), n("Add", ["m", "h"], ["y"])])
    _, om = _check(model, tmp_path, "shared")
    assert "activation_scale" not in om.profile(0)["nodes"][0]["attrs"]
