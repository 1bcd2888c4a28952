"""ATC resolves control flow at compile time: If with a constant condition inlines its branch,
Scan (opset 9+) unrolls over its static length. Checked on acl_sim's runtime against onnxruntime."""
import numpy as np
import pytest
from onnx import TensorProto, helper

from acl_sim.compiler import CompileError, compile_model
from acl_sim.compiler.om_reader import read_om
from atc_util import make_model, ort_run


def _run_backend(model, feeds):
    import acl_sim.onnx_backend as backend

    rep = backend.prepare(model)
    try:
        return list(rep.run(feeds))
    finally:
        rep.close()


def _scan_model():
    # body: states (acc [2], cnt [1]); scan slices x_t [2] (forward, axis 1 of x) and w_t [2] (reverse).
    # It reads `bias`, a tensor the outer graph computes, by name.
    body = helper.make_graph(
        [helper.make_node("Mul", ["x_t", "w_t"], ["p"]),
         helper.make_node("Add", ["acc_in", "p"], ["acc_sum"]),
         helper.make_node("Add", ["acc_sum", "bias"], ["acc_out"]),
         helper.make_node("Add", ["cnt_in", "one"], ["cnt_out"]),
         helper.make_node("Tanh", ["acc_out"], ["y_t"]),
         helper.make_node("Identity", ["p"], ["z_t"])],
        "body",
        [helper.make_tensor_value_info(n, TensorProto.FLOAT, s) for n, s in
         (("acc_in", [2]), ("cnt_in", [1]), ("x_t", [2]), ("w_t", [2]))],
        [helper.make_tensor_value_info(n, TensorProto.FLOAT, s) for n, s in
         (("acc_out", [2]), ("cnt_out", [1]), ("y_t", [2]), ("z_t", [2]))],
        initializer=[helper.make_tensor("one", TensorProto.FLOAT, [1], [1.0])])
    nodes = [helper.make_node("Mul", ["b0", "b0"], ["bias"]),
             helper.make_node("Scan", ["acc0", "cnt0", "x", "w"], ["acc", "cnt", "ys", "zs"], name="scan",
                              body=body, num_scan_inputs=2, scan_input_axes=[1, 0], scan_input_directions=[0, 1],
                              scan_output_axes=[0, -1], scan_output_directions=[1, 0])]
    return make_model(nodes, [("acc0", [2]), ("cnt0", [1]), ("x", [2, 5]), ("w", [5, 2]), ("b0", [2])],
                      [("acc", [2]), ("cnt", [1]), ("ys", [5, 2]), ("zs", [2, 5])], opset=16)


def test_scan_unrolls_and_matches_onnxruntime(tmp_path):
    model = _scan_model()
    rng = np.random.default_rng(31)
    feeds = {"acc0": rng.standard_normal(2).astype(np.float32), "cnt0": np.zeros(1, np.float32),
             "x": rng.standard_normal((2, 5)).astype(np.float32), "w": rng.standard_normal((5, 2)).astype(np.float32),
             "b0": rng.standard_normal(2).astype(np.float32)}
    expected = ort_run(model, feeds)
    got = _run_backend(model, feeds)
    for g, e in zip(got, expected):
        np.testing.assert_allclose(g, e, rtol=1e-5, atol=1e-6)
    report = compile_model(model, str(tmp_path / "scan"), cache=False)
    ops = {n["op"] for n in read_om(report["om_path"]).profile(0)["nodes"]}
    assert "Scan" not in ops and {"Gather", "Concat", "Tanh"} <= ops


def _if_model(cond_from_shape: bool):
    then_g = helper.make_graph([helper.make_node("Relu", ["x"], ["t"])], "then", [],
                               [helper.make_tensor_value_info("t", TensorProto.FLOAT, [2, 3])])
    else_g = helper.make_graph([helper.make_node("Neg", ["x"], ["e"])], "else", [],
                               [helper.make_tensor_value_info("e", TensorProto.FLOAT, [2, 3])])
    nodes = []
    if cond_from_shape:  # rank(x) == 2: a shape test that folds
        nodes += [helper.make_node("Shape", ["x"], ["s"]), helper.make_node("Size", ["s"], ["r"]),
                  helper.make_node("Equal", ["r", "two"], ["c"])]
        inputs, inits = [("x", [2, 3])], {"two": np.array(2, np.int64)}
    else:
        inputs, inits = [("x", [2, 3]), ("c", [], TensorProto.BOOL)], {}
    nodes.append(helper.make_node("If", ["c"], ["y"], name="branch", then_branch=then_g, else_branch=else_g))
    return make_model(nodes, inputs, [("y", [2, 3])], inits, opset=13)


def test_if_with_a_constant_condition_inlines_the_branch(tmp_path):
    model = _if_model(True)
    x = np.random.default_rng(32).standard_normal((2, 3)).astype(np.float32)
    (got,) = _run_backend(model, {"x": x})
    np.testing.assert_array_equal(got, np.maximum(x, 0))
    report = compile_model(model, str(tmp_path / "if"), cache=False)
    assert [n["op"] for n in read_om(report["om_path"]).profile(0)["nodes"]] == ["Relu"]


def test_if_with_a_data_condition_runs_both_branches_and_selects(tmp_path):
    model = _if_model(False)
    x = np.random.default_rng(33).standard_normal((2, 3)).astype(np.float32)
    (got,) = _run_backend(model, {"x": x, "c": np.array(True)})
    np.testing.assert_array_equal(got, np.maximum(x, 0))
    (got,) = _run_backend(model, {"x": x, "c": np.array(False)})
    np.testing.assert_array_equal(got, -x)
    report = compile_model(model, str(tmp_path / "if"), cache=False)
    assert sorted(n["op"] for n in read_om(report["om_path"]).profile(0)["nodes"]) == ["Neg", "Relu", "Where"]


def test_check_reports_unsupported_ops_inside_subgraphs(tmp_path, capsys):
    from acl_sim.compiler.cli import main

    body = helper.make_graph([helper.make_node("RoiAlign", ["x_t", "x_t", "x_t"], ["nz"]),
                              helper.make_node("Identity", ["s"], ["s_out"])], "body",
                             [helper.make_tensor_value_info("s", TensorProto.FLOAT, [1]),
                              helper.make_tensor_value_info("x_t", TensorProto.FLOAT, [2])],
                             [helper.make_tensor_value_info("s_out", TensorProto.FLOAT, [1]),
                              helper.make_tensor_value_info("nz", TensorProto.FLOAT, None)])
    nodes = [helper.make_node("Scan", ["s0", "x"], ["s", "nzs"], name="scan", body=body, num_scan_inputs=1),
             helper.make_node("Loop", ["m", "c"], [], name="loop", body=body)]
    model = make_model(nodes, [("s0", [1]), ("x", [3, 2]), ("m", [], TensorProto.INT64), ("c", [], TensorProto.BOOL)],
                       [("s", [1])], opset=16)
    path = tmp_path / "cf.onnx"
    path.write_bytes(model.SerializeToString())
    assert main(["--check", f"--model={path}"]) == 1
    out = capsys.readouterr().out
    assert "node 'scan' (Scan, opset 16, dtypes float32/float32): op is not supported " \
           "(its body subgraph uses RoiAlign)" in out
    assert "node 'loop' (Loop, opset 16, dtypes int64/bool): op is not supported " \
           "(its body subgraph uses RoiAlign)" in out


def _loop_model(cond_from_data: bool):
    # for i in range(trip): acc = acc * 2 + x[i]; scan output: acc
    nodes = [helper.make_node("Identity", ["cond_in"], ["cond_out"]) if not cond_from_data else
             helper.make_node("Less", ["acc_in", "limit"], ["cond_out"]),
             helper.make_node("Unsqueeze", ["i", "zero"], ["i1"]),
             helper.make_node("Add", ["i1", "one"], ["i2"]),
             helper.make_node("Slice", ["x", "i1", "i2"], ["xi"]),
             helper.make_node("Mul", ["acc_in", "two"], ["acc2"]),
             helper.make_node("Add", ["acc2", "xi"], ["acc_out"]),
             helper.make_node("Identity", ["acc_out"], ["scan"])]
    body = helper.make_graph(
        nodes, "body",
        [helper.make_tensor_value_info("i", TensorProto.INT64, []),
         helper.make_tensor_value_info("cond_in", TensorProto.BOOL, []),
         helper.make_tensor_value_info("acc_in", TensorProto.FLOAT, [1])],
        [helper.make_tensor_value_info("cond_out", TensorProto.BOOL, []),
         helper.make_tensor_value_info("acc_out", TensorProto.FLOAT, [1]),
         helper.make_tensor_value_info("scan", TensorProto.FLOAT, [1])],
        initializer=[helper.make_tensor("zero", TensorProto.INT64, [1], [0]),
                     helper.make_tensor("one", TensorProto.INT64, [1], [1]),
                     helper.make_tensor("two", TensorProto.FLOAT, [1], [2.0]),
                     helper.make_tensor("limit", TensorProto.FLOAT, [1], [100.0])])
    loop = helper.make_node("Loop", ["trip", "cond", "acc0"], ["acc", "accs"], name="loop", body=body)
    return make_model([loop], [("acc0", [1]), ("x", [4])], [("acc", [1]), ("accs", [4, 1])],
                      {"trip": np.array(4, np.int64), "cond": np.array(True)}, opset=16)


def test_for_loop_unrolls_and_matches_onnxruntime(tmp_path):
    model = _loop_model(False)
    feeds = {"acc0": np.array([0.5], np.float32), "x": np.array([1, -2, 3, 0.25], np.float32)}
    for g, e in zip(_run_backend(model, feeds), ort_run(model, feeds)):
        np.testing.assert_allclose(g, e, rtol=1e-6)
    report = compile_model(model, str(tmp_path / "loop"), cache=False)
    assert "Loop" not in {n["op"] for n in read_om(report["om_path"]).profile(0)["nodes"]}


def test_while_loop_is_a_one_line_error(tmp_path):
    with pytest.raises(CompileError, match=r"node 'loop' \(Loop, opset 16\): the body computes its condition"):
        compile_model(_loop_model(True), str(tmp_path / "loop"), cache=False)


def _scan8_model(with_lens):
    body = helper.make_graph(
        [helper.make_node("Mul", ["x_t", "w_t"], ["p"]),
         helper.make_node("Add", ["acc_in", "p"], ["acc_out"]),
         helper.make_node("Sigmoid", ["acc_out"], ["y_t"])],
        "body8",
        [helper.make_tensor_value_info(n, TensorProto.FLOAT, [3]) for n in ("acc_in", "x_t", "w_t")],
        [helper.make_tensor_value_info(n, TensorProto.FLOAT, [3]) for n in ("acc_out", "y_t")])
    node = helper.make_node("Scan", ["lens" if with_lens else "", "acc0", "x", "w"], ["acc", "ys"], name="scan8",
                            body=body, num_scan_inputs=2, directions=[0, 1])
    inits = {"lens": np.full(4, 5, np.int64)} if with_lens else {}
    model = make_model([node], [("acc0", [4, 3]), ("x", [4, 5, 3]), ("w", [4, 5, 3])],
                       [("acc", [4, 3]), ("ys", [4, 5, 3])], inits, opset=8)
    model.ir_version = 4
    return model


@pytest.mark.parametrize("with_lens", [False, True])
def test_scan8_batched_against_onnxruntime(with_lens):
    """Scan-8: batch axis 0, scan axis 1, per-input directions; one opset-9 Scan per batch entry."""
    rng = np.random.default_rng(61)
    feeds = {k: rng.standard_normal(s).astype(np.float32) for k, s in
             (("acc0", (4, 3)), ("x", (4, 5, 3)), ("w", (4, 5, 3)))}
    model = _scan8_model(with_lens)
    want = ort_run(model, feeds)
    got = _run_backend(model, feeds)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)


def test_scan8_sequence_lens_must_cover_the_scan(tmp_path):
    from onnx import numpy_helper

    model = _scan8_model(True)
    kept = [t for t in model.graph.initializer if t.name != "lens"]
    del model.graph.initializer[:]
    model.graph.initializer.extend(kept + [numpy_helper.from_array(np.array([5, 4, 5, 5], np.int64), "lens")])
    with pytest.raises(CompileError, match="sequence_lens must be absent or a constant equal to the scan length"):
        compile_model(model, str(tmp_path / "s8"), cache=False)
