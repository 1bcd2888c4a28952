"""Ops ATC decomposes into kernel-library ops (passes/lowerings.py): RNN / GRU / LSTM unrolled
over the sequence, training-mode BatchNormalization, QLinearMatMul. Each runs on acl_sim's
runtime and is compared with onnx's NumPy reference evaluator (seeded data)."""
import numpy as np
import pytest
from onnx import TensorProto, helper
from onnx.reference import ReferenceEvaluator

from acl_sim.compiler import CompileError, compile_model
from acl_sim.compiler.om_reader import read_om
from atc_util import make_model


def _compare(model, feeds, rtol=2e-5, atol=2e-6):
    import acl_sim.onnx_backend as backend

    want = ReferenceEvaluator(model).run(None, feeds)
    rep = backend.prepare(model)
    try:
        got = list(rep.run(feeds))
    finally:
        rep.close()
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.shape == w.shape and g.dtype == w.dtype
        if w.dtype.kind == "f":
            np.testing.assert_allclose(g, w, rtol=rtol, atol=atol)
        else:
            np.testing.assert_array_equal(g, w)


CASES = [  # op, gates, attrs, with bias / initial state / peepholes
    ("RNN", 1, {}, False),
    ("RNN", 1, {"direction": "bidirectional"}, True),
    ("GRU", 3, {}, True),
    ("GRU", 3, {"linear_before_reset": 1, "direction": "reverse"}, True),
    ("GRU", 3, {"direction": "bidirectional"}, False),
    ("LSTM", 4, {}, False),
    ("LSTM", 4, {"direction": "bidirectional"}, True),
]


@pytest.mark.parametrize("op,gates,attrs,full", CASES)
def test_recurrent_ops_unroll(op, gates, attrs, full):
    rng = np.random.default_rng(41)
    steps, batch, inp, hidden = 4, 3, 5, 6
    dirs = 2 if attrs.get("direction") == "bidirectional" else 1
    feeds = {"X": rng.standard_normal((steps, batch, inp)).astype(np.float32),
             "W": (0.5 * rng.standard_normal((dirs, gates * hidden, inp))).astype(np.float32),
             "R": (0.5 * rng.standard_normal((dirs, gates * hidden, hidden))).astype(np.float32)}
    inputs = ["X", "W", "R"]
    if full:
        feeds["B"] = (0.3 * rng.standard_normal((dirs, 2 * gates * hidden))).astype(np.float32)
        feeds["initial_h"] = rng.standard_normal((dirs, batch, hidden)).astype(np.float32)
        inputs += ["B", "", "initial_h"]
        if op == "LSTM":
            feeds["initial_c"] = rng.standard_normal((dirs, batch, hidden)).astype(np.float32)
            feeds["P"] = (0.3 * rng.standard_normal((dirs, 3 * hidden))).astype(np.float32)
            inputs += ["initial_c", "P"]
    outputs = ["Y", "Y_h"] + (["Y_c"] if op == "LSTM" else [])
    node = helper.make_node(op, inputs, outputs, hidden_size=hidden, **attrs)
    shapes = {"Y": [steps, dirs, batch, hidden], "Y_h": [dirs, batch, hidden], "Y_c": [dirs, batch, hidden]}
    model = make_model([node], [(k, list(v.shape)) for k, v in feeds.items()], [(o, shapes[o]) for o in outputs],
                       opset=22)
    _compare(model, feeds, rtol=1e-4, atol=1e-5)


def test_recurrent_refusals_name_the_attribute(tmp_path):
    node = helper.make_node("LSTM", ["X", "W", "R"], ["Y"], hidden_size=2, clip=1.0, name="lstm")
    model = make_model([node], [("X", [2, 1, 3]), ("W", [1, 8, 3]), ("R", [1, 8, 2])], [("Y", None)], opset=22)
    with pytest.raises(CompileError, match=r"node 'lstm' \(LSTM, opset 22\): attribute clip is not supported"):
        compile_model(model, str(tmp_path / "m"), cache=False)


def test_batchnorm_training_mode():
    rng = np.random.default_rng(42)
    feeds = {"x": rng.standard_normal((2, 3, 4, 5)).astype(np.float32),
             "s": rng.standard_normal(3).astype(np.float32), "b": rng.standard_normal(3).astype(np.float32),
             "m": rng.standard_normal(3).astype(np.float32), "v": rng.uniform(0.5, 2, 3).astype(np.float32)}
    node = helper.make_node("BatchNormalization", ["x", "s", "b", "m", "v"], ["y", "rm", "rv"], training_mode=1,
                            epsilon=1e-3, momentum=0.8)
    model = make_model([node], [(k, list(v.shape)) for k, v in feeds.items()],
                       [("y", [2, 3, 4, 5]), ("rm", [3]), ("rv", [3])], opset=15)
    _compare(model, feeds, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("qtype", [TensorProto.UINT8, TensorProto.INT8])
@pytest.mark.parametrize("per_axis", [False, True])
def test_qlinear_matmul(tmp_path, qtype, per_axis):
    """Per tensor, and per output column for b (onnx's reference evaluator mis-broadcasts per-row a scales)."""
    rng = np.random.default_rng(43)
    npq = np.uint8 if qtype == TensorProto.UINT8 else np.int8
    info = np.iinfo(npq)
    m, k, n = 3, 7, 4
    feeds = {"a": rng.integers(info.min, info.max, (m, k)).astype(npq),
             "sa": np.array(0.02, np.float32), "za": np.array(128 if npq is np.uint8 else 3, npq),
             "b": rng.integers(info.min, info.max, (k, n)).astype(npq),
             "sb": (rng.uniform(0.01, 0.05, n) if per_axis else np.array(0.03)).astype(np.float32),
             "zb": (np.full(n, 120 if npq is np.uint8 else -2) if per_axis else
                    np.array(120 if npq is np.uint8 else -2)).astype(npq),
             "sy": np.array(0.9, np.float32), "zy": np.array(128 if npq is np.uint8 else 0, npq)}
    node = helper.make_node("QLinearMatMul", ["a", "sa", "za", "b", "sb", "zb", "sy", "zy"], ["y"])
    elem = {"a": qtype, "za": qtype, "b": qtype, "zb": qtype, "zy": qtype}
    model = make_model([node], [(k2, list(v.shape), elem.get(k2, TensorProto.FLOAT)) for k2, v in feeds.items()],
                       [("y", [m, n], qtype)], opset=21)
    _compare(model, feeds)
    report = compile_model(model, str(tmp_path / "q"), cache=False)
    ops = [nd["op"] for nd in read_om(report["om_path"]).profile(0)["nodes"]]
    assert "MatMul" in ops and ops[-1] == "QuantizeLinear"


@pytest.mark.parametrize("equation,shapes,dtype", [
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)], np.float32),   # MatMul path
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)], np.float64),   # broadcast Mul + ReduceSum path
    ("...ii->...i", [(3, 4, 4)], np.float64),               # diagonal under an ellipsis
    ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 2)], np.float32),  # three operands
    ("i,i", [(5,), (5,)], np.float32),                      # implicit output: a scalar
    ("ijk->kj", [(2, 3, 4)], np.float32),                   # sum + transpose
    ("ab,cb->ca", [(3, 4), (5, 4)], np.float16),            # MatMul with a transposed operand
])
def test_einsum(equation, shapes, dtype):
    rng = np.random.default_rng(44)
    names = [f"x{k}" for k in range(len(shapes))]
    feeds = {n: rng.standard_normal(s).astype(dtype) for n, s in zip(names, shapes)}
    want = np.einsum(equation, *[v.astype(np.float64) for v in feeds.values()])
    elem = {np.float32: TensorProto.FLOAT, np.float64: TensorProto.DOUBLE, np.float16: TensorProto.FLOAT16}[dtype]
    node = helper.make_node("Einsum", names, ["y"], equation=equation)
    model = make_model([node], [(n, list(s), elem) for n, s in zip(names, shapes)], [("y", list(want.shape), elem)],
                       opset=12)
    _compare(model, feeds, rtol=2e-3 if dtype == np.float16 else 1e-5, atol=2e-3 if dtype == np.float16 else 1e-5)


def _ml_model(node, inputs, outputs):
    graph = helper.make_graph([node], "ml", inputs, outputs)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid("ai.onnx.ml", 3)])
    model.ir_version = 8
    return model


@pytest.mark.parametrize("dtype,elem", [(np.float32, TensorProto.FLOAT), (np.float64, TensorProto.DOUBLE)])
def test_ml_binarizer(dtype, elem):
    node = helper.make_node("Binarizer", ["X"], ["Y"], domain="ai.onnx.ml", threshold=0.25)
    model = _ml_model(node, [helper.make_tensor_value_info("X", elem, [4, 33])],
                      [helper.make_tensor_value_info("Y", elem, [4, 33])])
    x = np.random.default_rng(43).standard_normal((4, 33)).astype(dtype)
    x[0, :3] = 0.25  # at the threshold: 0
    _compare(model, {"X": x})


@pytest.mark.parametrize("shape", [(3, 7), (2, 3, 5), (6,)])
def test_ml_array_feature_extractor(shape):
    node = helper.make_node("ArrayFeatureExtractor", ["X", "I"], ["Z"], domain="ai.onnx.ml")
    k = 4
    out = list(shape[:-1]) + [k] if len(shape) > 1 else [1, k]
    model = _ml_model(node, [helper.make_tensor_value_info("X", TensorProto.FLOAT, list(shape)),
                             helper.make_tensor_value_info("I", TensorProto.INT64, [k])],
                      [helper.make_tensor_value_info("Z", TensorProto.FLOAT, out)])
    rng = np.random.default_rng(44)
    feeds = {"X": rng.standard_normal(shape).astype(np.float32),
             "I": rng.integers(0, shape[-1], size=k).astype(np.int64)}
    _compare(model, feeds)


def test_ml_unsupported_op_names_node():
    from acl_sim.compiler import node_check

    node = helper.make_node("LinearClassifier", ["X"], ["Y", "Z"], domain="ai.onnx.ml", coefficients=[1.0, 2.0],
                            classlabels_ints=[0, 1])
    model = _ml_model(node, [helper.make_tensor_value_info("X", TensorProto.FLOAT, [2, 1])],
                      [helper.make_tensor_value_info("Y", TensorProto.INT64, [2]),
                       helper.make_tensor_value_info("Z", TensorProto.FLOAT, [2, 2])])
    lines = node_check.unsupported_nodes(model)
    assert len(lines) == 1 and "ai.onnx.ml.LinearClassifier" in lines[0] and "not supported" in lines[0]


@pytest.mark.parametrize("per_channel,with_bias", [(False, False), (True, True)])
def test_qlinear_conv_lowering(per_channel, with_bias):
    from onnx import numpy_helper

    rng = np.random.default_rng(45)
    M, C = 4, 3
    x = rng.integers(0, 256, (2, C, 9, 8)).astype(np.uint8)
    w = rng.integers(0, 256, (M, C, 3, 3)).astype(np.uint8)
    ws = (rng.uniform(0.001, 0.004, M) if per_channel else np.array([0.002])).astype(np.float32)
    wz = (rng.integers(100, 150, M) if per_channel else np.array([128])).astype(np.uint8)
    inits = [numpy_helper.from_array(np.array(0.02, np.float32), "xs"), numpy_helper.from_array(np.array(7, np.uint8), "xz"),
             numpy_helper.from_array(w, "w"), numpy_helper.from_array(ws, "ws"), numpy_helper.from_array(wz, "wz"),
             numpy_helper.from_array(np.array(0.05, np.float32), "ys"), numpy_helper.from_array(np.array(120, np.uint8), "yz")]
    names = ["x", "xs", "xz", "w", "ws", "wz", "ys", "yz"]
    if with_bias:
        inits.append(numpy_helper.from_array(rng.integers(-2000, 2000, M).astype(np.int32), "b"))
        names.append("b")
    node = helper.make_node("QLinearConv", names, ["y"], pads=[1, 1, 1, 1], strides=[1, 2])
    graph = helper.make_graph([node], "qconv", [helper.make_tensor_value_info("x", TensorProto.UINT8, [2, C, 9, 8])],
                              [helper.make_tensor_value_info("y", TensorProto.UINT8, [2, M, 9, 4])], initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    import acl_sim.onnx_backend as backend
    import onnxruntime as ort

    want = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
    rep = backend.prepare(model)
    try:
        got = rep.run({"x": x})[0]
    finally:
        rep.close()
    assert got.dtype == np.uint8 and got.shape == want.shape
    # Requantisation rounds once; a tie may land one step apart from onnxruntime's fixed-point path.
    assert np.abs(got.astype(np.int32) - want.astype(np.int32)).max() <= 1
    assert np.mean(got == want) > 0.99


def _random_forest(rng, n_features, n_targets, trees, depth):
    """TreeEnsemble attributes for `trees` full binary trees of `depth` levels (nodes then leaves)."""
    a = {k: [] for k in ("nodes_featureids", "nodes_modes", "nodes_splits", "nodes_truenodeids", "nodes_falsenodeids",
                         "nodes_trueleafs", "nodes_falseleafs", "nodes_missing_value_tracks_true", "leaf_targetids",
                         "leaf_weights", "tree_roots")}
    members = []
    for _ in range(trees):
        base = len(a["nodes_modes"])
        a["tree_roots"].append(base)
        inner = 2 ** depth - 1
        for k in range(inner):
            mode = int(rng.integers(0, 7))
            a["nodes_modes"].append(mode)
            a["nodes_featureids"].append(int(rng.integers(0, n_features)))
            a["nodes_splits"].append(float(rng.integers(-3, 4)) if mode in (4, 5) else float(rng.uniform(-1, 1)))
            if mode == 6:
                members += [float(v) for v in rng.integers(1, 4, size=2)] + [np.nan]
            a["nodes_missing_value_tracks_true"].append(int(rng.integers(0, 2)))
            for side, child in (("true", 2 * k + 1), ("false", 2 * k + 2)):
                if child < inner:
                    a[f"nodes_{side}nodeids"].append(base + child)
                    a[f"nodes_{side}leafs"].append(0)
                else:
                    a[f"nodes_{side}nodeids"].append(len(a["leaf_weights"]))
                    a[f"nodes_{side}leafs"].append(1)
                    a["leaf_weights"].append(float(rng.uniform(-2, 2)))
                    a["leaf_targetids"].append(int(rng.integers(0, n_targets)))
    return a, members


@pytest.mark.parametrize("aggregate", [0, 1, 2, 3])
@pytest.mark.parametrize("elem", [TensorProto.FLOAT, TensorProto.DOUBLE])
def test_ml_tree_ensemble(aggregate, elem):
    from onnx import numpy_helper

    rng = np.random.default_rng(46 + aggregate)
    dtype = np.float32 if elem == TensorProto.FLOAT else np.float64
    F, T, N = 4, 3, 257
    a, members = _random_forest(rng, F, T, trees=5, depth=3)
    attrs = dict(a)
    attrs["nodes_modes"] = numpy_helper.from_array(np.array(a["nodes_modes"], np.uint8), "nodes_modes")
    attrs["nodes_splits"] = numpy_helper.from_array(np.array(a["nodes_splits"], dtype), "nodes_splits")
    attrs["leaf_weights"] = numpy_helper.from_array(np.array(a["leaf_weights"], dtype), "leaf_weights")
    if members:
        attrs["membership_values"] = numpy_helper.from_array(np.array(members, dtype), "membership_values")
    node = helper.make_node("TreeEnsemble", ["X"], ["Y"], domain="ai.onnx.ml", n_targets=T,
                            aggregate_function=aggregate, post_transform=0, **attrs)
    graph = helper.make_graph([node], "forest", [helper.make_tensor_value_info("X", elem, [N, F])],
                              [helper.make_tensor_value_info("Y", elem, [N, T])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21), helper.make_opsetid("ai.onnx.ml", 5)])
    model.ir_version = 10
    x = np.where(rng.random((N, F)) < 0.3, rng.integers(-3, 4, (N, F)), rng.uniform(-1.5, 1.5, (N, F))).astype(dtype)
    x[::17, 1] = np.nan
    _compare(model, {"X": x}, rtol=1e-6, atol=1e-6)


def test_ml_tree_ensemble_post_transform_refused(tmp_path):
    node = helper.make_node("TreeEnsemble", ["X"], ["Y"], domain="ai.onnx.ml", n_targets=1, post_transform=2,
                            nodes_featureids=[0], nodes_modes=helper.make_tensor("m", TensorProto.UINT8, [1], [0]),
                            nodes_splits=helper.make_tensor("s", TensorProto.FLOAT, [1], [0.0]),
                            nodes_truenodeids=[0], nodes_falsenodeids=[1], nodes_trueleafs=[1], nodes_falseleafs=[1],
                            leaf_targetids=[0, 0], leaf_weights=helper.make_tensor("w", TensorProto.FLOAT, [2], [1, 2]),
                            tree_roots=[0])
    model = _ml_model(node, [helper.make_tensor_value_info("X", TensorProto.FLOAT, [2, 1])],
                      [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [2, 1])])
    with pytest.raises(CompileError, match="post_transform=2 is not supported"):
        compile_model(model, str(tmp_path / "forest"), cache=False)


def test_ml_tree_ensemble_on_a_constant_input_runs_on_the_device():
    from onnx import numpy_helper

    a, _ = _random_forest(np.random.default_rng(47), 2, 2, trees=2, depth=2)
    a = {k: v for k, v in a.items()}
    a["nodes_modes"] = numpy_helper.from_array(np.array([m if m != 6 else 0 for m in a["nodes_modes"]], np.uint8))
    a["nodes_splits"] = numpy_helper.from_array(np.array(a["nodes_splits"], np.float32))
    a["leaf_weights"] = numpy_helper.from_array(np.array(a["leaf_weights"], np.float32))
    node = helper.make_node("TreeEnsemble", ["C"], ["T"], domain="ai.onnx.ml", n_targets=2, **a)
    add = helper.make_node("Add", ["T", "X"], ["Y"])
    c = np.random.default_rng(48).uniform(-1, 1, (3, 2)).astype(np.float32)
    graph = helper.make_graph([node, add], "forest_c", [helper.make_tensor_value_info("X", TensorProto.FLOAT, [3, 2])],
                              [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [3, 2])],
                              initializer=[numpy_helper.from_array(c, "C")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21), helper.make_opsetid("ai.onnx.ml", 5)])
    model.ir_version = 10
    _compare(model, {"X": np.ones((3, 2), np.float32)}, rtol=1e-6, atol=1e-6)
