"""BatchNormalization with a fused activation (ATC fuse_activation; kernel in norm_ops.cpp).

Kernel: BatchNormalization with `activation*` attributes against a float64 NumPy reference, on
every ISA (ACL_SIM_KERNEL_ISA per subprocess), ragged planes, batch > 1, fp16.
Graph: DenseNet's pre-activation Concat -> BN -> Relu -> Conv compiles to BN(activation=Relu) and
matches onnxruntime on the runtime; a BN output read twice keeps its Relu.
"""

import numpy as np
import pytest
from onnx import helper

from acl_sim._core import testing_model
from conftest import run_check_in_child
from atc_util import compile_and_compare, make_model, ops_of, ort_run
from kernel_harness import run

ACTS = [("Relu", {}, lambda v: np.maximum(v, 0)),
        ("Clip", {"activation_alpha": -0.5, "activation_beta": 0.75}, lambda v: np.clip(v, -0.5, 0.75)),
        ("LeakyRelu", {"activation_alpha": 0.1}, lambda v: np.where(v > 0, v, 0.1 * v)),
        ("HardSigmoid", {"activation_alpha": 0.2, "activation_beta": 0.5}, lambda v: np.clip(0.2 * v + 0.5, 0, 1)),
        ("Sigmoid", {}, lambda v: 1 / (1 + np.exp(-v))),
        ("Silu", {}, lambda v: v / (1 + np.exp(-v))),
        ("HardSwish", {}, lambda v: v * np.clip(v / 6 + 0.5, 0, 1))]


def _bn_check():
    rng = np.random.default_rng(0)
    for shape in [(1, 5, 7, 9), (2, 3, 1, 37), (3, 4, 16, 16), (2, 6)]:
        c = shape[1]
        x = rng.standard_normal(shape).astype(np.float32) * 2
        g, b = (rng.standard_normal(c) + 1).astype(np.float32), rng.standard_normal(c).astype(np.float32)
        mu, var = rng.standard_normal(c).astype(np.float32), (np.abs(rng.standard_normal(c)) + 0.3).astype(np.float32)
        bshape = (1, c) + (1,) * (len(shape) - 2)
        a = (g.astype(np.float64) / np.sqrt(var.astype(np.float64) + 1e-5))
        pre = x.astype(np.float64) * a.reshape(bshape) + (b - mu * a).reshape(bshape)
        for name, attrs, ref in ACTS:
            y = run("BatchNormalization", [x, g, b, mu, var], shape, np.float32, activation=name, **attrs)
            np.testing.assert_allclose(y, ref(pre), rtol=1e-5, atol=1e-5, err_msg=f"{name} {shape}")
        y16 = run("BatchNormalization", [x.astype(np.float16), g, b, mu, var], shape, np.float16, activation="Relu")
        np.testing.assert_allclose(y16.astype(np.float64), np.maximum(pre, 0), rtol=2e-3, atol=2e-3)


def test_bn_activation_kernel():
    _bn_check()


@pytest.mark.parametrize("isa", ["avx2", "scalar"])
def test_bn_activation_kernel_other_isas(isa):
    run_check_in_child("test_bn_activation", "_bn_check()", ACL_SIM_KERNEL_ISA=isa)


def _bn_params(rng, c):
    return {"g": (rng.standard_normal(c) + 1).astype(np.float32), "be": rng.standard_normal(c).astype(np.float32),
            "mu": rng.standard_normal(c).astype(np.float32),
            "var": (np.abs(rng.standard_normal(c)) + 0.5).astype(np.float32)}


@pytest.mark.parametrize("batch", [1, 2])
def test_pre_activation_bn_relu_fuses(tmp_path, batch):
    rng = np.random.default_rng(1)
    n = helper.make_node
    nodes = [n("Conv", ["x", "w0"], ["a"]), n("MaxPool", ["x"], ["p"], kernel_shape=[1, 1]),
             n("Concat", ["p", "a"], ["c"], axis=1),
             n("BatchNormalization", ["c", "g", "be", "mu", "var"], ["bn"]), n("Relu", ["bn"], ["r"]),
             n("Conv", ["r", "w1"], ["y"], pads=[1, 1, 1, 1])]
    inits = dict(_bn_params(rng, 7), w0=rng.standard_normal((4, 3, 1, 1)).astype(np.float32),
                 w1=rng.standard_normal((2, 7, 3, 3)).astype(np.float32))
    model = make_model(nodes, [("x", [batch, 3, 6, 5])], [("y", None)], inits)
    x = rng.standard_normal((batch, 3, 6, 5)).astype(np.float32)
    report, om = compile_and_compare(model, tmp_path, [{"x": x}])
    assert ops_of(om) == ["Conv", "MaxPool", "Concat", "BatchNormalization", "Conv"]
    bn = om.profile(0)["nodes"][3]
    assert bn["attrs"]["activation"] == "Relu" and bn["sources"][-1].startswith("Relu")
    (got,) = testing_model.run_om(report["om_path"], [x])
    np.testing.assert_allclose(got, ort_run(model, {"x": x})[0], rtol=1e-4, atol=1e-4)


def test_bn_output_read_twice_keeps_its_relu(tmp_path):
    rng = np.random.default_rng(2)
    n = helper.make_node
    nodes = [n("Sigmoid", ["x"], ["s"]), n("BatchNormalization", ["s", "g", "be", "mu", "var"], ["bn"]),
             n("Relu", ["bn"], ["r"]), n("Add", ["r", "bn"], ["y"])]
    model = make_model(nodes, [("x", [1, 3, 4, 4])], [("y", None)], _bn_params(rng, 3))
    x = rng.standard_normal((1, 3, 4, 4)).astype(np.float32)
    report, om = compile_and_compare(model, tmp_path, [{"x": x}])
    assert "Relu" in ops_of(om)
    (got,) = testing_model.run_om(report["om_path"], [x])
    np.testing.assert_allclose(got, ort_run(model, {"x": x})[0], rtol=1e-5, atol=1e-5)
