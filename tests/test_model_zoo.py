"""Model numerics against onnxruntime (issue 5 §3), through the C++ Model /
GraphExecutor (acl_sim._core.testing_model, host memory).

- the 9 light_* models of the onnx wheel with seeded random weights in place
  of their ConstantOfShape constants; the logits entering the final Softmax
  are an extra output, and every output is compared;
- PP-OCRv4 det (1x3x640x640), rec (1x3x48x320), cls (batch 8);
- a small transformer encoder;
- every profile of models compiled with dynamic batch and dynamic dims.

fp32 tolerance: logits and other real-valued outputs: max |ours - ort| <= 1e-4 * max |ort|;
probabilities (Softmax/Sigmoid outputs, in [0, 1]): max |ours - ort| <= 1e-4. The tensor
entering each final Softmax/Sigmoid is added as an extra output so the logits are always checked.
Compiled .om files are cached by the ATC compile cache, so reruns are quick.
"""
import os

import numpy as np
import pytest

import models
import model_zoo_random as zoo
from acl_sim import _core
from acl_sim.compiler import compile_model

tm = _core.testing_model
RTOL = 1e-4
OM_DIR = os.path.join(models.MODELS_CACHE, "om")


def ort_session(path_or_proto):
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.log_severity_level = 3
    opts.intra_op_num_threads = os.cpu_count() or 1
    data = path_or_proto if isinstance(path_or_proto, (str, bytes)) else path_or_proto.SerializeToString()
    return ort.InferenceSession(data, opts, providers=["CPUExecutionProvider"])


def compile_to_cache(onnx_path, tag, **options):
    """Compile through ATC (its compile cache makes repeats near instant) to models_cache/om/<tag>.om."""
    report = compile_model(onnx_path, os.path.join(OM_DIR, tag), **options)
    return report["om_path"]


def assert_close(ours, ref, what, probability=False):
    assert ours.shape == ref.shape, f"{what}: shape {ours.shape} != {ref.shape}"
    if ref.dtype.kind == "f":
        scale = 1.0 if probability else max(float(np.abs(ref).max()), 1e-6)
        err = float(np.abs(ours.astype(np.float64) - ref).max()) / scale
        assert err <= RTOL, f"{what}: max relative error {err:.2e} > {RTOL:.0e}"
    else:
        np.testing.assert_array_equal(ours, ref, err_msg=what)


def compare(om_path, onnx_model, feeds, profile=0, model=None):
    """Run the .om and onnxruntime on `feeds` ({name: array}) and compare every output by name."""
    import onnx

    model = model or tm.Model.from_file(om_path)
    proto = onnx.load(onnx_model) if isinstance(onnx_model, str) else onnx_model
    probabilities = zoo.probability_outputs(proto)
    sess = ort_session(onnx_model)
    ref = dict(zip([o.name for o in sess.get_outputs()], sess.run(None, feeds)))
    names = [d["name"] for d in model.inputs() if d["name"] != "ascend_mbatch_shape_data"]
    ours = model.run([feeds[n] for n in names], profile=profile)
    out_names = [d["name"] for d in model.outputs()]
    assert set(out_names) == set(ref), (out_names, list(ref))
    for name, value in zip(out_names, ours):
        assert_close(value, ref[name], f"{os.path.basename(om_path)} profile {profile} output {name}",
                     probability=name in probabilities)
    assert len(out_names) > len(probabilities), "no logits output was compared"
    return ours


@pytest.mark.parametrize("name", models.LIGHT_NAMES)
def test_light_model_with_random_weights(name):
    import onnx

    path = zoo.light_random_path(name)
    onnx_model = onnx.load(path)
    (inp, shape, dtype), = zoo.graph_inputs(onnx_model)
    x = np.random.default_rng(1).standard_normal(shape).astype(dtype)
    om = compile_to_cache(path, f"light_{name}_seed0")
    outs = compare(om, path, {inp: x})
    # The random weights make the outputs informative: not flat.
    assert all(float(np.std(o)) > 0 for o in outs)


@pytest.fixture(scope="module")
def ppocr():
    return models.ppocr_models()


@pytest.mark.parametrize("kind,shape", [("det", [1, 3, 640, 640]), ("rec", [1, 3, 48, 320]), ("cls", [8, 3, 48, 192])])
def test_ppocr_v4(ppocr, kind, shape):
    import onnx

    path = zoo.with_logits_path(ppocr[kind])
    onnx_model = onnx.load(path)
    (inp, _, dtype), = zoo.graph_inputs(onnx_model)
    om = compile_to_cache(path, f"ppocr_{kind}_logits_{'x'.join(map(str, shape))}",
                          input_shape=f"{inp}:{','.join(map(str, shape))}")
    x = np.random.default_rng(2).uniform(-1, 1, shape).astype(dtype)
    compare(om, path, {inp: x})


def test_transformer_encoder():
    path = models.transformer_encoder_path()
    om = compile_to_cache(path, "transformer_encoder")
    x = np.random.default_rng(3).standard_normal((1, 16, 64)).astype(np.float32)
    compare(om, path, {"x": x})


def test_dynamic_batch_every_profile():
    path = models.transformer_encoder_path(batch="N", seq=16)
    om = compile_to_cache(path, "transformer_encoder_dynbatch", input_shape="x:-1,16,64",
                          dynamic_batch_size="1,2,4")
    model = tm.Model.from_file(om)
    assert model.profile_count == 3 and model.dynamic()["kind"] == "batch"
    for p, b in enumerate([1, 2, 4]):
        x = np.random.default_rng(p).standard_normal((b, 16, 64)).astype(np.float32)
        compare(om, path, {"x": x}, profile=p, model=model)


def test_dynamic_dims_every_profile():
    path = models.transformer_encoder_path(batch="N", seq="S")
    om = compile_to_cache(path, "transformer_encoder_dyndims", input_shape="x:-1,-1,64",
                          dynamic_dims="1,8;2,16;1,32", input_format="ND")
    model = tm.Model.from_file(om)
    assert model.profile_count == 3 and model.dynamic()["kind"] == "dims"
    for p, (b, s) in enumerate([(1, 8), (2, 16), (1, 32)]):
        assert model.input_dims(p)[0] == [b, s, 64]
        x = np.random.default_rng(p).standard_normal((b, s, 64)).astype(np.float32)
        compare(om, path, {"x": x}, profile=p, model=model)
