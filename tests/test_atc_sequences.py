"""Sequence and optional values (docs/sequences.md): ATC resolves them at compile time into plain
tensor nodes; sequence outputs become one model output per element; acl_sim.onnx_backend passes
sequence inputs as one tensor per element. Checked against onnxruntime on random data."""
import numpy as np
import pytest
from onnx import TensorProto, helper

from acl_sim.compiler import CompileError, compile_model

F = TensorProto.FLOAT


def _model(nodes, inputs, outputs, opset=17, inits=()):
    graph = helper.make_graph(nodes, "g", inputs, outputs, initializer=list(inits))
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 8
    return m


def _seq_vi(name, elem=F):
    return helper.make_tensor_sequence_value_info(name, elem, None)


def _ort(model, feeds):
    import onnxruntime as ort

    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return sess.run(None, feeds)


def _acl(model, feeds):
    import acl_sim.onnx_backend as backend

    rep = backend.prepare(model)
    try:
        return list(rep.run(feeds))
    finally:
        rep.close()


def _same(got, want):
    if isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want)
        for g, w in zip(got, want):
            _same(g, w)
    else:
        assert np.asarray(got).dtype == np.asarray(want).dtype
        np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-6, atol=1e-6)


def test_split_edit_and_concat_match_onnxruntime(tmp_path):
    """SplitToSequence -> SequenceErase / SequenceInsert / SequenceAt -> ConcatFromSequence, plus a
    sequence output (one model output per element)."""
    nodes = [helper.make_node("SplitToSequence", ["x", "split"], ["s"], axis=1),
             helper.make_node("SequenceErase", ["s", "one"], ["s2"]),
             helper.make_node("Relu", ["x"], ["r"]),
             helper.make_node("SequenceInsert", ["s2", "r"], ["s3"]),
             helper.make_node("SequenceAt", ["s3", "minus1"], ["last"]),
             helper.make_node("SequenceLength", ["s3"], ["n"]),
             helper.make_node("ConcatFromSequence", ["s2"], ["cat"], axis=0, new_axis=1),
             helper.make_node("Identity", ["s3"], ["seq_out"])]
    inits = [helper.make_tensor("split", TensorProto.INT64, [3], [1, 2, 1]),
             helper.make_tensor("one", TensorProto.INT64, [], [1]),
             helper.make_tensor("minus1", TensorProto.INT64, [], [-1])]
    m = _model(nodes, [helper.make_tensor_value_info("x", F, [2, 4])],
               [helper.make_tensor_value_info("last", F, [2, 4]), helper.make_tensor_value_info("n", TensorProto.INT64, []),
                helper.make_tensor_value_info("cat", F, [2, 2, 1]), _seq_vi("seq_out")], inits=inits)
    x = np.random.default_rng(0).standard_normal((2, 4)).astype(np.float32)
    want = _ort(m, {"x": x})
    got = _acl(m, {"x": x})
    for g, w in zip(got, want):
        _same(g, w)
    report = compile_model(m, str(tmp_path / "seq"), cache=False)
    assert report["sequence_outputs"] == {"seq_out": 3}


def test_sequence_inputs_and_sequence_map():
    """A sequence input (one tensor input per element) through SequenceMap with a tensor input."""
    body = helper.make_graph([helper.make_node("Mul", ["a", "b"], ["c"])], "body",
                             [helper.make_tensor_value_info("a", F, None), helper.make_tensor_value_info("b", F, None)],
                             [helper.make_tensor_value_info("c", F, None)])
    m = _model([helper.make_node("SequenceMap", ["xs", "w"], ["ys"], body=body)],
               [_seq_vi("xs"), helper.make_tensor_value_info("w", F, [3])], [_seq_vi("ys")])
    rng = np.random.default_rng(1)
    for n in (1, 3):
        xs = [rng.standard_normal((k + 1, 3)).astype(np.float32) for k in range(n)]
        w = rng.standard_normal(3).astype(np.float32)
        (want,) = _ort(m, {"xs": xs, "w": w})
        (got,) = _acl(m, {"xs": xs, "w": w})
        _same(got, want)


def test_optional_values_and_if_on_sequences():
    then_g = helper.make_graph([helper.make_node("SequenceConstruct", ["x", "x"], ["t"])], "then", [], [_seq_vi("t")])
    else_g = helper.make_graph([helper.make_node("Neg", ["x"], ["nx"]),
                                helper.make_node("SequenceConstruct", ["nx", "x"], ["e"])], "else", [], [_seq_vi("e")])
    nodes = [helper.make_node("Optional", ["x"], ["o"]),
             helper.make_node("OptionalHasElement", ["o"], ["has"]),
             helper.make_node("OptionalGetElement", ["o"], ["got"]),
             helper.make_node("If", ["c"], ["picked"], then_branch=then_g, else_branch=else_g)]
    m = _model(nodes, [helper.make_tensor_value_info("x", F, [2]), helper.make_tensor_value_info("c", TensorProto.BOOL, [])],
               [helper.make_tensor_value_info("has", TensorProto.BOOL, []), helper.make_tensor_value_info("got", F, [2]),
                _seq_vi("picked")], opset=18)
    x = np.array([1.5, -2.0], np.float32)
    for c in (True, False):
        feeds = {"x": x, "c": np.array(c)}
        for g, w in zip(_acl(m, feeds), _ort(m, feeds)):
            _same(g, w)


def test_compile_errors_name_the_node(tmp_path):
    m = _model([helper.make_node("SequenceConstruct", ["x", "x"], ["s"]),
                helper.make_node("SequenceAt", ["s", "i"], ["y"])],
               [helper.make_tensor_value_info("x", F, [2]), helper.make_tensor_value_info("i", TensorProto.INT64, [])],
               [helper.make_tensor_value_info("y", F, [2])])
    with pytest.raises(CompileError, match=r"node 'SequenceAt_1' \(SequenceAt, opset 17\): the position must be a "
                                           r"constant"):
        compile_model(m, str(tmp_path / "at"), cache=False)
    # acl_sim.onnx_backend specialises on the position's value instead
    x = np.array([3.0, 4.0], np.float32)
    np.testing.assert_array_equal(_acl(m, {"x": x, "i": np.array(1)})[0], x)
    m = _model([helper.make_node("Identity", ["xs"], ["ys"])], [_seq_vi("xs")], [_seq_vi("ys")])
    with pytest.raises(CompileError, match=r"graph input 'xs' \(seq\(float32\)\).*pass its elements as tensor inputs"):
        compile_model(m, str(tmp_path / "in"), cache=False)
    then_g = helper.make_graph([helper.make_node("SequenceConstruct", ["x"], ["t"])], "then", [], [_seq_vi("t")])
    else_g = helper.make_graph([helper.make_node("SequenceConstruct", ["x", "x"], ["e"])], "else", [], [_seq_vi("e")])
    m = _model([helper.make_node("If", ["c"], ["y"], then_branch=then_g, else_branch=else_g)],
               [helper.make_tensor_value_info("x", F, [2]), helper.make_tensor_value_info("c", TensorProto.BOOL, [])],
               [_seq_vi("y")])
    with pytest.raises(CompileError, match=r"sequences of 1 and 2 elements"):
        compile_model(m, str(tmp_path / "if"), cache=False)
