"""ATC output runs on the C++ runtime: compile, load through the model loader, execute, match onnxruntime.

Uses acl_sim._core.testing_model (the same Model/GraphExecutor aclmdl uses, without devices): an MLP
(Gemm with fused GELU, LayerNormalization, Softmax, fp16 Casts), the transformer encoder, PP-OCR
det/rec/cls on every dynamic profile, and DenseNet-121.
"""
import math

import numpy as np
import onnx
import pytest
from onnx import helper

from acl_sim._core import testing_model
from acl_sim.compiler import compile_model
from atc_util import make_model, ort_run


def _mlp():
    rng = np.random.default_rng(5)
    f = np.float32
    inits = {"w1": (rng.standard_normal((16, 32)) / 4).astype(f), "b1": rng.standard_normal(32).astype(f),
             "w2": (rng.standard_normal((32, 8)) / 6).astype(f), "b2": rng.standard_normal(8).astype(f),
             "sqrt2": f(math.sqrt(2)), "one": f(1), "half": f(0.5), "two": f(2), "eps": f(1e-5),
             "gamma": (1 + rng.standard_normal(8) / 10).astype(f), "beta": rng.standard_normal(8).astype(f)}
    n = helper.make_node
    nodes = [n("MatMul", ["x", "w1"], ["m1"]), n("Add", ["m1", "b1"], ["h"]),
             n("Div", ["h", "sqrt2"], ["d"]), n("Erf", ["d"], ["e"]), n("Add", ["e", "one"], ["p"]),
             n("Mul", ["h", "p"], ["q"]), n("Mul", ["q", "half"], ["g"]),
             n("MatMul", ["g", "w2"], ["m2"]), n("Add", ["m2", "b2"], ["z"]),
             n("ReduceMean", ["z"], ["mu"], axes=[-1]), n("Sub", ["z", "mu"], ["c"]), n("Pow", ["c", "two"], ["c2"]),
             n("ReduceMean", ["c2"], ["var"], axes=[-1]), n("Add", ["var", "eps"], ["ve"]), n("Sqrt", ["ve"], ["sd"]),
             n("Div", ["c", "sd"], ["nz"]), n("Mul", ["nz", "gamma"], ["sz"]), n("Add", ["sz", "beta"], ["ln"]),
             n("Softmax", ["ln"], ["y"], axis=-1)]
    return make_model(nodes, [("x", ["N", 16])], [("y", None)], inits)


def test_mlp_runs_on_the_runtime(tmp_path):
    model = _mlp()
    report = compile_model(model, str(tmp_path / "mlp"), input_shape="x:-1,16", dynamic_batch_size="1,4",
                           cache=False)
    assert report["op_counts"] == {"Gemm": 2, "LayerNormalization": 1, "Softmax": 1}
    loaded = testing_model.Model.from_file(report["om_path"])
    assert loaded.dynamic()["profiles"] == [[1], [4]]
    for profile, batch in enumerate((1, 4)):
        x = np.random.default_rng(batch).standard_normal((batch, 16)).astype(np.float32)
        (got,) = loaded.run([x], profile)
        (want,) = ort_run(model, {"x": x})
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-6)


def test_mixed_precision_runs_on_the_runtime(tmp_path):
    model = _mlp()
    report = compile_model(model, str(tmp_path / "mix"), input_shape="x:2,16", precision_mode="allow_mix_precision",
                           cache=False)
    assert report["op_counts"]["Cast"] >= 2
    x = np.random.default_rng(0).standard_normal((2, 16)).astype(np.float32)
    (got,) = testing_model.run_om(report["om_path"], [x])
    (want,) = ort_run(model, {"x": x})
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, want, rtol=2e-2, atol=2e-3)


def test_transformer_encoder_runs_on_the_runtime(tmp_path):
    # Reshape views share their input's bytes (in-place) and Gemm carries the fused GELU.
    import models

    for kwargs, feed in (({}, np.random.default_rng(0).standard_normal((1, 16, 64)).astype(np.float32)),
                         ({"with_embeddings": True}, np.random.default_rng(0).integers(0, 100, (1, 16)))):
        model = models.transformer_encoder(**kwargs)
        report = compile_model(model, str(tmp_path / "tfm"), cache=False)
        assert report["memplan"][0]["inplace_count"] > 0
        (got,) = testing_model.run_om(report["om_path"], [feed])
        (want,) = ort_run(model, {model.graph.input[0].name: feed})
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


ZOO_ON_RUNTIME = {
    "ppocr_rec": (dict(input_shape="x:1,3,48,-1", input_format="ND", dynamic_dims="160;320"),
                  [(1, 3, 48, 160), (1, 3, 48, 320)]),
    "ppocr_cls": (dict(input_shape="x:-1,3,48,192", dynamic_batch_size="1,3"), [(1, 3, 48, 192), (3, 3, 48, 192)]),
    "ppocr_det": (dict(input_shape="x:1,3,-1,-1", dynamic_image_size="64,64;96,128"),
                  [(1, 3, 64, 64), (1, 3, 96, 128)]),
    "densenet121": ({}, [(1, 3, 224, 224)]),
}


@pytest.mark.parametrize("name", sorted(ZOO_ON_RUNTIME))
def test_zoo_runs_on_the_runtime(tmp_path, name):
    import models

    path = models.ppocr_models()[name[6:]] if name.startswith("ppocr_") else models.light_model(name)
    options, shapes = ZOO_ON_RUNTIME[name]
    report = compile_model(path, str(tmp_path / name), cache=False, **options)
    loaded = testing_model.Model.from_file(report["om_path"])
    source = onnx.load(path)
    input_name = next(i.name for i in source.graph.input if i.name not in {t.name for t in source.graph.initializer})
    for profile, shape in enumerate(shapes):
        x = np.random.default_rng(profile).standard_normal(shape).astype(np.float32)
        got = loaded.run([x], profile)
        want = ort_run(source, {input_name: x})
        for g, w in zip(got, want):
            np.testing.assert_allclose(g, w, rtol=1e-3, atol=1e-5)


def test_mixed_precision_conv_net_on_the_runtime(tmp_path):
    # allow_mix_precision: the whole conv stack computes in fp16, Softmax stays fp32.
    import models

    path = models.ppocr_models()["cls"]
    report = compile_model(path, str(tmp_path / "cls16"), input_shape="x:2,3,48,192",
                           precision_mode="allow_mix_precision", cache=False)
    assert report["op_counts"]["Cast"] == 2
    x = np.random.default_rng(0).standard_normal((2, 3, 48, 192)).astype(np.float32)
    (got,) = testing_model.run_om(report["om_path"], [x])
    (want,) = ort_run(onnx.load(path), {"x": x})
    np.testing.assert_allclose(got, want, atol=5e-3)
