"""The test model zoo, shared by the ATC, aclmdl and tools tests.

- `light_models()`: the `light_*` models shipped inside the onnx wheel
  (weights are ConstantOfShape nodes, so they are small on disk).
- `ppocr_models()`: the PP-OCRv4 det/rec and the mobile cls model from the
  rapidocr-onnxruntime wheel, downloaded once with `pip download` into
  `models_cache/` (git-ignored) at the repository root.
- `transformer_encoder()`: a small transformer encoder built with
  onnx.helper in the spelling exporters produce (MatMul+Add, the decomposed
  LayerNorm pattern, multi-head attention with Softmax, erf GELU).
"""
from __future__ import annotations

import glob
import os
import subprocess
import sys
import tempfile
import zipfile

import numpy as np

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODELS_CACHE = os.environ.get("ACL_SIM_MODELS_CACHE", os.path.join(REPO_ROOT, "models_cache"))

LIGHT_NAMES = ["bvlc_alexnet", "densenet121", "inception_v1", "inception_v2", "resnet50",
               "shufflenet", "squeezenet", "vgg19", "zfnet512"]

# Files inside the rapidocr-onnxruntime wheel.
_PPOCR_FILES = {
    "det": "rapidocr_onnxruntime/models/ch_PP-OCRv4_det_infer.onnx",
    "rec": "rapidocr_onnxruntime/models/ch_PP-OCRv4_rec_infer.onnx",
    "cls": "rapidocr_onnxruntime/models/ch_ppocr_mobile_v2.0_cls_infer.onnx",
}


def light_dir() -> str:
    import onnx

    return os.path.join(os.path.dirname(onnx.__file__), "backend", "test", "data", "light")


def light_model(name: str) -> str:
    """Path of `light_<name>.onnx` (name without the `light_` prefix)."""
    path = os.path.join(light_dir(), f"light_{name}.onnx")
    if not os.path.exists(path):
        raise FileNotFoundError(path)
    return path


def light_models() -> dict[str, str]:
    """{short name: path} for every light_* model of the installed onnx wheel."""
    found = {}
    for path in sorted(glob.glob(os.path.join(light_dir(), "light_*.onnx"))):
        found[os.path.basename(path)[len("light_"):-len(".onnx")]] = path
    return found


def light_reference_output(name: str) -> np.ndarray:
    """The expected output shipped next to the light model (for shape checks)."""
    import onnx
    from onnx import numpy_helper

    tensor = onnx.TensorProto()
    with open(os.path.join(light_dir(), f"light_{name}_output_0.pb"), "rb") as f:
        tensor.ParseFromString(f.read())
    return numpy_helper.to_array(tensor)


def ppocr_models() -> dict[str, str]:
    """{"det", "rec", "cls": path}; downloads the rapidocr wheel once (needs network the first time)."""
    out_dir = os.path.join(MODELS_CACHE, "ppocr")
    paths = {k: os.path.join(out_dir, os.path.basename(v)) for k, v in _PPOCR_FILES.items()}
    if all(os.path.exists(p) for p in paths.values()):
        return paths
    os.makedirs(out_dir, exist_ok=True)
    wheels = glob.glob(os.path.join(MODELS_CACHE, "rapidocr_onnxruntime-*.whl"))
    if not wheels:
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--quiet",
                        "-d", MODELS_CACHE, "rapidocr-onnxruntime"], check=True, timeout=600)
        wheels = glob.glob(os.path.join(MODELS_CACHE, "rapidocr_onnxruntime-*.whl"))
    with zipfile.ZipFile(sorted(wheels)[-1]) as zf:
        for key, member in _PPOCR_FILES.items():
            # Extract to a temporary name then rename: parallel test workers never see half a file.
            fd, tmp = tempfile.mkstemp(dir=out_dir, suffix=".part")
            with os.fdopen(fd, "wb") as f:
                f.write(zf.read(member))
            os.replace(tmp, paths[key])
    return paths


def transformer_encoder(layers: int = 2, d_model: int = 64, heads: int = 4, d_ff: int = 128,
                        seq: int | str = 16, batch: int | str = 1, with_embeddings: bool = False,
                        vocab: int = 100, seed: int = 0, opset: int = 13):
    """A small post-LN transformer encoder as an onnx ModelProto.

    Input `x` is float32 [batch, seq, d_model], or int64 token ids `input_ids`
    [batch, seq] when `with_embeddings`. `batch`/`seq` may be strings (symbolic
    dims). Output `y` is [batch, seq, d_model]. Reshapes use 0/-1 so the graph
    stays valid for any batch and sequence length.
    """
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(seed)
    nodes, inits = [], []
    counter = [0]

    def name(prefix):
        counter[0] += 1
        return f"{prefix}_{counter[0]}"

    def const(value, prefix="c"):
        n = name(prefix)
        inits.append(numpy_helper.from_array(np.asarray(value), n))
        return n

    def node(op, inputs, prefix=None, **attrs):
        out = name(prefix or op.lower())
        nodes.append(helper.make_node(op, inputs, [out], name=f"/{out}/{op}", **attrs))
        return out

    def linear(x, d_in, d_out):
        w = const((rng.standard_normal((d_in, d_out)) / np.sqrt(d_in)).astype(np.float32), "w")
        b = const((rng.standard_normal(d_out) * 0.1).astype(np.float32), "b")
        return node("Add", [node("MatMul", [x, w]), b])

    def layer_norm(x):
        mean = node("ReduceMean", [x], axes=[-1], keepdims=1)
        centered = node("Sub", [x, mean])
        var = node("ReduceMean", [node("Pow", [centered, const(np.float32(2.0))])], axes=[-1], keepdims=1)
        std = node("Sqrt", [node("Add", [var, const(np.float32(1e-5))])])
        normed = node("Div", [centered, std])
        gamma = const((1 + 0.1 * rng.standard_normal(d_model)).astype(np.float32), "gamma")
        beta = const((0.1 * rng.standard_normal(d_model)).astype(np.float32), "beta")
        return node("Add", [node("Mul", [normed, gamma]), beta])

    def gelu_erf(x):
        inner = node("Erf", [node("Div", [x, const(np.float32(np.sqrt(2.0)))])])
        return node("Mul", [node("Mul", [x, node("Add", [inner, const(np.float32(1.0))])]),
                            const(np.float32(0.5))])

    d_head = d_model // heads
    if with_embeddings:
        ids = "input_ids"
        graph_input = helper.make_tensor_value_info(ids, TensorProto.INT64, [batch, seq])
        table = const((0.5 * rng.standard_normal((vocab, d_model))).astype(np.float32), "embedding")
        x = node("Gather", [table, ids], axis=0)
        seq_len = seq if isinstance(seq, int) else 512
        pos = const((0.1 * rng.standard_normal((1, seq_len, d_model))).astype(np.float32), "position")
        if isinstance(seq, int):
            x = node("Add", [x, pos])
    else:
        graph_input = helper.make_tensor_value_info("x", TensorProto.FLOAT, [batch, seq, d_model])
        x = "x"

    split_shape = const(np.array([0, 0, heads, d_head], dtype=np.int64), "shape")
    merge_shape = const(np.array([0, 0, d_model], dtype=np.int64), "shape")
    scale = const(np.float32(np.sqrt(d_head)))
    for _ in range(layers):
        def heads_of(t):
            return node("Transpose", [node("Reshape", [t, split_shape])], perm=[0, 2, 1, 3])

        q, k, v = (heads_of(linear(x, d_model, d_model)) for _ in range(3))
        scores = node("Div", [node("MatMul", [q, node("Transpose", [k], perm=[0, 1, 3, 2])]), scale])
        probs = node("Softmax", [scores], axis=-1)
        context = node("Reshape", [node("Transpose", [node("MatMul", [probs, v])], perm=[0, 2, 1, 3]),
                                   merge_shape])
        x = layer_norm(node("Add", [x, linear(context, d_model, d_model)]))
        ff = linear(gelu_erf(linear(x, d_model, d_ff)), d_ff, d_model)
        x = layer_norm(node("Add", [x, ff]))
    nodes.append(helper.make_node("Identity", [x], ["y"], name="/output/Identity"))
    graph = helper.make_graph(nodes, "transformer_encoder", [graph_input],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [batch, seq, d_model])],
                              initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)],
                              producer_name="acl_sim tests")
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model


def transformer_encoder_path(**kwargs) -> str:
    """transformer_encoder(**kwargs) saved under models_cache/ (rewritten only when missing)."""
    import onnx

    key = "_".join(f"{k}{v}" for k, v in sorted(kwargs.items())) or "default"
    path = os.path.join(MODELS_CACHE, f"transformer_encoder_{key}.onnx")
    if not os.path.exists(path):
        os.makedirs(MODELS_CACHE, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=MODELS_CACHE, suffix=".part")
        os.close(fd)
        onnx.save(transformer_encoder(**kwargs), tmp)
        os.replace(tmp, path)
    return path
