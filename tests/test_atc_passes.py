"""One test per ATC pass on a tiny graph: the rewrite happens, it is in the report, numerics hold (onnxruntime)."""
import math

import numpy as np
import pytest
from onnx import TensorProto, helper

from atc_util import compile_and_compare, make_model, ops_of, pass_stats

RNG = np.random.default_rng(7)


def randn(*shape, scale=1.0):
    return (RNG.standard_normal(shape) * scale).astype(np.float32)


def conv_model(tail_nodes, tail_inits=None, out="y", channels=4, opset=13):
    """x[1,3,8,8] -> Conv(4 out) -> c, followed by `tail_nodes` producing `out`."""
    inits = {"w": randn(channels, 3, 3, 3, scale=0.3), "b": randn(channels, scale=0.1)}
    inits.update(tail_inits or {})
    nodes = [helper.make_node("Conv", ["x", "w", "b"], ["c"], name="conv", pads=[1, 1, 1, 1])] + tail_nodes
    return make_model(nodes, [("x", [1, 3, 8, 8])], [(out, None)], inits, opset=opset)


def test_normalize_legacy_softmax_clip_and_upsample(tmp_path):
    # opset 9: Softmax(axis=1) on a 4-D tensor flattens; Clip has attrs; Upsample has a scales input.
    nodes = [helper.make_node("Clip", ["x"], ["c"], name="clip", min=-0.5, max=0.7),
             helper.make_node("Upsample", ["c", "scales"], ["u"], name="up", mode="nearest"),
             helper.make_node("Softmax", ["u"], ["y"], name="sm", axis=1)]
    model = make_model(nodes, [("x", [1, 2, 3, 4])], [("y", None)],
                       {"scales": np.array([1, 1, 2, 2], np.float32)}, opset=9)
    x = randn(1, 2, 3, 4)
    report, om = compile_and_compare(model, tmp_path, [{"x": x}])
    assert pass_stats(report, "normalize")["rewritten"] >= 3
    ops = ops_of(om)
    assert "Upsample" not in ops and "Resize" in ops and "Softmax" in ops
    clip = next(n for n in om.profile(0)["nodes"] if n["op"] == "Clip")
    assert len(clip["inputs"]) == 3 and "min" not in clip["attrs"]
    assert om.meta["opset"] == 17


def test_const_fold_shape_chains(tmp_path):
    # Shape -> Gather -> Unsqueeze -> Concat -> Reshape, and a ConstantOfShape weight.
    nodes = [helper.make_node("Shape", ["x"], ["s"]),
             helper.make_node("Gather", ["s", "zero"], ["n"], axis=0),
             helper.make_node("Unsqueeze", ["n", "axes0"], ["n1"]),
             helper.make_node("Concat", ["n1", "minus1"], ["shape"], axis=0),
             helper.make_node("Reshape", ["x", "shape"], ["flat"]),
             helper.make_node("ConstantOfShape", ["wshape"], ["w"],
                              value=helper.make_tensor("v", TensorProto.FLOAT, [1], [0.5])),
             helper.make_node("MatMul", ["flat", "w"], ["y"])]
    inits = {"zero": np.array(0, np.int64), "axes0": np.array([0], np.int64), "minus1": np.array([-1], np.int64),
             "wshape": np.array([24, 5], np.int64)}
    model = make_model(nodes, [("x", [2, 3, 8])], [("y", None)], inits)
    report, om = compile_and_compare(model, tmp_path, [{"x": randn(2, 3, 8)}])
    assert pass_stats(report, "const_fold")["folded"] >= 1  # ConstantOfShape (shape-free)
    assert pass_stats(report, "shape_infer")["folded"] >= 4  # Shape/Gather/Unsqueeze/Concat
    assert ops_of(om) == ["Reshape", "MatMul"]


def test_shape_infer_per_profile(tmp_path):
    # The same Shape chain folds to a different constant per dynamic-batch profile.
    nodes = [helper.make_node("Shape", ["x"], ["s"]),
             helper.make_node("Slice", ["s", "st", "en"], ["lead"]),
             helper.make_node("Concat", ["lead", "minus1"], ["shape"], axis=0),
             helper.make_node("Reshape", ["x", "shape"], ["r"]),
             helper.make_node("Relu", ["r"], ["y"])]
    inits = {"st": np.array([0], np.int64), "en": np.array([1], np.int64), "minus1": np.array([-1], np.int64)}
    model = make_model(nodes, [("x", ["N", 3, 4])], [("y", None)], inits)
    report, om = compile_and_compare(model, tmp_path, [{"x": randn(1, 3, 4)}, {"x": randn(3, 3, 4)}],
                                     input_shape="x:-1,3,4", dynamic_batch_size="1,3")
    shapes = [[t["shape"] for t in om.profile(p)["tensors"] if t["kind"] == "output"][0] for p in (0, 1)]
    assert shapes == [[1, 12], [3, 12]]
    assert om.iodesc["outputs"][0]["dims"] == [3, 12]
    assert pass_stats(report, "shape_infer", 1)["inferred"] >= 1


def test_dce_removes_unused_branch(tmp_path):
    nodes = [helper.make_node("Relu", ["x"], ["y"]), helper.make_node("Sigmoid", ["x"], ["unused"]),
             helper.make_node("Exp", ["unused"], ["unused2"])]
    model = make_model(nodes, [("x", [4])], [("y", None)])
    report, om = compile_and_compare(model, tmp_path, [{"x": randn(4)}])
    assert ops_of(om) == ["Relu"]
    assert sum(e["removed_nodes"] for e in report["passes"] if e["pass"] == "dce") == 2


def test_simplify_merges_views(tmp_path):
    nodes = [helper.make_node("Flatten", ["x"], ["f"], axis=1), helper.make_node("Unsqueeze", ["f", "ax"], ["u"]),
             helper.make_node("Reshape", ["u", "same"], ["r"]), helper.make_node("Relu", ["r"], ["y"])]
    inits = {"ax": np.array([0], np.int64), "same": np.array([1, 2, 12], np.int64)}
    model = make_model(nodes, [("x", [2, 3, 4])], [("y", None)], inits)
    report, om = compile_and_compare(model, tmp_path, [{"x": randn(2, 3, 4)}])
    assert ops_of(om) == ["Reshape", "Relu"]
    assert pass_stats(report, "simplify")["views_canonicalised"] == 2


def test_fold_bn_into_conv_and_scale_layers(tmp_path):
    c = 4
    bn = {"g": randn(c) + 1, "be": randn(c), "mu": randn(c), "var": np.abs(randn(c)) + 0.5}
    tail = [helper.make_node("BatchNormalization", ["c", "g", "be", "mu", "var"], ["bn"], epsilon=1e-3),
            helper.make_node("Mul", ["bn", "scale"], ["m"]), helper.make_node("Add", ["m", "shift"], ["y"])]
    model = conv_model(tail, dict(bn, scale=randn(c, 1, 1), shift=randn(1, c, 1, 1)))
    report, om = compile_and_compare(model, tmp_path, [{"x": randn(1, 3, 8, 8)}])
    stats = pass_stats(report, "fold_bn")
    assert stats["bn_folded"] == 1 and stats["affine_folded"] == 2
    assert ops_of(om) == ["Conv"]
    assert om.profile(0)["nodes"][0]["sources"] == ["conv", "BatchNormalization_1", "Mul_2", "Add_3"]


def test_fold_bn_into_gemm(tmp_path):
    n = 6
    bn = {"g": randn(n) + 1, "be": randn(n), "mu": randn(n), "var": np.abs(randn(n)) + 0.5}
    nodes = [helper.make_node("Gemm", ["x", "w", "b"], ["g0"], transB=1),
             helper.make_node("BatchNormalization", ["g0", "g", "be", "mu", "var"], ["y"])]
    model = make_model(nodes, [("x", [3, 5])], [("y", None)], dict(bn, w=randn(n, 5), b=randn(n)))
    report, om = compile_and_compare(model, tmp_path, [{"x": randn(3, 5)}])
    assert ops_of(om) == ["Gemm"]


def test_matmul_add_to_gemm_3d(tmp_path):
    nodes = [helper.make_node("MatMul", ["x", "w"], ["m"]), helper.make_node("Add", ["m", "b"], ["y"])]
    model = make_model(nodes, [("x", [2, 5, 8])], [("y", None)], {"w": randn(8, 6), "b": randn(6)})
    report, om = compile_and_compare(model, tmp_path, [{"x": randn(2, 5, 8)}])
    assert pass_stats(report, "matmul_add_to_gemm")["rewritten"] == 1
    assert ops_of(om) == ["Reshape", "Gemm", "Reshape"]


def test_layernorm_pattern(tmp_path):
    nodes = [helper.make_node("ReduceMean", ["x"], ["mean"], axes=[-1]),
             helper.make_node("Sub", ["x", "mean"], ["d"]),
             helper.make_node("Pow", ["d", "two"], ["sq"]),
             helper.make_node("ReduceMean", ["sq"], ["var"], axes=[-1]),
             helper.make_node("Add", ["var", "eps"], ["ve"]),
             helper.make_node("Sqrt", ["ve"], ["std"]),
             helper.make_node("Div", ["d", "std"], ["n"]),
             helper.make_node("Mul", ["n", "gamma"], ["s"]),
             helper.make_node("Add", ["s", "beta"], ["y"])]
    inits = {"two": np.float32(2), "eps": np.float32(1e-5), "gamma": randn(16) + 1, "beta": randn(16)}
    model = make_model(nodes, [("x", [2, 3, 16])], [("y", None)], inits)
    report, om = compile_and_compare(model, tmp_path, [{"x": randn(2, 3, 16)}])
    assert pass_stats(report, "layernorm_pattern")["layernorms"] == 1
    assert ops_of(om) == ["LayerNormalization"]
    ln = om.profile(0)["nodes"][0]
    assert ln["attrs"]["axis"] == 2 and abs(ln["attrs"]["epsilon"] - 1e-5) < 1e-9


def _act(name, x, y, **kw):
    return helper.make_node(name, [x], [y], **kw)


ACTIVATIONS = {
    "Relu": ([_act("Relu", "c", "y")], {}, None),
    "Relu6": ([helper.make_node("Clip", ["c", "lo", "hi"], ["y"])], {"lo": np.float32(0), "hi": np.float32(6)},
              ("Clip", 0.0, 6.0)),
    "Sigmoid": ([_act("Sigmoid", "c", "y")], {}, None),
    "HardSigmoid": ([_act("HardSigmoid", "c", "y", alpha=0.2, beta=0.5)], {}, ("HardSigmoid", 0.2, 0.5)),
    "HardSwish": ([_act("HardSigmoid", "c", "h", alpha=1 / 6, beta=0.5), helper.make_node("Mul", ["c", "h"], ["y"])],
                  {}, None),
    "HardSwishPPOCR": ([helper.make_node("Add", ["c", "three"], ["a"]),
                        helper.make_node("Clip", ["a", "zero", "six"], ["cl"]),
                        helper.make_node("Mul", ["c", "cl"], ["m"]), helper.make_node("Div", ["m", "six"], ["y"])],
                       {"three": np.float32(3), "zero": np.float32(0), "six": np.float32(6)}, ("HardSwish",)),
    "Silu": ([_act("Sigmoid", "c", "s"), helper.make_node("Mul", ["c", "s"], ["y"])], {}, None),
    "GeluErf": ([helper.make_node("Div", ["c", "sqrt2"], ["d"]), _act("Erf", "d", "e"),
                 helper.make_node("Add", ["e", "one"], ["p"]), helper.make_node("Mul", ["c", "p"], ["q"]),
                 helper.make_node("Mul", ["q", "half"], ["y"])],
                {"sqrt2": np.float32(math.sqrt(2)), "one": np.float32(1), "half": np.float32(0.5)}, ("Gelu",)),
    "GeluTanh": ([helper.make_node("Pow", ["c", "three"], ["c3"]), helper.make_node("Mul", ["k", "c3"], ["t"]),
                  helper.make_node("Add", ["c", "t"], ["i"]), helper.make_node("Mul", ["i", "s2pi"], ["z"]),
                  _act("Tanh", "z", "th"), helper.make_node("Add", ["th", "one"], ["p"]),
                  helper.make_node("Mul", ["half", "c"], ["hx"]), helper.make_node("Mul", ["hx", "p"], ["y"])],
                 {"three": np.float32(3), "k": np.float32(0.044715), "s2pi": np.float32(math.sqrt(2 / math.pi)),
                  "one": np.float32(1), "half": np.float32(0.5)}, ("GeluTanh",)),
}


@pytest.mark.parametrize("kind", sorted(ACTIVATIONS))
def test_fuse_activation_into_conv(tmp_path, kind):
    tail, inits, expect = ACTIVATIONS[kind]
    model = conv_model(tail, inits)
    report, om = compile_and_compare(model, tmp_path, [{"x": randn(1, 3, 8, 8, scale=2.0)}])
    nodes = om.profile(0)["nodes"]
    assert [n["op"] for n in nodes] == ["Conv"], [n["op"] for n in nodes]
    want = expect or (kind.replace("PPOCR", ""),)
    assert nodes[0]["attrs"]["activation"] == want[0]
    if len(want) > 1:
        assert nodes[0]["attrs"]["activation_alpha"] == pytest.approx(want[1])
        assert nodes[0]["attrs"]["activation_beta"] == pytest.approx(want[2])
    assert "fuse_activation" in [e["pass"] for e in report["passes"]]


def test_fuse_gelu_through_gemm_reshape(tmp_path):
    # MatMul+Add (3-D) becomes Reshape/Gemm/Reshape; the GELU after it still fuses into the Gemm.
    tail, inits, _ = ACTIVATIONS["GeluErf"]
    nodes = [helper.make_node("MatMul", ["x", "w"], ["m"]), helper.make_node("Add", ["m", "b"], ["c"])] + tail
    model = make_model(nodes, [("x", [2, 5, 8])], [("y", None)], dict(inits, w=randn(8, 6), b=randn(6)))
    report, om = compile_and_compare(model, tmp_path, [{"x": randn(2, 5, 8)}])
    gemm = next(n for n in om.profile(0)["nodes"] if n["op"] == "Gemm")
    assert gemm["attrs"]["activation"] == "Gelu"
    assert ops_of(om) == ["Reshape", "Gemm", "Reshape"]


def test_standalone_hardswish_and_gelu_patterns(tmp_path):
    # Without a conv in front they become single HardSwish / Gelu nodes.
    tail, inits, _ = ACTIVATIONS["HardSwishPPOCR"]
    model = make_model([helper.make_node("Relu", ["x"], ["c"])] + tail, [("x", [2, 8])], [("y", None)], inits)
    _, om = compile_and_compare(model, tmp_path, [{"x": randn(2, 8, scale=4)}], name="hs")
    assert ops_of(om) == ["Relu", "HardSwish"]
    tail, inits, _ = ACTIVATIONS["GeluTanh"]
    model = make_model([helper.make_node("Relu", ["x"], ["c"])] + tail, [("x", [2, 8])], [("y", None)], inits)
    _, om = compile_and_compare(model, tmp_path, [{"x": randn(2, 8, scale=2)}], name="gt")
    assert ops_of(om) == ["Relu", "Gelu"]
    assert om.profile(0)["nodes"][1]["attrs"] == {"approximate": "tanh"}


def _precision_model():
    nodes = [helper.make_node("MatMul", ["x", "w"], ["m"]), helper.make_node("Add", ["m", "b"], ["a"]),
             helper.make_node("Softmax", ["a"], ["s"], axis=-1), helper.make_node("Relu", ["s"], ["y"])]
    return make_model(nodes, [("x", [4, 8])], [("y", None)], {"w": randn(8, 8), "b": randn(8)})


def _dtypes(om):
    g = om.profile(0)
    return {n["op"]: [g["tensors"][i]["dtype"] for i in n["inputs"] if i >= 0] for n in g["nodes"]}


def test_precision_force_fp32_is_identity(tmp_path):
    _, om = compile_and_compare(_precision_model(), tmp_path, [{"x": randn(4, 8)}])
    assert "Cast" not in ops_of(om)


def test_precision_mix_keeps_softmax_fp32(tmp_path):
    from acl_sim.compiler import compile_model
    from acl_sim.compiler.om_reader import read_om

    report = compile_model(_precision_model(), str(tmp_path / "mix"), precision_mode="allow_mix_precision",
                           cache=False)
    om = read_om(report["om_path"])
    dtypes = _dtypes(om)
    assert dtypes["Gemm"] == [1, 1, 1]  # fp16 activations and weights (converted at compile time)
    assert dtypes["Softmax"] == [0]  # deny list: stays fp32
    assert ops_of(om).count("Cast") == 2  # x -> fp16 before the Gemm, back to fp32 before Softmax
    assert om.iodesc["outputs"][0]["dtype"] == 0
    stats = pass_stats(report, "precision")
    assert stats["fp16_nodes"] == 1 and stats["casts"] == 2


def test_precision_force_fp16_and_mixlist(tmp_path):
    import json

    from acl_sim.compiler import compile_model
    from acl_sim.compiler.om_reader import read_om

    report = compile_model(_precision_model(), str(tmp_path / "f16"), precision_mode="force_fp16",
                           output_type="FP16", cache=False)
    om = read_om(report["om_path"])
    assert _dtypes(om)["Relu"] == [1] and om.iodesc["outputs"][0]["dtype"] == 1
    # force_fp16 takes fp16 wherever an op has both (CANN), the allow_mix_precision deny list included.
    assert _dtypes(om)["Softmax"] == [1] and "Cast" not in ops_of(om)[1:-1]
    mixlist = tmp_path / "mix.json"
    mixlist.write_text(json.dumps({"black-list": {"to-add": ["MatMulV2"]}, "white-list": {"to-add": ["SoftmaxV2"]}}))
    report = compile_model(_precision_model(), str(tmp_path / "ml"), precision_mode_v2="mixed_float16",
                           modify_mixlist=str(mixlist), cache=False)
    dtypes = _dtypes(read_om(report["om_path"]))
    assert dtypes["Gemm"] == [0, 0, 0] and dtypes["Softmax"] == [1]


def test_precision_numerics_fp16_close(tmp_path):
    # fp16 compute stays close to fp32 on a small model (checked by casting the .om back through ORT).
    model = conv_model([_act("Relu", "c", "y")])
    compile_and_compare(model, tmp_path, [{"x": randn(1, 3, 8, 8)}], precision_mode="force_fp16",
                        rtol=2e-2, atol=2e-2)


def test_output_type_fp16_alone(tmp_path):
    from acl_sim.compiler import compile_model
    from acl_sim.compiler.om_reader import read_om

    report = compile_model(_precision_model(), str(tmp_path / "o16"), output_type="FP16", cache=False)
    om = read_om(report["om_path"])
    assert ops_of(om) == ["Gemm", "Softmax", "Relu", "Cast"]
    assert om.iodesc["outputs"][0]["dtype"] == 1


def test_dce_drops_unread_optional_outputs(tmp_path):
    nodes = [helper.make_node("MaxPool", ["x"], ["p", "idx"], kernel_shape=[2, 2], strides=[2, 2])]
    model = make_model(nodes, [("x", [1, 2, 4, 4])], [("p", None)])
    _, om = compile_and_compare(model, tmp_path, [{"x": randn(1, 2, 4, 4)}])
    assert len(om.profile(0)["nodes"][0]["outputs"]) == 1


def test_fold_bias_and_bn_into_conv_transpose(tmp_path):
    c = 3
    bn = {"g": randn(c) + 1, "be": randn(c), "mu": randn(c), "var": np.abs(randn(c)) + 0.5}
    nodes = [helper.make_node("ConvTranspose", ["x", "w"], ["t"], strides=[2, 2], kernel_shape=[2, 2]),
             helper.make_node("Add", ["t", "bias"], ["a"]),
             helper.make_node("BatchNormalization", ["a", "g", "be", "mu", "var"], ["bn"]),
             helper.make_node("Relu", ["bn"], ["y"])]
    model = make_model(nodes, [("x", [1, 2, 4, 4])], [("y", None)],
                       dict(bn, w=randn(2, c, 2, 2), bias=randn(1, c, 1, 1)))
    _, om = compile_and_compare(model, tmp_path, [{"x": randn(1, 2, 4, 4)}])
    assert ops_of(om) == ["ConvTranspose"]
    assert om.profile(0)["nodes"][0]["attrs"]["activation"] == "Relu"


def test_softmax_pattern(tmp_path):
    nodes = [helper.make_node("ReduceMax", ["x"], ["m"], axes=[1]), helper.make_node("Sub", ["x", "m"], ["d"]),
             helper.make_node("Exp", ["d"], ["e"]), helper.make_node("ReduceSum", ["e", "ax"], ["s"]),
             helper.make_node("Div", ["e", "s"], ["y"])]
    model = make_model(nodes, [("x", [2, 5, 3])], [("y", None)], {"ax": np.array([1], np.int64)})
    report, om = compile_and_compare(model, tmp_path, [{"x": randn(2, 5, 3, scale=3)}])
    assert pass_stats(report, "softmax_pattern")["softmaxes"] == 1
    assert ops_of(om) == ["Softmax"] and om.profile(0)["nodes"][0]["attrs"] == {"axis": 1}


def test_layernorm_pattern_keeps_non_feature_scale(tmp_path):
    # A Mul whose constant varies along a non-normalised axis is not gamma: it stays a Mul.
    nodes = [helper.make_node("ReduceMean", ["x"], ["mean"], axes=[-1]), helper.make_node("Sub", ["x", "mean"], ["d"]),
             helper.make_node("Mul", ["d", "d"], ["sq"]), helper.make_node("ReduceMean", ["sq"], ["var"], axes=[-1]),
             helper.make_node("Add", ["var", "eps"], ["ve"]), helper.make_node("Sqrt", ["ve"], ["std"]),
             helper.make_node("Div", ["d", "std"], ["n"]), helper.make_node("Mul", ["n", "rowscale"], ["y"])]
    inits = {"eps": np.float32(1e-5), "rowscale": randn(3, 1)}
    model = make_model(nodes, [("x", [2, 3, 16])], [("y", None)], inits)
    _, om = compile_and_compare(model, tmp_path, [{"x": randn(2, 3, 16)}])
    assert ops_of(om) == ["LayerNormalization", "Mul"]


def test_opset18_spellings_lower_to_17(tmp_path):
    # Pad with axes, Split with num_outputs (uneven), Resize with axes, ReduceMean with an axes input.
    nodes = [helper.make_node("Pad", ["x", "pads", "", "pax"], ["p"]),
             helper.make_node("Split", ["p"], ["s0", "s1", "s2"], axis=1, num_outputs=3),
             helper.make_node("Resize", ["s0", "", "scales"], ["r"], axes=[3], mode="nearest"),
             helper.make_node("ReduceMean", ["s1", "rax"], ["m"], keepdims=1),
             helper.make_node("Add", ["s1", "m"], ["y2"])]
    inits = {"pads": np.array([1, 2], np.int64), "pax": np.array([1], np.int64),
             "scales": np.array([2.0], np.float32), "rax": np.array([-1], np.int64)}
    model = make_model(nodes, [("x", [1, 5, 2, 3])], [("r", None), ("y2", None), ("s2", None)], inits, opset=18)
    _, om = compile_and_compare(model, tmp_path, [{"x": randn(1, 5, 2, 3)}])
    g = om.profile(0)
    split = next(n for n in g["nodes"] if n["op"] == "Split")
    assert om.weight(g["tensors"][split["inputs"][1]]).tolist() == [3, 3, 2]
    pad = next(n for n in g["nodes"] if n["op"] == "Pad")
    assert len([i for i in pad["inputs"] if i >= 0]) == 2
    assert next(n for n in g["nodes"] if n["op"] == "ReduceMean")["attrs"]["axes"] == [-1]


def test_dropout_mask_output_is_folded(tmp_path):
    nodes = [helper.make_node("Dropout", ["x"], ["y", "mask"])]
    model = make_model(nodes, [("x", [2, 3])], [("y", None), ("mask", None, TensorProto.BOOL)])
    _, om = compile_and_compare(model, tmp_path, [{"x": randn(2, 3)}])
    assert ops_of(om) == ["Identity", "Identity"]
    assert om.iodesc["outputs"][1]["dtype"] == 12


def test_function_ops_expand(tmp_path):
    # RMSNormalization (opset 23, context-dependent body) and Swish (opset 24) have no kernel of their
    # own: shape inference expands their ONNX function bodies into primitive ops.
    nodes = [helper.make_node("RMSNormalization", ["x", "scale"], ["r"], axis=-1, epsilon=1e-5),
             helper.make_node("Swish", ["r"], ["y"], alpha=1.5)]
    model = make_model(nodes, [("x", [2, 3, 8])], [("y", None)], {"scale": randn(8) + 1}, opset=24)
    model.ir_version = 11
    report, om = compile_and_compare(model, tmp_path, [{"x": randn(2, 3, 8)}])
    assert pass_stats(report, "shape_infer")["functions_expanded"] == 2
    ops = ops_of(om)
    assert "RMSNormalization" not in ops and "Swish" not in ops and "Sigmoid" in ops
    assert all(n["sources"][0] in ("RMSNormalization_0", "Swish_1") for n in om.profile(0)["nodes"])


def test_flush_subnormals(tmp_path):
    # PP-OCRv4 rec's SE convs ship weights that are 20-25% subnormal: the .om carries them as signed zeros
    # (a subnormal FMA operand costs a CPU a microcode assist), the rest bit for bit, and the outputs hold.
    w = randn(4, 3, 3, 3, scale=0.3)
    w.flat[::3] = np.float32(1e-42)
    w.flat[1::7] = np.float32(-3e-40)
    tiny = np.finfo(np.float32).tiny
    subnormal = (np.abs(w) < tiny) & (w != 0)
    model = conv_model([helper.make_node("Relu", ["c"], ["y"])])
    for init in model.graph.initializer:
        if init.name == "w":
            init.CopyFrom(helper.make_tensor("w", TensorProto.FLOAT, w.shape, w.flatten()))
    report, om = compile_and_compare(model, tmp_path, [{"x": randn(1, 3, 8, 8)}])
    assert pass_stats(report, "flush_subnormals")["flushed_values"] == int(subnormal.sum())
    (wt,) = [t for t in om.profile(0)["tensors"] if t.get("kind") == "weight" and list(t["shape"]) == [4, 3, 3, 3]]
    stored = om.weight(wt)
    assert not ((np.abs(stored) < tiny) & (stored != 0)).any()
    np.testing.assert_array_equal(stored[~subnormal], w[~subnormal])
    assert (stored[subnormal] == 0).all() and (np.signbit(stored[subnormal]) == np.signbit(w[subnormal])).all()
