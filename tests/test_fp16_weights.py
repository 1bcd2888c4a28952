"""fp16 models on the fp32-staged kernels (kernels/gemm_tensor_io.h): a loaded model's constant fp16 weights are
widened to fp32 once, into the node cache, and every later run, on any thread, reads that copy.

Checked on a model compiled with --precision_mode=force_fp16 whose nodes take each way a weight is read: the
Conv paths that pack it once (direct, GEMM, Winograd), the depthwise conv and the 1x1-plane conv that read it in
place every run, the small-M Gemm that reads B in place, and a bias. Outputs are checked against onnxruntime on
the fp32 source (fp16 tolerance), run against run, and across threads racing to build the cache."""
from __future__ import annotations

import numpy as np
import pytest
from onnx import helper

from acl_sim._core import testing_model
from acl_sim.compiler import compile_model
from atc_util import make_model, ort_run
from conftest import run_in_threads
from kernel_harness import randn


def _model():
    rng = np.random.default_rng(11)
    c, m = 8, 16
    inits = {
        "w1": randn(rng, (m, c, 3, 3), scale=0.3), "b1": randn(rng, (m,), scale=0.1),
        "wd": randn(rng, (m, 1, 3, 3), scale=0.3),
        "w2": randn(rng, (24, m, 1, 1), scale=0.3), "b2": randn(rng, (24,), scale=0.1),
        "w3": randn(rng, (12, 24, 1, 1), scale=0.3),
        "wg": randn(rng, (10, 12), scale=0.3), "bg": randn(rng, (10,), scale=0.1),
    }
    nodes = [
        helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c1"], ["r1"]),
        helper.make_node("Conv", ["r1", "wd"], ["c2"], pads=[1, 1, 1, 1], group=m),
        helper.make_node("Conv", ["c2", "w2", "b2"], ["c3"]),
        helper.make_node("GlobalAveragePool", ["c3"], ["p"]),
        helper.make_node("Conv", ["p", "w3"], ["c4"]),  # a 1x1 conv on a 1x1 plane: one small GEMM
        helper.make_node("Flatten", ["c4"], ["f"]),
        helper.make_node("Gemm", ["f", "wg", "bg"], ["y"], transB=1),
    ]
    return make_model(nodes, [("x", [2, c, 12, 12])], [("y", [2, 10])], inits)


@pytest.fixture(scope="module")
def fp16_model(tmp_path_factory):
    model = _model()
    report = compile_model(model, str(tmp_path_factory.mktemp("fp16") / "m"), precision_mode="force_fp16",
                           cache=False)
    x = randn(np.random.default_rng(12), (2, 8, 12, 12))
    (want,) = ort_run(model, {"x": x})
    return report["om_path"], x, want


@pytest.mark.parametrize("winograd", ["0", "all"])
def test_fp16_weights_widened_once_give_the_same_numbers(fp16_model, monkeypatch, winograd):
    om, x, want = fp16_model
    monkeypatch.setenv("ACL_SIM_CONV_WINOGRAD", winograd)
    model = testing_model.Model.from_file(om)
    (first,) = model.run([x])  # widens (and packs) the weights into the node cache
    (second,) = model.run([x])  # reads them from it
    assert first.dtype == np.float32 and first.shape == (2, 10)
    np.testing.assert_allclose(first, want, rtol=2e-2, atol=2e-2)
    np.testing.assert_array_equal(first, second)


def test_fp16_weights_cache_built_once_under_a_race(fp16_model):
    om, x, want = fp16_model
    (alone,) = testing_model.Model.from_file(om).run([x])
    fresh = testing_model.Model.from_file(om)
    for out in run_in_threads(lambda: fresh.run([x])[0], [()] * 3):
        np.testing.assert_array_equal(out, alone)
