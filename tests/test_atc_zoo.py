"""The model zoo compiles; every plan is within 5% of its lower bound; outputs match onnxruntime."""
import numpy as np
import onnx
import pytest

import models
from acl_sim.compiler import compile_model
from acl_sim.compiler.om_reader import read_om
from atc_util import check_plan_sound, compile_and_compare, ort_run
from acl_sim.compiler.om_to_onnx import to_onnx

PLAN_BAR = 1.05


def _check_plans(report, om=None):
    if om is None:
        om = read_om(report["om_path"])
    for profile in range(len(om.graph["profiles"])):
        check_plan_sound(om, profile)
    for plan in report["memplan"]:
        assert plan["lower_bound_bytes"] > 0
        assert plan["planned_bytes"] <= PLAN_BAR * plan["lower_bound_bytes"], plan
        assert plan["planned_bytes"] <= plan["naive_bytes"]


@pytest.mark.parametrize("name", models.LIGHT_NAMES)
def test_light_model_compiles(tmp_path, name):
    report = compile_model(models.light_model(name), str(tmp_path / name), soc_version="Ascend910B1", cache=False)
    om = read_om(report["om_path"])
    _check_plans(report, om)
    expected = models.light_reference_output(name)
    assert om.iodesc["outputs"][0]["dims"] == list(expected.shape)
    ops = {n["op"] for n in om.profile(0)["nodes"]}
    assert "ConstantOfShape" not in ops and "BatchNormalization" not in ops or name == "densenet121"
    if name in ("resnet50", "squeezenet"):
        # The light weights are constants, so the source model is cheap to run: compare numerically.
        inp = om.iodesc["inputs"][0]
        x = np.random.default_rng(0).standard_normal(inp["dims"]).astype(np.float32)
        got = ort_run(to_onnx(om), {inp["name"]: x})[0]
        np.testing.assert_allclose(got, ort_run(onnx.load(models.light_model(name)), {inp["name"]: x})[0],
                                   rtol=1e-4, atol=1e-6)


def test_resnet50_fuses_bn_relu_and_residual(tmp_path):
    report = compile_model(models.light_model("resnet50"), str(tmp_path / "r50"), cache=False)
    counts = report["op_counts"]
    assert counts["Conv"] == 53 and "BatchNormalization" not in counts
    # The 16 residual Adds and the Relus after them ride on the block's last Conv (fuse_residual).
    assert counts.get("Relu", 0) == 0 and counts.get("Add", 0) == 0, counts
    assert sum(e.get("fused", 0) for e in report["passes"] if e["pass"] == "fuse_residual") == 16


@pytest.fixture(scope="module")
def ppocr():
    return models.ppocr_models()


def _rand(shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def test_ppocr_det_dynamic_image_size(tmp_path, ppocr):
    feeds = [{"x": _rand((1, 3, 64, 64))}, {"x": _rand((1, 3, 96, 128), 1)}]
    report, om = compile_and_compare(ppocr["det"], tmp_path, feeds, name="det", rtol=1e-3, atol=1e-4,
                                     input_shape="x:1,3,-1,-1", dynamic_image_size="64,64;96,128")
    _check_plans(report, om)
    assert om.iodesc["dynamic"]["kind"] == "hw" and om.iodesc["inputs"][0]["dims"] == [1, 3, -1, -1]
    assert om.iodesc["outputs"][0]["dims"] == [1, 1, 96, 128]
    acts = {n["attrs"].get("activation") for n in om.profile(0)["nodes"]}
    assert {"HardSwish", "HardSigmoid", "Relu"} <= acts


def test_ppocr_rec_dynamic_dims(tmp_path, ppocr):
    feeds = [{"x": _rand((1, 3, 48, 160))}, {"x": _rand((1, 3, 48, 320), 1)}]
    report, om = compile_and_compare(ppocr["rec"], tmp_path, feeds, name="rec", rtol=1e-3, atol=1e-5,
                                     input_shape="x:1,3,48,-1", input_format="ND", dynamic_dims="160;320")
    _check_plans(report, om)
    assert om.iodesc["dynamic"]["profiles"] == [[160], [320]]
    ops = [n["op"] for n in om.profile(0)["nodes"]]
    assert ops.count("LayerNormalization") == 5 and "Shape" not in ops and "Gemm" in ops


def test_ppocr_cls_dynamic_batch(tmp_path, ppocr):
    feeds = [{"x": _rand((1, 3, 48, 192))}, {"x": _rand((6, 3, 48, 192), 1)}]
    report, om = compile_and_compare(ppocr["cls"], tmp_path, feeds, name="cls", rtol=1e-3, atol=1e-5,
                                     input_shape="x:-1,3,48,192", dynamic_batch_size="1,6")
    _check_plans(report, om)
    assert om.iodesc["outputs"][0]["dims"] == [6, 2]


@pytest.mark.parametrize("kwargs", [{}, {"with_embeddings": True}])
def test_transformer_encoder(tmp_path, kwargs):
    model = models.transformer_encoder(**kwargs)
    rng = np.random.default_rng(3)
    feed = {"input_ids": rng.integers(0, 100, (1, 16)).astype(np.int64)} if kwargs else \
        {"x": rng.standard_normal((1, 16, 64)).astype(np.float32)}
    report, om = compile_and_compare(model, tmp_path, [feed], name="tfm", rtol=1e-4, atol=1e-5)
    _check_plans(report, om)
    counts = report["op_counts"]
    assert counts["LayerNormalization"] == 4 and counts["Softmax"] == 2 and counts["Gemm"] == 12
    assert "Erf" not in counts and "ReduceMean" not in counts
    assert sum(1 for n in om.profile(0)["nodes"] if n["attrs"].get("activation") == "Gelu") == 2


def test_transformer_dynamic_batch(tmp_path):
    model = models.transformer_encoder(batch="B")
    feeds = [{"x": _rand((b, 16, 64), b)} for b in (1, 4)]
    report, om = compile_and_compare(model, tmp_path, feeds, name="tfmb", rtol=1e-4, atol=1e-5,
                                     input_shape="x:-1,16,64", dynamic_batch_size="1,4")
    _check_plans(report, om)
