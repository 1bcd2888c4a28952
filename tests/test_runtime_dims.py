"""Data-dependent output shapes (docs/dynamic_shapes.md): the shape-setting kernels (NonZero,
Compress, Unique, NonMaxSuppression) against float64 NumPy references, and models whose dims are
set at run time through ATC, the .om reader, the executor and aclmdl (GetOutputDims gives -1,
GetCurOutputDims and the output dataset's tensor desc the real dims)."""
import json

import numpy as np
import pytest
from onnx import TensorProto, helper

from kernel_harness import BF16, expect_error, rand, run

OUTPUT_NOT_MATCH, PARSE_MODEL = 100022, 100013


# ---------------------------------------------------------------- kernels


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int64, np.int8, np.bool_, np.float64]
                         + ([BF16] if BF16 is not None else []), ids=lambda d: np.dtype(d).name)
def test_nonzero(dtype):
    rng = np.random.default_rng(0)
    for shape in [(7,), (3, 4), (2, 3, 5), (40, 1000), (0, 3)]:
        x = rand(rng, shape, dtype)
        if x.size and np.dtype(dtype) != np.bool_:
            x.reshape(-1)[rng.random(x.size) < 0.5] = 0
        want = np.array(np.nonzero(np.asarray(x, dtype=np.float64)), dtype=np.int64)
        got = run("NonZero", [x], (len(shape), x.size), np.int64)
        np.testing.assert_array_equal(got, want)
    zeros = np.zeros((4, 4), np.float32)
    assert run("NonZero", [zeros], (2, 16), np.int64).shape == (2, 0)
    nan = np.array([0.0, np.nan, -0.0, 1.0], np.float32)
    np.testing.assert_array_equal(run("NonZero", [nan], (1, 4), np.int64), [[1, 3]])
    # The capacity is checked before anything is written.
    expect_error(lambda: run("NonZero", [np.ones(8, np.float32)], (1, 7), np.int64), OUTPUT_NOT_MATCH)


def test_compress():
    rng = np.random.default_rng(1)
    x = rng.standard_normal((3, 5, 4)).astype(np.float32)
    for axis in [None, 0, 1, 2, -1]:
        for n in [1, 3, 4, 5, 60]:
            cond = rng.random(n) < 0.5
            want = np.compress(cond[:x.size if axis is None else x.shape[axis]], x.astype(np.float64), axis=axis)
            cap = list(x.shape) if axis is not None else [x.size]
            attrs = {} if axis is None else {"axis": axis}
            got = run("Compress", [x, cond], cap, np.float32, **attrs)
            np.testing.assert_array_equal(got, want.astype(np.float32))
    ints = rng.integers(0, 9, (6, 2)).astype(np.int64)
    np.testing.assert_array_equal(run("Compress", [ints, np.array([1, 0, 1], bool)], (6, 2), np.int64, axis=0),
                                  ints[[0, 2]])


def _unique_reference(x, axis, sorted_):
    """Y, first indices, inverse, counts in float64 NumPy, first-occurrence order when not sorted."""
    y, idx, inv, cnt = np.unique(np.asarray(x, np.float64), return_index=True, return_inverse=True,
                                 return_counts=True, axis=axis)
    inv = inv.reshape(-1)
    if not sorted_:
        order = np.argsort(idx, kind="stable")
        rank = np.empty_like(order)
        rank[order] = np.arange(len(order))
        y = np.take(y, order, axis=0 if axis is None else axis)
        idx, cnt, inv = idx[order], cnt[order], rank[inv]
    return y, idx, inv, cnt


@pytest.mark.parametrize("sorted_", [1, 0])
def test_unique(sorted_):
    rng = np.random.default_rng(2)
    cases = [(rng.integers(-4, 5, 50).astype(np.float32), None), (rng.integers(0, 3, 2000).astype(np.int64), None),
             (rng.integers(0, 2, (6, 3)).astype(np.float32), 0), (rng.integers(0, 2, (3, 6)).astype(np.float32), 1),
             (rng.integers(0, 2, (2, 5, 2)).astype(np.float32), 1), (np.array([7], np.int64), None),
             (rng.integers(0, 4, (3, 4)).astype(np.float16), None)]
    for x, axis in cases:
        y, idx, inv, cnt = _unique_reference(x, axis, sorted_)
        n = x.size if axis is None else x.shape[axis]
        cap_y = [x.size] if axis is None else list(x.shape)
        attrs = {"sorted": sorted_} if axis is None else {"sorted": sorted_, "axis": axis}
        got = run("Unique", [x], [cap_y, [n], [n], [n]], [x.dtype, np.int64, np.int64, np.int64], **attrs)
        np.testing.assert_array_equal(got[0].astype(np.float64), y)
        for g, w in zip(got[1:], (idx, inv, cnt)):
            np.testing.assert_array_equal(g, w)


def _iou(a, b):
    ya1, xa1, ya2, xa2 = min(a[0], a[2]), min(a[1], a[3]), max(a[0], a[2]), max(a[1], a[3])
    yb1, xb1, yb2, xb2 = min(b[0], b[2]), min(b[1], b[3]), max(b[0], b[2]), max(b[1], b[3])
    ih, iw = min(ya2, yb2) - max(ya1, yb1), min(xa2, xb2) - max(xa1, xb1)
    if ih <= 0 or iw <= 0:
        return 0.0
    inter = ih * iw
    return inter / ((ya2 - ya1) * (xa2 - xa1) + (yb2 - yb1) * (xb2 - xb1) - inter)


def _nms_reference(boxes, scores, max_out, iou_t, score_t, center):
    boxes = boxes.astype(np.float64)
    if center:
        xc, yc, w, h = (boxes[..., k] for k in range(4))
        boxes = np.stack([yc - h / 2, xc - w / 2, yc + h / 2, xc + w / 2], -1)
    rows = []
    for b in range(scores.shape[0]):
        for c in range(scores.shape[1]):
            s = scores[b, c].astype(np.float64)
            cand = [i for i in np.argsort(-s, kind="stable") if score_t is None or s[i] > score_t]
            kept = []
            for i in cand:
                if len(kept) >= max_out:
                    break
                if all(_iou(boxes[b, i], boxes[b, k]) <= iou_t for k in kept):
                    kept.append(i)
            rows += [[b, c, i] for i in kept]
    return np.array(rows, dtype=np.int64).reshape(-1, 3)


@pytest.mark.parametrize("center", [0, 1])
def test_non_max_suppression(center):
    rng = np.random.default_rng(3 + center)
    for batches, classes, n in [(1, 1, 6), (2, 3, 40), (1, 2, 300)]:
        xy = rng.random((batches, n, 2)) * 10
        wh = rng.random((batches, n, 2)) * 3 + 0.1
        if center:
            boxes = np.concatenate([xy, wh], -1).astype(np.float32)
        else:
            boxes = np.concatenate([xy, xy + wh], -1)[..., [1, 0, 3, 2]].astype(np.float32)
            boxes[0, ::3] = boxes[0, ::3][:, [2, 3, 0, 1]]  # flipped corners
        scores = rng.random((batches, classes, n)).astype(np.float32)
        for max_out, iou_t, score_t in [(3, 0.5, None), (n, 0.3, 0.4), (0, 0.5, None), (10, 0.0, 0.0)]:
            want = _nms_reference(boxes, scores, max_out, iou_t, score_t, center)
            inputs = [boxes, scores, np.array([max_out], np.int64), np.array([iou_t], np.float32),
                      None if score_t is None else np.array([score_t], np.float32)]
            got = run("NonMaxSuppression", inputs, (batches * classes * n, 3), np.int64, center_point_box=center)
            np.testing.assert_array_equal(got, want)


# ---------------------------------------------------------------- models


def _model(nodes, inputs, outputs, opset=17):
    graph = helper.make_graph(nodes, "g", inputs, outputs)
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 8
    return m


def _detection_tail():
    """NonZero -> Transpose -> Gather of the scores at those positions -> Mul; and a ReduceSum over the
    run-time axis (a static result)."""
    f = TensorProto.FLOAT
    nodes = [helper.make_node("Greater", ["x", "t"], ["mask"]),
             helper.make_node("NonZero", ["mask"], ["nz"]),
             helper.make_node("Transpose", ["nz"], ["pos"], perm=[1, 0]),
             helper.make_node("GatherND", ["x", "pos"], ["vals"]),
             helper.make_node("Mul", ["vals", "two"], ["y"]),
             helper.make_node("Cast", ["nz"], ["nzf"], to=f),
             helper.make_node("ReduceSum", ["nzf"], ["total"], axes=[1], keepdims=0)]
    m = _model(nodes, [helper.make_tensor_value_info("x", f, [4, 5])],
               [helper.make_tensor_value_info("pos", TensorProto.INT64, [None, 2]),
                helper.make_tensor_value_info("y", f, [None]),
                helper.make_tensor_value_info("total", f, [2])], opset=12)
    m.graph.initializer.extend([helper.make_tensor("t", f, [], [0.5]), helper.make_tensor("two", f, [], [2.0])])
    return m


def test_run_time_dims_through_aclmdl():
    import acl_sim.onnx_backend as backend

    rep = backend.prepare(_detection_tail())
    try:
        acl, desc = rep._acl, rep.desc
        dims, ret = acl.mdl.get_output_dims(desc, 0)
        assert ret == 0 and dims["dims"] == [-1, 2]  # unknown until the model runs
        assert acl.mdl.get_output_size_by_index(desc, 0) == 20 * 2 * 8  # the bound: every element selected
        rng = np.random.default_rng(4)
        for frac in [0.3, 0.0, 1.0, 0.7]:  # a smaller run after a larger one resets the capacity
            x = (rng.random((4, 5)) < frac).astype(np.float32) * rng.random((4, 5)).astype(np.float32) + 0.0
            x[x > 0] += 0.5
            pos, y, total = rep.run([x])
            want = np.argwhere(x > 0.5)
            np.testing.assert_array_equal(pos, want)
            np.testing.assert_allclose(y, x[x > 0.5].astype(np.float64) * 2, rtol=1e-6)
            np.testing.assert_allclose(total, want.sum(0).astype(np.float64))
            cur, ret = acl.mdl.get_cur_output_dims(desc, 0)
            assert ret == 0 and cur["dims"] == [len(want), 2]
            td = acl.mdl.get_dataset_tensor_desc(rep.out_ds, 1)
            assert td and acl.get_tensor_desc_num_dims(td) == 1
            assert acl.get_tensor_desc_dim_v2(td, 0) == (len(want), 0)
    finally:
        rep.close()


def test_unique_and_nms_match_onnxruntime():
    import onnxruntime as ort

    import acl_sim.onnx_backend as backend

    f, i64 = TensorProto.FLOAT, TensorProto.INT64
    unique = _model([helper.make_node("Unique", ["x"], ["y", "idx", "inv", "cnt"], sorted=0),
                     helper.make_node("Neg", ["y"], ["ny"])],
                    [helper.make_tensor_value_info("x", f, [30])],
                    [helper.make_tensor_value_info(n, t, [None]) for n, t in
                     [("ny", f), ("idx", i64), ("inv", i64), ("cnt", i64)]], opset=11)
    nms = _model([helper.make_node("NonMaxSuppression", ["b", "s", "m", "iou"], ["sel"]),
                  helper.make_node("Gather", ["sel", "col"], ["box"], axis=1)],
                 [helper.make_tensor_value_info("b", f, [1, 50, 4]), helper.make_tensor_value_info("s", f, [1, 3, 50])],
                 [helper.make_tensor_value_info("box", i64, [None])], opset=11)
    nms.graph.initializer.extend([helper.make_tensor("m", i64, [1], [5]), helper.make_tensor("iou", f, [1], [0.4]),
                                  helper.make_tensor("col", i64, [], [2])])
    rng = np.random.default_rng(5)
    xy = rng.random((1, 50, 2)).astype(np.float32) * 5
    feeds = [([rng.integers(0, 9, 30).astype(np.float32)], unique),
             ([np.concatenate([xy, xy + 1], -1), rng.random((1, 3, 50)).astype(np.float32)], nms)]
    for inputs, model in feeds:
        sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
        want = sess.run(None, dict(zip([i.name for i in model.graph.input], inputs)))
        rep = backend.prepare(model)
        try:
            got = rep.run(inputs)
        finally:
            rep.close()
        for g, w in zip(got, want):
            np.testing.assert_array_equal(g, w)


def test_if_with_a_data_dependent_condition():
    import acl_sim.onnx_backend as backend

    f = TensorProto.FLOAT
    then_g = helper.make_graph([helper.make_node("Add", ["x", "x"], ["a"])], "then", [],
                               [helper.make_tensor_value_info("a", f, [3])])
    else_g = helper.make_graph([helper.make_node("Neg", ["x"], ["b"])], "else", [],
                               [helper.make_tensor_value_info("b", f, [3])])
    m = _model([helper.make_node("If", ["c"], ["y"], then_branch=then_g, else_branch=else_g)],
               [helper.make_tensor_value_info("c", TensorProto.BOOL, [1]), helper.make_tensor_value_info("x", f, [3])],
               [helper.make_tensor_value_info("y", f, [3])])
    rep = backend.prepare(m)
    try:
        x = np.array([1, -2, 3], np.float32)
        np.testing.assert_array_equal(rep.run([np.array([True]), x])[0], x + x)
        np.testing.assert_array_equal(rep.run([np.array([False]), x])[0], -x)
    finally:
        rep.close()


def test_unsupported_consumer_names_node_and_symbol(tmp_path):
    from acl_sim.compiler import CompileError, compile_model

    f = TensorProto.FLOAT
    m = _model([helper.make_node("NonZero", ["x"], ["nz"]),
                helper.make_node("Reshape", ["nz", "shape"], ["y"])],
               [helper.make_tensor_value_info("x", f, [4])], [helper.make_tensor_value_info("y", TensorProto.INT64, [None])])
    m.graph.initializer.append(helper.make_tensor("shape", TensorProto.INT64, [1], [-1]))
    with pytest.raises(CompileError, match=r"node 'Reshape.*input 'nz' has a dim set at run time \(by .*count\)"):
        compile_model(m, str(tmp_path / "m"))
    then_g = helper.make_graph([helper.make_node("Constant", [], ["a"], value=helper.make_tensor("v", f, [2], [1, 2]))],
                               "then", [], [helper.make_tensor_value_info("a", f, [2])])
    else_g = helper.make_graph([helper.make_node("Constant", [], ["b"], value=helper.make_tensor("v", f, [3], [1, 2, 3]))],
                               "else", [], [helper.make_tensor_value_info("b", f, [3])])
    m = _model([helper.make_node("If", ["c"], ["y"], then_branch=then_g, else_branch=else_g)],
               [helper.make_tensor_value_info("c", TensorProto.BOOL, [])], [helper.make_tensor_value_info("y", f, [None])])
    with pytest.raises(CompileError, match=r"If.*different shapes"):
        compile_model(m, str(tmp_path / "if"))


def test_reader_rejects_bad_run_time_dims(tmp_path):
    from acl_sim import _core
    from acl_sim._model_testing import replace_section, sections
    from acl_sim.compiler import compile_model
    from acl_sim.compiler.om_writer import SECTION_GRAPH

    m = _model([helper.make_node("NonZero", ["x"], ["nz"]), helper.make_node("Neg", ["nz"], ["y"])],
               [helper.make_tensor_value_info("x", TensorProto.FLOAT, [6])],
               [helper.make_tensor_value_info("y", TensorProto.INT64, [1, None])])
    path = compile_model(m, str(tmp_path / "nz"))["om_path"]
    image = open(path, "rb").read()
    tm = _core.testing_model
    model = tm.Model.from_bytes(image)
    x = np.array([0, 1, 0, 2, 3, 0], np.float32)
    np.testing.assert_array_equal(model.run([x])[0], -np.array([[1, 3, 4]]))
    graph = json.loads(dict(sections(image))[SECTION_GRAPH])

    def damaged(edit):
        g = json.loads(json.dumps(graph))
        edit(g["profiles"][0])
        with pytest.raises(tm.ModelError) as info:
            tm.Model.from_bytes(replace_section(image, SECTION_GRAPH, json.dumps(g).encode()))
        assert info.value.code == PARSE_MODEL, str(info.value)
        return str(info.value)

    sym_tensor = next(k for k, t in enumerate(graph["profiles"][0]["tensors"]) if "sym" in t)

    def bad_bound(p):
        p["symbols"][0]["bound"] += 1

    def bad_ref(p):
        p["tensors"][sym_tensor]["sym"] = [-1, 5]

    def no_definer(p):  # the Neg is not a shape-setting op
        p["nodes"] = p["nodes"][1:]
        p["nodes"][0]["inputs"] = [0]

    def wrong_rank(p):
        p["tensors"][sym_tensor]["sym"] = [0]

    assert "bound" in damaged(bad_bound)
    assert "symbol" in damaged(bad_ref)
    assert "shape-setting" in damaged(no_definer) or "before a node sets it" in damaged(no_definer)
    assert "entries" in damaged(wrong_rank)
