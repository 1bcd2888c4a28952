"""Conv + Add (+ Relu) fused into one Conv with a residual input (passes/fuse_residual.py), and the
Conv kernel's residual epilogue, against float64 NumPy and onnxruntime."""

import numpy as np
import pytest
from onnx import helper

from acl_sim import _core
from conftest import run_check_in_child
from atc_util import compile_and_compare, make_model, ops_of, ort_run, pass_stats
from kernel_harness import assert_close_accum, conv_ref, randn, run_op


@pytest.mark.parametrize("xs,ws,attrs", [
    ((1, 16, 7, 7), (24, 16, 3, 3), {"pads": [1, 1, 1, 1]}),                     # im2col path, 49 pixels
    ((2, 12, 9, 10), (20, 12, 1, 1), {}),                                        # pointwise path, batch 2
    ((1, 8, 11, 9), (3, 8, 3, 3), {"pads": [0, 1, 2, 1], "strides": [2, 1]}),     # few output channels
])
@pytest.mark.parametrize("act", [None, "Relu"])
def test_conv_residual_epilogue(xs, ws, attrs, act):
    rng = np.random.default_rng(3)
    x, w, b = randn(rng, xs), randn(rng, ws), randn(rng, (ws[0],))
    plain = conv_ref(x, w, b, **attrs)
    r = randn(rng, plain.shape)
    want = plain + r
    a = dict(attrs)
    if act:
        a["activation"] = act
        want = np.maximum(want, 0)
    (y,) = run_op("Conv", [x, w, b, r], [plain.shape], [np.float32], a)
    assert_close_accum(y, want, np.float32, int(np.prod(ws[1:])))
    (y,) = run_op("Conv", [x, w, None, r], [plain.shape], [np.float32], a)  # no bias
    assert_close_accum(y, (np.maximum(plain - b.reshape(1, -1, 1, 1) + r, 0) if act else plain - b.reshape(1, -1, 1, 1) + r),
                 np.float32, int(np.prod(ws[1:])))


@pytest.mark.parametrize("isa", ["avx2", "scalar"])
def test_conv_residual_epilogue_other_isas(isa):
    """The same cases on the capped ISA in a fresh process (the ISA is fixed per process): on AVX2 the
    pointwise conv takes the packed GEMM, whose residual goes through the fused vector epilogue; ragged
    rows (not a multiple of 4) and a 7x7 output exercise the vector tail."""
    run_check_in_child("test_conv_residual", "_other_isa_cases()", ACL_SIM_KERNEL_ISA=isa)


def _other_isa_cases():
    for case in [((1, 16, 7, 7), (24, 16, 3, 3), {"pads": [1, 1, 1, 1]}), ((2, 12, 9, 10), (21, 12, 1, 1), {}),
                 ((1, 8, 11, 9), (3, 8, 3, 3), {"pads": [0, 1, 2, 1], "strides": [2, 1]})]:
        for act in (None, "Relu"):
            test_conv_residual_epilogue(*case, act)


def test_conv_residual_rejects_bad_shape_and_groups():
    rng = np.random.default_rng(4)
    x, w = randn(rng, (1, 4, 5, 5)), randn(rng, (6, 4, 3, 3))
    with pytest.raises(Exception, match="residual"):
        run_op("Conv", [x, w, None, randn(rng, (1, 6, 5, 5))], [(1, 6, 3, 3)], [np.float32])
    wg = randn(rng, (6, 2, 3, 3))
    with pytest.raises(Exception, match="group 1"):
        run_op("Conv", [x, wg, None, randn(rng, (1, 6, 3, 3))], [(1, 6, 3, 3)], [np.float32], {"group": 2})


def _block():
    """A ResNet bottleneck tail: y = Relu(Conv(Relu(Conv(x))) + x), plus a Conv whose Add must not fuse
    (its output is also a graph output)."""
    rng = np.random.default_rng(5)
    inits = {"w1": randn(rng, (8, 8, 3, 3), scale=0.2), "b1": randn(rng, (8,)),
             "w2": randn(rng, (8, 8, 1, 1), scale=0.2), "b2": randn(rng, (8,)),
             "w3": randn(rng, (8, 8, 1, 1), scale=0.2)}
    nodes = [helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1]),
             helper.make_node("Relu", ["c1"], ["r1"]),
             helper.make_node("Conv", ["r1", "w2", "b2"], ["c2"]),
             helper.make_node("Add", ["x", "c2"], ["s"]),
             helper.make_node("Relu", ["s"], ["y"]),
             helper.make_node("Conv", ["y", "w3"], ["c3"]),
             helper.make_node("Add", ["c3", "y"], ["z"])]
    return make_model(nodes, [("x", [1, 8, 6, 7])], [("z", [1, 8, 6, 7]), ("c3", [1, 8, 6, 7])], inits)


def test_fuse_residual_pass_and_runtime(tmp_path):
    model = _block()
    x = np.random.default_rng(6).standard_normal((1, 8, 6, 7)).astype(np.float32)
    report, om = compile_and_compare(model, tmp_path, [{"x": x}])
    assert pass_stats(report, "fuse_residual")["fused"] == 1
    ops = ops_of(om)
    assert ops.count("Add") == 1 and "Relu" not in ops, ops  # Add+Relu of the block folded into conv 2
    fused = [n for n in om.profile(0)["nodes"] if n["op"] == "Conv" and len(n["inputs"]) == 4]
    assert len(fused) == 1 and fused[0]["attrs"].get("activation") == "Relu"
    # The C++ kernels on the fused graph match onnxruntime on the source model.
    m = _core.testing_model.Model.from_file(report["om_path"])
    got = m.run([x])
    want = ort_run(model, {"x": x})
    for g, e in zip(got, want):
        np.testing.assert_allclose(np.asarray(g, np.float64), e.astype(np.float64), rtol=1e-4, atol=1e-4)
